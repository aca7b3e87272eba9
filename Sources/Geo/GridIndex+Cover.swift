import Foundation

extension GridIndex {
    /// A run of columns in one row.
    struct ColumnSpan {
        var row: Int
        var first: Int
        var last: Int
    }

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
        guard sigma < .pi / 2, cellCount > 0 else { return allSlots() }
        let degrees = 180 / Double.pi
        let radians = Double.pi / 180
        // A margin of 1e-9 degrees (0.1 mm) absorbs rounding in the cover's own arithmetic.
        let sigmaDegrees = sigma * degrees + 1e-9
        let southLimit = max(-90, center.latitude - sigmaDegrees)
        let northLimit = min(90, center.latitude + sigmaDegrees)
        let northPoleInside = center.latitude + sigmaDegrees >= 90
        let southPoleInside = center.latitude - sigmaDegrees <= -90
        let cosPhi0 = cos(center.latitude * radians)
        let sinHalfSigma = sin(sigma / 2)
        let havSigma = sinHalfSigma * sinHalfSigma
        // Latitude of the cap's widest point in longitude: sin φ* = sin φ0 / cos σ.
        let widestLatitude = asin(max(-1, min(1, sin(center.latitude * radians) / cos(sigma)))) * degrees

        /// hav Δλ of the cap's edge at a latitude: (hav σ − hav(φ − φ0)) / (cos φ0 cos φ).
        func edge(_ latitude: Double) -> Double {
            let halfDelta = sin((latitude - center.latitude) * radians / 2)
            let cosPhi = cos(latitude * radians)
            return cosPhi <= 0 ? 2 : (havSigma - halfDelta * halfDelta) / (cosPhi0 * cosPhi)
        }

        var spans: [ColumnSpan] = []
        spans.reserveCapacity(16)
        var total = 0
        let firstRow = layout.row(latitude: southLimit)
        // A row's northern band edge is the next row's southern one: each edge value is computed once.
        var southEdge = edge(max(southLimit, layout.south(row: firstRow)))
        for row in firstRow...layout.row(latitude: northLimit) {
            let bandSouth = max(southLimit, layout.south(row: row))
            let bandNorth = min(northLimit, layout.south(row: row) + layout.rowHeight)
            let northEdge = edge(bandNorth)
            defer { southEdge = northEdge }
            var halfWidth = 180.0
            let touchesPole = (northPoleInside && bandNorth >= 90) || (southPoleInside && bandSouth <= -90)
            if !touchesPole && cosPhi0 > 1e-12 {
                // The edge's longitude is largest at φ* or, if φ* is outside the band, at a band edge.
                // Floored at 0: a band the cap only grazes (within the 1e-9° margin) gives
                // negative values, whose square root would be NaN (regression: trapped).
                var largest = max(0, southEdge, northEdge)
                if widestLatitude > bandSouth && widestLatitude < bandNorth {
                    largest = max(largest, edge(widestLatitude))
                }
                if largest < 1 { halfWidth = 2 * asin(largest.squareRoot()) * degrees * (1 + 1e-9) + 1e-9 }
            }
            total += appendColumnSpans(
                row: row, west: center.longitude - halfWidth, east: center.longitude + halfWidth, to: &spans)
            if total > cellCount { return allSlots() }
        }
        return lookUp(spans, expected: total)
    }

    /// The live slots of every cell that may hold a point in a latitude/longitude box. `west > east`
    /// means the box crosses ±180°.
    func slots(inBoxSouth south: Double, west: Double, north: Double, east: Double) -> [SlotRange] {
        var spans: [ColumnSpan] = []
        var total = 0
        // Only rows that hold points: a box across every longitude near a pole has millions of
        // cells, and almost none of them occupied.
        let rowRange = layout.row(latitude: south)...layout.row(latitude: north)
        for row in occupiedRows(in: rowRange).map(Int.init) {
            if west <= east {
                total += appendColumnSpans(row: row, west: west, east: east, to: &spans)
            } else {
                // A box crossing ±180° holds every point stored at 180 (≥ west) and at -180 (≤ east),
                // so both end columns are in, whatever the edges (regression: east exactly -180).
                let last = layout.columnCount(row: row) - 1
                let first = layout.column(row: row, longitude: west)
                let wrapped = layout.column(row: row, longitude: east)
                if wrapped + 1 >= first {
                    spans.append(ColumnSpan(row: row, first: 0, last: last))
                    total += last + 1
                } else {
                    spans.append(ColumnSpan(row: row, first: first, last: last))
                    spans.append(ColumnSpan(row: row, first: 0, last: wrapped))
                    total += last - first + 1 + wrapped + 1
                }
            }
            if total > cellCount { return allSlots(rows: rowRange) }
        }
        return lookUp(spans, expected: total)
    }

    /// The live slots of the cells in spans of columns: one binary search in the row's table per
    /// span, then a walk along it, merging blocks that follow one another in the arena.
    private func lookUp(_ spans: [ColumnSpan], expected: Int) -> [SlotRange] {
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

    /// Appends the columns of a row that hold longitudes from `west` to `east` degrees, where
    /// west ≤ east and either may lie beyond ±180 (the span wraps): at most two disjoint spans.
    ///
    /// - Returns: the number of columns appended.
    func appendColumnSpans(row: Int, west: Double, east: Double, to spans: inout [ColumnSpan]) -> Int {
        let last = layout.columnCount(row: row) - 1
        var west = west
        var east = east
        if east - west >= 360 {
            spans.append(ColumnSpan(row: row, first: 0, last: last))
            return last + 1
        }
        if west < -180 {
            west += 360
            east += 360
        } else if west > 180 {
            west -= 360
            east -= 360
        }
        let first = layout.column(row: row, longitude: west)
        if east <= 180 {
            let end = layout.column(row: row, longitude: east)
            spans.append(ColumnSpan(row: row, first: first, last: end))
            return end - first + 1
        }
        let wrapped = layout.column(row: row, longitude: east - 360)
        if wrapped + 1 >= first {
            spans.append(ColumnSpan(row: row, first: 0, last: last))
            return last + 1
        }
        spans.append(ColumnSpan(row: row, first: first, last: last))
        spans.append(ColumnSpan(row: row, first: 0, last: wrapped))
        return last - first + 1 + wrapped + 1
    }
}
