import Foundation

/// Straight-line (chord) distances through the Earth from one query point to many stored points,
/// on an ellipsoid of revolution (or a sphere when e² = 0), without a trigonometric call per point.
///
/// With p = N(φ) cos φ (distance from the axis) and z = N(φ)(1 − e²) sin φ (height above the
/// equator), the squared chord between two points is
///
///     c² = (p − p₀)² + (z − z₀)² + 4 p p₀ sin²(Δλ / 2),
///
/// which depends on longitude only through the difference Δλ. Near the query, p and z are
/// polynomials in u = φ − φ₀: their Taylor coefficients are computed once per query by power-series
/// arithmetic (sin, cos, then (1 − e² sin²)^(-1/2) by Miller's recurrence), so a candidate costs two
/// Horner evaluations. For |u| ≤ 0.002 rad (12 km) the omitted u⁶ term is below 1e-12 m; farther
/// candidates use `sin`, `cos` and `sqrt`. sin(Δλ/2) is a short series likewise. Rounding leaves
/// the chord within a few nanometers of exact (p and z are ~6.4e6 m, so one ulp is 1e-9 m); the
/// bounds in `ChordBounds` allow 50 to 100 nm for it.
struct ChordFrame {
    let latitude0: Double
    let longitude0: Double
    /// Equatorial radius (or sphere radius), meters.
    let a: Double
    /// a (1 − e²), meters.
    let aOneMinusE2: Double
    let e2: Double
    let p0: Double
    let z0: Double
    /// Taylor coefficients of p(φ₀ + u) and z(φ₀ + u), u in radians, meters.
    let pSeries: PowerSeries
    let zSeries: PowerSeries

    static let radiansPerDegree = Double.pi / 180
    /// Up to this latitude offset in radians (12 km) p and z come from their Taylor polynomials.
    static let seriesLimit = 0.002
    /// Up to this one (1.2 km), the polynomials' first four terms are enough.
    static let cubicLimit = 0.0002
    /// Up to this half longitude difference in radians, sin comes from a short series.
    static let shortSeriesLimit = 0.001
    /// Up to this one, from a longer series; beyond it, from `sin`.
    static let longSeriesLimit = 0.01

    init(center: Coordinate, equatorialRadius: Double, eccentricitySquared: Double) {
        latitude0 = center.latitude
        longitude0 = center.longitude
        a = equatorialRadius
        e2 = eccentricitySquared
        aOneMinusE2 = equatorialRadius * (1 - eccentricitySquared)
        let phi = center.latitude * ChordFrame.radiansPerDegree
        let sine = PowerSeries.sine(at: phi)
        let cosine = PowerSeries.cosine(at: phi)
        let wSquared = PowerSeries.constant(1) - (sine * sine).scaled(by: eccentricitySquared)
        let inverseW = wSquared.power(-0.5)
        pSeries = (cosine * inverseW).scaled(by: equatorialRadius)
        zSeries = (sine * inverseW).scaled(by: equatorialRadius * (1 - eccentricitySquared))
        p0 = pSeries.constant
        z0 = zSeries.constant
    }

    /// p (distance from the axis) and z (height above the equator), meters, of the parallel at
    /// `latitude` degrees (-90...90), from `sin`, `cos` and `sqrt`.
    @inline(__always)
    func axisDistanceAndHeight(latitude: Double) -> (p: Double, z: Double) {
        let phi = latitude * ChordFrame.radiansPerDegree
        let sinPhi = sin(phi)
        let inverseW = 1 / (1 - e2 * sinPhi * sinPhi).squareRoot()
        return (a * cos(phi) * inverseW, aOneMinusE2 * sinPhi * inverseW)
    }

