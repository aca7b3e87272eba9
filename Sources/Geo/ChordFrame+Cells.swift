import Foundation

extension ChordFrame {
    /// A band of latitudes as the chord formula sees it: the ranges of p (distance from the axis)
    /// and z (height above the equator), meters, over the band.
    struct Band {
        var pLow: Double
        var pHigh: Double
        var zLow: Double
        var zHigh: Double
    }

    /// Latitudes are widened by this many degrees (0.1 mm) on each side, so that a point the grid
    /// files into a cell by rounded arithmetic is inside the cell's band.
    static let edgeMargin = 1e-9

    /// The band between two latitudes in degrees (south ≤ north), widened by `edgeMargin`.
    func band(south: Double, north: Double) -> Band {
        let low = axisDistanceAndHeight(latitude: max(-90, south - ChordFrame.edgeMargin))
        let high = axisDistanceAndHeight(latitude: min(90, north + ChordFrame.edgeMargin))
        // p falls away from the equator on both sides; z rises with latitude.
        let crossesEquator = south - ChordFrame.edgeMargin <= 0 && north + ChordFrame.edgeMargin >= 0
        return Band(
            pLow: max(0, min(low.p, high.p)), pHigh: crossesEquator ? a : max(low.p, high.p), zLow: low.z,
            zHigh: high.z)
    }

    /// A lower bound on the squared chord (m²) from the query point to any point of `band` between
    /// longitudes `west` ≤ `east` (degrees; a span of 360 or more is every longitude): each term of
    /// c² = (p − p₀)² + (z − z₀)² + 4 p p₀ sin²(Δλ/2) at its own smallest, less a micrometre for
    /// rounding.
    func lowerBoundChordSquared(band: Band, west: Double, east: Double) -> Double {
        let dp = p0 < band.pLow ? band.pLow - p0 : (p0 > band.pHigh ? p0 - band.pHigh : 0)
        let dz = z0 < band.zLow ? band.zLow - z0 : (z0 > band.zHigh ? z0 - band.zHigh : 0)
        let west = west - ChordFrame.edgeMargin
        let east = east + ChordFrame.edgeMargin
        // The longitude difference to the nearest edge, on the circle: ±180 are one meridian.
        let span = east - west
        var offset = (longitude0 - west).truncatingRemainder(dividingBy: 360)
        if offset < 0 { offset += 360 }
        let gap = span >= 360 || offset <= span ? 0 : min(offset - span, 360 - offset)
        let half = sin(min(180, gap) * ChordFrame.radiansPerDegree / 2)
        let chord2 = dp * dp + dz * dz + 4 * band.pLow * p0 * half * half
        let chord = max(0, chord2.squareRoot() * (1 - 1e-12) - 1e-6)
        return chord * chord
    }

    /// An upper bound on the chord in meters between any two points of `band` whose longitudes
    /// differ by at most `width` degrees.
    func largestChord(band: Band, width: Double) -> Double {
        precondition(width >= 0, "a negative longitude span")
        let half = sin(min(180, width + 2 * ChordFrame.edgeMargin) * ChordFrame.radiansPerDegree / 2)
        let dp = band.pHigh - band.pLow
        let dz = band.zHigh - band.zLow
        return (dp * dp + dz * dz + 4 * band.pHigh * band.pHigh * half * half).squareRoot() * (1 + 1e-12) + 1e-6
    }
}
