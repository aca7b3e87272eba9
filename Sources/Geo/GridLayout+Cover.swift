import Foundation

extension GridLayout {
    /// A run of columns in one row.
    struct ColumnSpan {
        var row: Int
        var first: Int
        var last: Int
    }

    /// The cells that may hold a point whose central angle from `center` is at most
    /// `angularRadius` radians, the angle measured on a unit sphere with geodetic latitude and
    /// longitude (each distance model turns its radius into such an angle conservatively), as runs
    /// of columns, and how many cells they are. Correct when the cap holds a pole (every longitude)
    /// or crosses ±180°. Nil when the cap is a hemisphere or more, or covers more than
    /// `maximumCells` cells: then every cell must be visited.
    func capCover(center: Coordinate, angularRadius sigma: Double, maximumCells: Int) -> (
        spans: [ColumnSpan], cells: Int
    )? {
        guard sigma < .pi / 2 else { return nil }
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
        let firstRow = row(latitude: southLimit)
        // A row's northern band edge is the next row's southern one: each edge value is computed once.
        var southEdge = edge(max(southLimit, south(row: firstRow)))
        for row in firstRow...row(latitude: northLimit) {
            let bandSouth = max(southLimit, south(row: row))
            let bandNorth = min(northLimit, south(row: row) + rowHeight)
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
            if total > maximumCells { return nil }
        }
        return (spans, total)
    }

    /// Appends the columns of a row that hold longitudes from `west` to `east` degrees, where
    /// west ≤ east and either may lie beyond ±180 (the span wraps): at most two disjoint spans.
    ///
    /// - Returns: the number of columns appended.
    func appendColumnSpans(row: Int, west: Double, east: Double, to spans: inout [ColumnSpan]) -> Int {
        let last = columnCount(row: row) - 1
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
        let first = column(row: row, longitude: west)
        if east <= 180 {
            let end = column(row: row, longitude: east)
            spans.append(ColumnSpan(row: row, first: first, last: end))
            return end - first + 1
        }
        let wrapped = column(row: row, longitude: east - 360)
        if wrapped + 1 >= first {
            spans.append(ColumnSpan(row: row, first: 0, last: last))
            return last + 1
        }
        spans.append(ColumnSpan(row: row, first: first, last: last))
        spans.append(ColumnSpan(row: row, first: 0, last: wrapped))
        return last - first + 1 + wrapped + 1
    }
}
