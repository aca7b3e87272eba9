import Foundation

extension GridIndex {
    /// The index of every non-empty cell that may hold a point whose central angle
    /// from `center` is at most `angularRadius` radians, where the angle is measured on a unit
    /// sphere with geodetic latitude and longitude (each distance model turns its radius into such
    /// an angle conservatively). Correct when the cap holds a pole (every longitude) or crosses
    /// ±180°. When the cover would visit more cells than the index has, every cell is visited.
    func cells(inCapAround center: Coordinate, angularRadius sigma: Double) -> [Int32] {
        guard sigma < .pi / 2, !cells.isEmpty else { return allCells() }
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

        var rows: [(row: Int, columns: [ClosedRange<Int>])] = []
        var total = 0
        for row in layout.row(latitude: southLimit)...layout.row(latitude: northLimit) {
            let bandSouth = max(southLimit, layout.south(row: row))
            let bandNorth = min(northLimit, layout.south(row: row) + layout.rowHeight)
            var halfWidth = 180.0
            let touchesPole = (northPoleInside && bandNorth >= 90) || (southPoleInside && bandSouth <= -90)
            if !touchesPole && cosPhi0 > 1e-12 {
                // hav Δλ = (hav σ − hav(φ − φ0)) / (cos φ0 cos φ) is largest at φ* or at a band edge.
                var largest = 0.0
                for latitude in [bandSouth, bandNorth, min(bandNorth, max(bandSouth, widestLatitude))] {
                    let halfDelta = sin((latitude - center.latitude) * radians / 2)
                    let cosPhi = cos(latitude * radians)
                    largest = max(largest, cosPhi <= 0 ? 2 : (havSigma - halfDelta * halfDelta) / (cosPhi0 * cosPhi))
                }
                if largest < 1 { halfWidth = 2 * asin(largest.squareRoot()) * degrees * (1 + 1e-9) + 1e-9 }
            }
            let columns = columnIntervals(
                row: row, west: center.longitude - halfWidth, east: center.longitude + halfWidth)
            total += columns.reduce(0) { $0 + $1.count }
            if total > cells.count { return allCells() }
            rows.append((row, columns))
        }
        return lookUp(rows, expected: total)
    }

    /// Every non-empty cell that may hold a point in a latitude/longitude box. `west > east` means
    /// the box crosses ±180°.
    func cells(inBoxSouth south: Double, west: Double, north: Double, east: Double) -> [Int32] {
        var rows: [(row: Int, columns: [ClosedRange<Int>])] = []
        var total = 0
        for row in layout.row(latitude: south)...layout.row(latitude: north) {
            let columns = columnIntervals(row: row, west: west, east: west <= east ? east : east + 360)
            total += columns.reduce(0) { $0 + $1.count }
            if total > cells.count { return allCells() }
            rows.append((row, columns))
        }
        return lookUp(rows, expected: total)
    }

    /// The non-empty cells among rows of column intervals: one binary search in the row's
    /// directory per interval, then a walk along it.
    private func lookUp(_ rows: [(row: Int, columns: [ClosedRange<Int>])], expected: Int) -> [Int32] {
        var found: [Int32] = []
        found.reserveCapacity(min(expected, 64))
        for (row, intervals) in rows {
            let directory = rowDirectory[row]
            for interval in intervals {
                var position = directoryPosition(row: row, column: interval.lowerBound)
                while position < directory.count, Int(directory[position].column) <= interval.upperBound {
                    let cell = directory[position].cell
                    if cells[Int(cell)].count > 0 { found.append(cell) }
                    position += 1
                }
            }
        }
        return found
    }

    /// Every non-empty cell.
    func allCells() -> [Int32] {
        cells.indices.compactMap { cells[$0].count > 0 ? Int32($0) : nil }
    }

    /// Columns of a row that hold longitudes from `west` to `east` degrees, where west ≤ east and
    /// either may lie beyond ±180 (the span wraps). At most two disjoint intervals.
    func columnIntervals(row: Int, west: Double, east: Double) -> [ClosedRange<Int>] {
        let last = layout.columnCount(row: row) - 1
        if east - west >= 360 { return [0...last] }
        var west = west
        var east = east
        if west < -180 {
            west += 360
            east += 360
        } else if west > 180 {
            west -= 360
            east -= 360
        }
        let first = layout.column(row: row, longitude: west)
        if east <= 180 { return [first...layout.column(row: row, longitude: east)] }
        let wrapped = layout.column(row: row, longitude: east - 360)
        if wrapped + 1 >= first { return [0...last] }
        return [first...last, 0...wrapped]
    }
}
