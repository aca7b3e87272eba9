import Foundation

/// Straight-line (chord) distances through the Earth from one query point to many stored points,
/// on an ellipsoid of revolution (or a sphere when e² = 0), without a trigonometric call per point.
///
/// With p = N(φ) cos φ (distance from the axis) and z = N(φ)(1 − e²) sin φ (height above the
/// equator), the squared chord between two points is
///
///     c² = (p − p₀)² + (z − z₀)² + 4 p p₀ sin²(Δλ / 2),
///
/// which depends on longitude only through the difference Δλ. sin and cos of the stored latitude
/// come from the query's by angle addition with a Taylor series in u = φ − φ₀ (|u| ≤ 0.01 rad:
/// truncation below 1e-24 relative), and sin(Δλ/2) likewise; larger offsets call `sin`/`cos`.
/// Rounding leaves the chord within a few nanometers of exact (p and z are ~6.4e6 m, so one ulp
/// is 1e-9 m); the distance bounds in `ChordBounds` allow 50 to 100 nm for it.
struct ChordFrame {
    let latitude0: Double
    let longitude0: Double
    let sin0: Double
    let cos0: Double
    /// Equatorial radius (or sphere radius), meters.
    let a: Double
    /// a (1 − e²), meters.
    let aOneMinusE2: Double
    let e2: Double
    let p0: Double
    let z0: Double
    /// 1/W at the query, W = √(1 − e² sin²φ₀), and its square.
    let inverseW0: Double
    let inverseW0Squared: Double

    static let radiansPerDegree = Double.pi / 180
    /// Above this offset in radians the Taylor series gives way to `sin`/`cos`.
    static let seriesLimit = 0.01

    init(center: Coordinate, equatorialRadius: Double, eccentricitySquared: Double) {
        latitude0 = center.latitude
        longitude0 = center.longitude
        let phi = center.latitude * ChordFrame.radiansPerDegree
        sin0 = sin(phi)
        cos0 = cos(phi)
        a = equatorialRadius
        e2 = eccentricitySquared
        aOneMinusE2 = equatorialRadius * (1 - eccentricitySquared)
        let inverseW = 1 / (1 - e2 * sin0 * sin0).squareRoot()
        inverseW0 = inverseW
        inverseW0Squared = inverseW * inverseW
        p0 = a * cos0 * inverseW
        z0 = aOneMinusE2 * sin0 * inverseW
    }

    /// Squared chord length in m² from the query point to (latitude, longitude) in degrees.
    @inline(__always)
    func chordSquared(latitude: Double, longitude: Double) -> Double {
        let u = (latitude - latitude0) * ChordFrame.radiansPerDegree
        let sinPhi: Double
        let cosPhi: Double
        if abs(u) <= ChordFrame.seriesLimit {
            let u2 = u * u
            let sinU = u * (1 + u2 * (-1.0 / 6 + u2 * (1.0 / 120 + u2 * (-1.0 / 5040 + u2 * (1.0 / 362_880)))))
            let cosU = 1 + u2 * (-0.5 + u2 * (1.0 / 24 + u2 * (-1.0 / 720 + u2 * (1.0 / 40320))))
            sinPhi = sin0 * cosU + cos0 * sinU
            cosPhi = cos0 * cosU - sin0 * sinU
        } else {
            let phi = latitude * ChordFrame.radiansPerDegree
            sinPhi = sin(phi)
            cosPhi = cos(phi)
        }
        let p: Double
        let z: Double
        if e2 == 0 {
            p = a * cosPhi
            z = a * sinPhi
        } else {
            // 1/W = 1/√(1 − e² sin²φ) from the query's by a series in
            // q = −e² (sin²φ − sin²φ₀) / W₀², |q| < 0.0135 |u|: below 1e-20 after q⁴ when |u| ≤ 0.01.
            let inverseW: Double
            if abs(u) <= ChordFrame.seriesLimit {
                let q = -e2 * (sinPhi - sin0) * (sinPhi + sin0) * inverseW0Squared
                inverseW =
                    inverseW0 * (1 + q * (-0.5 + q * (0.375 + q * (-0.3125 + q * 0.273_437_5))))
            } else {
                inverseW = 1 / (1 - e2 * sinPhi * sinPhi).squareRoot()
            }
            p = a * cosPhi * inverseW
            z = aOneMinusE2 * sinPhi * inverseW
        }
        var deltaLongitude = longitude - longitude0
        if deltaLongitude > 180 {
            deltaLongitude -= 360
        } else if deltaLongitude < -180 {
            deltaLongitude += 360
        }
        let v = deltaLongitude * (ChordFrame.radiansPerDegree / 2)
        let sinV: Double
        if abs(v) <= ChordFrame.seriesLimit {
            let v2 = v * v
            sinV = v * (1 + v2 * (-1.0 / 6 + v2 * (1.0 / 120 + v2 * (-1.0 / 5040 + v2 * (1.0 / 362_880)))))
        } else {
            sinV = sin(v)
        }
        let dp = p - p0
        let dz = z - z0
        return dp * dp + dz * dz + 4 * p * p0 * sinV * sinV
    }
}
