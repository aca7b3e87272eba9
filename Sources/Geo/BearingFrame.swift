import Foundation

/// Initial bearings from one point to many, under a distance model: for the geodesic model about
/// four times cheaper than `geod_inverse` for places within 5 km (BENCHMARKS.md, "Bearings"),
/// which is where a "what is near" query finds them.
///
/// Within 5 km of a centre below 89.9° of latitude the geodesic bearing is taken as the azimuth of
/// the normal section (the plane through the centre's ellipsoid normal and the place), that is,
/// the direction of the chord from the centre to the place in the centre's east–north–up frame.
/// The geodesic leaves the centre at an angle of about (e'²/12)(s/N)² cos²φ sin 2α radians from
/// the normal section (e'² = 0.00674 the second eccentricity squared, s the distance, N the
/// radius of curvature in the prime vertical: R. H. Rapp, *Geometric Geodesy*, Part I, 1991,
/// § 6.3), at most 2e-8° at 5 km. The chord's components come from `ChordFrame`'s per-centre
/// Taylor polynomials as differences, without subtracting coordinates of the Earth's size, so
/// rounding adds no more than the coordinates' own last bits do: a longitude difference taken
/// across ±180° is rounded to ~3e-14°, about 3e-9 m, which turns the direction to a place 1 cm
/// away by 3e-7 rad (geod_inverse is bound by the same inputs). Checked against `geod_inverse` in
/// `BearingFrameTests`: at most 1.9e-8° from 100 m to 5 km, and within 3e-8° plus 4e-9 m over
/// the distance below. Farther places, and centres near a pole, use `geod_inverse` itself.
///
/// The haversine model's bearing is the great circle's (`Haversine.initialBearing`), the
/// projected model's the grid bearing (`ProjectedDistance`): both as `DistanceModel.measure`.
///
/// ```swift
/// let frame = BearingFrame(from: here, model: .geodesic)
/// let bearing = try frame.bearing(to: omur)  // 255.3239°, WSW
/// ```
public struct BearingFrame: Sendable {
    /// The centre, degrees.
    public let center: Coordinate
    public let model: DistanceModel
    /// The centre's chord frame, built for every model and used when `usesNormalSection`: not an
    /// optional, whose unwrapping copies the frame (193 bytes) for every bearing.
    private let chord: ChordFrame
    /// Whether bearings come from the normal section (the geodesic model, away from the poles).
    private let usesNormalSection: Bool
    private let sinLatitude0: Double
    private let cosLatitude0: Double

    /// Up to this chord length in meters the normal-section azimuth stands for the geodesic one.
    static let normalSectionLimitMeters = 5_000.0
    /// Beyond this latitude in degrees the centre is too near a pole for the east–north frame
    /// (the meridian of the centre defines north there; `geod_inverse` keeps that convention).
    static let polarLimitDegrees = 89.9

    /// Prepares bearings from `center` under `model`.
    public init(from center: Coordinate, model: DistanceModel) {
        self.center = center
        self.model = model
        let phi = center.latitude * ChordFrame.radiansPerDegree
        sinLatitude0 = sin(phi)
        cosLatitude0 = cos(phi)
        chord = ChordFrame(
            center: center, equatorialRadius: WGS84.equatorialRadius, eccentricitySquared: WGS84.eccentricitySquared)
        if case .geodesic = model, abs(center.latitude) <= Self.polarLimitDegrees {
            usesNormalSection = true
        } else {
            usesNormalSection = false
        }
    }

    /// The initial bearing from the centre to `point`: degrees clockwise from north in [0, 360)
    /// (grid north for `projected`); 0 for the centre itself.
    ///
    /// - Throws: for `projected`, what `ProjectedDistance.measure` throws (the CRS cannot
    ///   represent a point).
    public func bearing(to point: Coordinate) throws(GeoError) -> Double {
        if usesNormalSection, let bearing = normalSectionBearing(to: point) { return bearing }
        return try model.measure(center, point).bearing
    }

    /// The azimuth of the chord in the centre's east–north frame, or nil when the place is more
    /// than `normalSectionLimitMeters` away (or more than 12 km north or south).
    @inline(__always)
    private func normalSectionBearing(to point: Coordinate) -> Double? {
        let u = (point.latitude - chord.latitude0) * ChordFrame.radiansPerDegree
        guard abs(u) <= ChordFrame.seriesLimit else { return nil }
        // p − p₀ and z − z₀ straight from the Taylor polynomials, without their constant terms.
        let dp = u * Self.evaluateWithoutConstant(chord.pSeries.c, u)
        let dz = u * Self.evaluateWithoutConstant(chord.zSeries.c, u)
        let p = chord.p0 + dp
        let v = chord.halfLongitudeDifference(point.longitude)
        let sinV: Double
        let cosV: Double
        if abs(v) <= ChordFrame.shortSeriesLimit {
            // |v| ≤ 0.001 rad (5 km of longitude at 63°): the omitted terms are below 1e-17.
            let v2 = v * v
            sinV = v * (1 + v2 * (-1.0 / 6 + v2 * (1.0 / 120)))
            cosV = 1 + v2 * (-0.5 + v2 * (1.0 / 24 + v2 * (-1.0 / 720)))
        } else {
            sinV = sin(v)
            cosV = cos(v)
        }
        // In the frame turned so that the centre lies at longitude 0: the place is at
        // (p cos Δλ, p sin Δλ, z), the centre at (p₀, 0, z₀); p cos Δλ − p₀ = Δp − 2p sin²(Δλ/2).
        let east = 2 * p * sinV * cosV
        let dx = dp - 2 * p * sinV * sinV
        let chordSquared = east * east + dx * dx + dz * dz
        guard chordSquared <= Self.normalSectionLimitMeters * Self.normalSectionLimitMeters else { return nil }
        guard chordSquared > 0 else { return 0 }
        let north = cosLatitude0 * dz - sinLatitude0 * dx
        // atan2 is in [-180°, 180°]: one addition puts it in [0, 360) (no `fmod` a place).
        let degrees = Arctangent.atan2(east, north) / ChordFrame.radiansPerDegree
        let bearing = degrees < 0 ? degrees + 360 : degrees
        // + 0 turns a -0 (due north from longitude 0 to -0) into 0, which prints as "0.0".
        return bearing < 360 ? bearing + 0 : 0
    }

    /// c₁ + c₂u + … + c₅u⁴: the polynomial less its constant term, divided by u.
    @inline(__always)
    private static func evaluateWithoutConstant(_ c: SIMD8<Double>, _ u: Double) -> Double {
        return c[1] + u * (c[2] + u * (c[3] + u * (c[4] + u * c[5])))
    }
}