    /// Squared chord length in m² from the query point to (latitude, longitude) in degrees.
    @inline(__always)
    func chordSquared(latitude: Double, longitude: Double) -> Double {
        let u = (latitude - latitude0) * ChordFrame.radiansPerDegree
        let p: Double
        let z: Double
        if abs(u) <= ChordFrame.cubicLimit {
            // |u| ≤ 2e-4 rad (1.2 km): the u⁴ and u⁵ terms add below 5e-10 m.
            p = pSeries.evaluateCubic(u)
            z = zSeries.evaluateCubic(u)
        } else if abs(u) <= ChordFrame.seriesLimit {
            p = pSeries.evaluate(u)
            z = zSeries.evaluate(u)
        } else {
            (p, z) = axisDistanceAndHeight(latitude: latitude)
        }
        let v = halfLongitudeDifference(longitude)
        let sinV: Double
        if abs(v) <= ChordFrame.shortSeriesLimit {
            // The omitted v⁵/120 is below 1e-17.
            sinV = v * (1 + v * v * (-1.0 / 6))
        } else if abs(v) <= ChordFrame.longSeriesLimit {
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

extension ChordFrame {
    /// Half the longitude difference from the centre to `longitude` in radians, the shorter way
    /// round: in [-π/2, π/2].
    @inline(__always)
    func halfLongitudeDifference(_ longitude: Double) -> Double {
        var deltaLongitude = longitude - longitude0
        if deltaLongitude > 180 {
            deltaLongitude -= 360
        } else if deltaLongitude < -180 {
            deltaLongitude += 360
        }
        return deltaLongitude * (ChordFrame.radiansPerDegree / 2)
    }
}

/// A power series truncated after u⁵: c₀ + c₁u + … + c₅u⁵, with the arithmetic `ChordFrame` needs.
/// Kept in a `SIMD8` (two lanes unused) so that building a frame per query allocates nothing.
struct PowerSeries {
    static let terms = 6
    var c: SIMD8<Double>

    init(_ c: SIMD8<Double>) { self.c = c }

    /// The constant term.
    var constant: Double { c[0] }

    static func constant(_ value: Double) -> PowerSeries { PowerSeries(SIMD8(value, 0, 0, 0, 0, 0, 0, 0)) }

    /// sin(x + u): the k-th coefficient is sin(x + kπ/2) / k!.
    static func sine(at x: Double) -> PowerSeries {
        let s = sin(x)
        let c = cos(x)
        return PowerSeries(SIMD8(s, c, -s / 2, -c / 6, s / 24, c / 120, 0, 0))
    }

    /// cos(x + u).
    static func cosine(at x: Double) -> PowerSeries {
        let s = sin(x)
        let c = cos(x)
        return PowerSeries(SIMD8(c, -s, -c / 2, s / 6, c / 24, -s / 120, 0, 0))
    }

    static func * (left: PowerSeries, right: PowerSeries) -> PowerSeries {
        var product = SIMD8<Double>()
        for i in 0..<terms {
            for j in 0..<(terms - i) { product[i + j] += left.c[i] * right.c[j] }
        }
        return PowerSeries(product)
    }

    static func - (left: PowerSeries, right: PowerSeries) -> PowerSeries { PowerSeries(left.c - right.c) }

    func scaled(by factor: Double) -> PowerSeries { PowerSeries(c * factor) }

    /// self^α for a series with a non-zero constant term, by J. C. P. Miller's recurrence
    /// k a₀ b_k = Σ_{j=1…k} ((α + 1) j − k) a_j b_{k−j} (Knuth, TAOCP vol. 2, 4.7).
    func power(_ alpha: Double) -> PowerSeries {
        var b = SIMD8<Double>()
        b[0] = pow(c[0], alpha)
        for k in 1..<PowerSeries.terms {
            var sum = 0.0
            for j in 1...k { sum += ((alpha + 1) * Double(j) - Double(k)) * c[j] * b[k - j] }
            b[k] = sum / (Double(k) * c[0])
        }
        return PowerSeries(b)
    }

    /// The first four terms at u (Horner): for |u| ≤ 2e-4 the rest is below 5e-10 m for p and z.
    @inline(__always)
    func evaluateCubic(_ u: Double) -> Double {
        c[0] + u * (c[1] + u * (c[2] + u * c[3]))
    }

    /// The polynomial at u (Horner).
    @inline(__always)
    func evaluate(_ u: Double) -> Double {
        c[0] + u * (c[1] + u * (c[2] + u * (c[3] + u * (c[4] + u * c[5]))))
    }
}
