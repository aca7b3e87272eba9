/// A drawn map: its lines, and where each place went.
public struct RenderedMap: Sendable, Hashable {
    /// One place as numbered on the map and in the list.
    public struct Entry: Sendable, Hashable {
        /// The number on the map and in the list: 1 for the nearest.
        public var number: Int
        /// Index of the place in `MapModel.markers`.
        public var markerIndex: Int
        /// The place.
        public var marker: MapMarker
        /// The map cell the place is drawn in, or nil if it lies outside the drawn square (it is
        /// then listed under "Outside the map"). The place is within half a cell of the cell's
        /// centre east–west and north–south, except that one in the centre cell is drawn in the
        /// neighbouring cell towards it (within one cell) so that the centre symbol stays visible.
        public var cell: MapCell?
        /// Whether other places share the cell, which then shows the cluster symbol.
        public var isClustered: Bool
        /// What the map shows in the cell: the number (`"7"`, `"[7]"` when large) or the cluster
        /// symbol; nil outside the map.
        public var symbol: String?
    }

    /// The output, top to bottom, without line terminators and without trailing spaces; with ANSI
    /// colour sequences if the style asked for colour.
    public var lines: [String]
    /// The places nearest first, as numbered.
    public var entries: [Entry]
    /// Cells per side of the map grid (odd).
    public var side: Int
    /// Meters covered by one cell, east–west and north–south.
    public var metersPerCell: Double

    /// The lines joined, each ending in a newline: the bytes a terminal or a golden file gets.
    public var text: String { lines.map { $0 + "\n" }.joined() }
}
