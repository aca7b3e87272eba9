import Foundation

extension GridIndex {
    /// A run of live arena slots, start ..< end: one cell's, or several neighbours' merged.
    struct SlotRange {
        var start: Int
        var end: Int
    }

    /// The live slots of every cell that may hold a point whose central angle from `center` is
    /// at most `angularRadius` radians, the angle measured on a unit sphere with geodetic latitude
    /// and longitude (each distance model turns its radius into such an angle conservatively).
    /// Correct when the cap holds a pole (every longitude) or crosses ±180°. When the cover would
    /// visit more cells than the index has, every cell is visited.
    func slots(inCapAround center: Coordinate, angularRadius sigma: Double) -> [SlotRange] {
        guard cellCount > 0,
            let cover = layout.capCover(center: center, angularRadius: sigma, maximumCells: cellCount)
        else { return allSlots() }
        return lookUp(cover.spans, expected: cover.cells)
    }

    /// The live slots of every cell that may hold a point in a latitude/longitude box. `west > east`
    /// means the box crosses ±180°.
    func slots(inBoxSouth south: Double, west: Double, north: Double, east: Double) -> [SlotRange] {
        var spans: [GridLayout.ColumnSpan] = []
        var total = 0
        // Only rows that hold points: a box across every longitude near a pole has millions of
        // cells, and almost none of them occupied.
        let rowRange = layout.row(latitude: south)...layout.row(latitude: north)
        for row in occupiedRows(in: rowRange).map(Int.init) {
            if west <= east {
                total += layout.appendColumnSpans(row: row, west: west, east: east, to: &spans)
            } else {
                // A box crossing ±180° holds every point stored at 180 (≥ west) and at -180 (≤ east),
                // so both end columns are in, whatever the edges (regression: east exactly -180).
                let last = layout.columnCount(row: row) - 1
                let first = layout.column(row: row, longitude: west)
                let wrapped = layout.column(row: row, longitude: east)
                if wrapped + 1 >= first {
                    spans.append(GridLayout.ColumnSpan(row: row, first: 0, last: last))
                    total += last + 1
                } else {
                    spans.append(GridLayout.ColumnSpan(row: row, first: first, last: last))
                    spans.append(GridLayout.ColumnSpan(row: row, first: 0, last: wrapped))
                    total += last - first + 1 + wrapped + 1
                }
            }
            if total > cellCount { return allSlots(rows: rowRange) }
        }
        return lookUp(spans, expected: total)
    }

    /// The live slots of the cells in spans of columns: one binary search in the row's table per
    /// span, then a walk along it, merging blocks that follow one another in the arena.
    private func lookUp(_ spans: [GridLayout.ColumnSpan], expected: Int) -> [SlotRange] {
        var found: [SlotRange] = []
        found.reserveCapacity(min(expected, 64))
        for span in spans {
            rows[span.row].withUnsafeBufferPointer { cells in
                var position = self.position(row: span.row, column: span.first)
                while position < cells.count, Int(cells[position].column) <= span.last {
                    GridIndex.add(cells[position], to: &found)
                    position += 1
                }
            }
        }
        return found
    }

    /// Every live slot, or every one in a range of rows.
    func allSlots(rows range: ClosedRange<Int>? = nil) -> [SlotRange] {
        var found: [SlotRange] = []
        for row in range.map(occupiedRows(in:)) ?? occupiedRows[...] {
            for cell in rows[Int(row)] { GridIndex.add(cell, to: &found) }
        }
        return found
    }

    /// The occupied rows within `range`, in order (binary searches in `occupiedRows`).
    func occupiedRows(in range: ClosedRange<Int>) -> ArraySlice<Int32> {
        func firstIndex(atLeast row: Int) -> Int {
            var low = 0
            var high = occupiedRows.count
            while low < high {
                let middle = (low + high) / 2
                if Int(occupiedRows[middle]) < row { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return occupiedRows[firstIndex(atLeast: range.lowerBound)..<firstIndex(atLeast: range.upperBound + 1)]
    }

    @inline(__always)
    private static func add(_ cell: Cell, to ranges: inout [SlotRange]) {
        guard cell.count > 0 else { return }
        let start = Int(cell.start)
        let end = start + Int(cell.count)
        if let last = ranges.last, last.end == start {
            ranges[ranges.count - 1].end = end
        } else {
            ranges.append(SlotRange(start: start, end: end))
        }
    }
}
