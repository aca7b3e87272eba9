import Foundation

extension GridIndex {
    /// An occupied cell of a cover: where it lies in the grid and its live slots.
    struct CoverCell {
        var row: Int32
        var column: Int32
        var start: UInt32
        var count: UInt32
    }

    /// The occupied cells that may hold a point within `angularRadius` of `center` (the same
    /// cover as `slots(inCapAround:angularRadius:)`), row by row. Within a row, cells come in
    /// column order per span: a cover crossing ±180° gives the span up to the last column, then
    /// the one from column 0.
    func cells(inCapAround center: Coordinate, angularRadius sigma: Double) -> [CoverCell] {
        var found: [CoverCell] = []
        func add(_ cell: Cell, row: Int) {
            guard cell.count > 0 else { return }
            found.append(CoverCell(row: Int32(row), column: cell.column, start: cell.start, count: cell.count))
        }
        guard cellCount > 0,
            let cover = layout.capCover(center: center, angularRadius: sigma, maximumCells: cellCount)
        else {
            for row in occupiedRows.map(Int.init) {
                for cell in rows[row] { add(cell, row: row) }
            }
            return found
        }
        for span in cover.spans {
            rows[span.row].withUnsafeBufferPointer { cells in
                var position = self.position(row: span.row, column: span.first)
                while position < cells.count, Int(cells[position].column) <= span.last {
                    add(cells[position], row: span.row)
                    position += 1
                }
            }
        }
        return found
    }
}
