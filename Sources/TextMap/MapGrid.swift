/// The square grid a map is drawn on: `side` × `side` cells (odd, so one cell is centred on the
/// query point) covering 2 × half-extent meters in each direction.
struct MapGrid: Sendable, Hashable {
    /// Cells per side, odd.
    let side: Int
    /// Meters covered by one cell, east–west and north–south.
    let metersPerCell: Double

    /// - Parameters:
    ///   - side: cells per side, odd and 1 or more.
    ///   - halfExtentMeters: half the side of the drawn square, meters, above 0.
    init(side: Int, halfExtentMeters: Double) {
        self.side = side
        metersPerCell = 2 * halfExtentMeters / Double(side)
    }

    /// Cells from the centre cell to an edge cell.
    var half: Int { side / 2 }

    /// The cell holding a point given in meters east and north of the centre, and the one a place
    /// there is drawn in: the cell whose centre is nearest, so the point is at most half a cell
    /// from it east–west and north–south (a point exactly half-way goes to the cell farther from
    /// the centre, as `Double.rounded()` rounds halves away from zero). A place in the centre cell
    /// is drawn there too, merged with the centre symbol. Nil outside the drawn square or for a
    /// non-finite offset.
    func cell(eastMeters: Double, northMeters: Double) -> MapCell? {
        guard eastMeters.isFinite, northMeters.isFinite else { return nil }
        let column = (eastMeters / metersPerCell).rounded()
        let row = (northMeters / metersPerCell).rounded()
        // Compared as Double first: a far point would overflow Int.
        guard abs(column) <= Double(half), abs(row) <= Double(half) else { return nil }
        return MapCell(column: Int(column) + half, row: half - Int(row))
    }

    /// The centre of a cell, meters east and north of the map's centre.
    func center(of cell: MapCell) -> (eastMeters: Double, northMeters: Double) {
        (Double(cell.column - half) * metersPerCell, Double(half - cell.row) * metersPerCell)
    }
}
