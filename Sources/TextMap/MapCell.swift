/// One square of the map grid, counted from the north-west corner: `column` 0 is the westernmost
/// column and `row` 0 the northernmost row. The centre of the map is cell (`side / 2`, `side / 2`).
///
/// A cell covers `RenderedMap.metersPerCell` meters east–west and north–south; on screen it is
/// 2 characters wide and 1 line tall (4 × 2 with `MapStyle.large`), which is about square in a
/// terminal font.
public struct MapCell: Sendable, Hashable, Codable {
    /// 0-based, west to east.
    public var column: Int
    /// 0-based, north to south.
    public var row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }
}
