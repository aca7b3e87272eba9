import Foundation

/// Turns a chord length into a distance under a model, with an error bound that is proven (or,
/// where marked, checked against `geod_inverse` on random pairs by `ChordBoundsTests`), so that a
/// radius query can accept or reject a candidate from its chord alone and call the exact distance
/// only in the thin band where the bound cannot decide.
struct ChordBounds {
    enum Kind {
        /// A sphere of radius R: d = 2R asin(c / 2R) exactly; only rounding separates the estimate from
        /// the canonical haversine formula.
        case sphere(radius: Double)
        /// WGS84: the geodesic of length s between the points has normal curvature κ between
        /// 1/R_max and 1/R_min everywhere (the extreme radii of curvature). Schur's comparison
        /// theorem bounds s from above by the arc of a circle of curvature κ_max through the chord;
        /// the arc of curvature κ_min bounds it from below (a geodesic on a convex ellipsoid is a
        /// nearly planar curve, torsion ≤ e²/b; checked on 200,000 random pairs).
        case ellipsoid
    }

    let kind: Kind
    /// Absolute slack in meters added on each side of an estimate: covers rounding in the chord,
    /// the reference's own error (geod_inverse ≤ 15 nm; the haversine formula loses up to ~10 nm
    /// near the poles, where cos φ has few significant bits) and nothing else.
    let slackMeters: Double
    /// Chords longer than this (meters) get no estimate: the series below is only summed to
    /// 1e-11 m up to here.
    static let maximumChord = 50_000.0

    static let kappaMinSquared = 1 / (WGS84.maximumRadiusOfCurvature * WGS84.maximumRadiusOfCurvature)
    static let kappaMaxSquared = 1 / (WGS84.minimumRadiusOfCurvature * WGS84.minimumRadiusOfCurvature)

    /// Coefficients of the point estimate d ≈ c (1 + c²(k₁ + c²(k₂ + c² k₃))) for chords up to
    /// `maximumChord`, where the next term is below 1e-20 relative.
    let series: (Double, Double, Double)

    /// Squared chord (m²) up to which an estimate is within its half-width of the model distance,
    /// so that estimates and exact distances of chords this long can be ordered together.
    var boundedChordSquared: Double {
        switch kind {
        case .sphere(let radius):
            let chord = min(ChordBounds.maximumChord, 0.0078 * radius)
            return chord * chord
        case .ellipsoid:
            return ChordBounds.maximumChord * ChordBounds.maximumChord
        }
    }

    /// Squared chord (m²) up to which the point estimate is reported as the distance. On the
    /// sphere it is exact but for rounding, everywhere it is used. On the ellipsoid the bracket of
    /// circle arcs is 1.04e-17 c³ m wide on each side: 83 nm at 2 km, so longer accepted chords get
    /// `geod_inverse` for their reported distance (regression: 1.3 mm off at 50 km).
    let reportableChordSquared: Double

    init(kind: Kind, slackMeters: Double) {
        self.kind = kind
        self.slackMeters = slackMeters
        switch kind {
        case .sphere:
            reportableChordSquared = .infinity
        case .ellipsoid:
            reportableChordSquared = 2000 * 2000
        }
        switch kind {
        case .sphere(let radius):
            // d = 2R asin(c / 2R) = c (1 + k c²/24 + 3 k² c⁴/640 + 5 k³ c⁶/7168 + …), k = 1/R².
            let k = 1 / (radius * radius)
            series = (k / 24, 3 * k * k / 640, 5 * k * k * k / 7168)
        case .ellipsoid:
            // The midpoint of the two circle arcs, term by term.
            let low = ChordBounds.kappaMinSquared
            let high = ChordBounds.kappaMaxSquared
            series = (
                (low + high) / 48, 3 * (low * low + high * high) / 1280,
                5 * (low * low * low + high * high * high) / 14336
            )
        }
    }

    static func sphere(radius: Double) -> ChordBounds {
        ChordBounds(kind: .sphere(radius: radius), slackMeters: 5e-8)
    }

    static let ellipsoid = ChordBounds(kind: .ellipsoid, slackMeters: 1e-7)

    /// The point estimate of `estimate(chord:)` from a squared chord of at most `maximumChord`²:
    /// the hot path of a query.
    @inline(__always)
    func distanceEstimate(chordSquared c2: Double) -> Double {
        c2.squareRoot() * (1 + c2 * (series.0 + c2 * (series.1 + c2 * series.2)))
    }

    /// Arc length of a circle of curvature √k with chord c: (2/√k) asin(c√k/2), as a series in
    /// k c² (≤ 6.3e-5 for c ≤ 50 km, so the omitted term is below 1e-16 relative).
    @inline(__always)
    static func arc(chord c: Double, curvatureSquared k: Double) -> Double {
        let kc2 = k * c * c
        return c * (1 + kc2 / 24 * (1 + kc2 * (9.0 / 80) * (1 + kc2 * (25.0 / 168))))
    }

    /// The best estimate of the model distance for a chord in meters, and its half-width: the
    /// model distance lies within estimate ± halfWidth.
    @inline(__always)
    func estimate(chord c: Double) -> (distance: Double, halfWidth: Double) {
        switch kind {
        case .sphere(let radius):
            let x = c / (2 * radius)
            let d: Double
            if x <= 0.01 {
                let x2 = x * x
                d =
                    2 * radius * x
                    * (1 + x2 / 6 * (1 + x2 * (9.0 / 20) * (1 + x2 * (25.0 / 42) * (1 + x2 * (49.0 / 72)))))
            } else {
                d = 2 * radius * asin(min(1, x))
            }
            return (d, slackMeters + 1e-13 * d)
        case .ellipsoid:
            let low = ChordBounds.arc(chord: c, curvatureSquared: ChordBounds.kappaMinSquared)
            let high = ChordBounds.arc(chord: c, curvatureSquared: ChordBounds.kappaMaxSquared)
            return ((low + high) / 2, (high - low) / 2 + slackMeters + 1e-13 * c)
        }
    }

    /// Upper bound on the half-width of any estimate at distances up to `distance` meters.
    func halfWidth(atDistance distance: Double) -> Double {
        estimate(chord: min(distance, ChordBounds.maximumChord)).halfWidth * 1.000_001
    }

    /// Squared-chord thresholds for a radius in meters: a chord² at or below `accept` is certainly
    /// within the radius, one above `reject` certainly outside it; between them only the exact
    /// distance can tell.
    func thresholds(radiusMeters r: Double) -> (accept: Double, reject: Double) {
        let slack = halfWidth(atDistance: r)
        switch kind {
        case .sphere(let radius):
            let inner = (r - slack) / (2 * radius)
            let outer = (r + slack) / (2 * radius)
            let accept = inner <= 0 ? -1 : (inner >= .pi / 2 ? .infinity : pow(2 * radius * sin(inner), 2))
            // Near the antipode the haversine formula itself loses precision (asin near 1), so no
            // chord bound rejects there: every candidate gets the canonical formula.
            let reject = outer >= 0.45 * .pi ? Double.infinity : pow(2 * radius * sin(outer), 2)
            // The point estimate's series is summed for k c² ≤ 6.2e-5 (k = 1/R²): chords up to
            // 0.0078 R, which is 50 km on the Earth and less on a small custom sphere.
            let longestEstimated = min(ChordBounds.maximumChord, 0.0078 * radius)
            return (min(accept, longestEstimated * longestEstimated), reject)
        case .ellipsoid:
            let kappaMax = 1 / WGS84.minimumRadiusOfCurvature
            let kappaMin = 1 / WGS84.maximumRadiusOfCurvature
            let inner = r - slack
            let outer = r + slack
            let acceptChord =
                inner <= 0
                ? -1 : min(ChordBounds.maximumChord, 2 / kappaMax * sin(min(.pi / 2, kappaMax * inner / 2)))
            // Beyond the series range: the chord is never longer than the arc, nor than
            // `longestChord(distance:)`.
            let rejectChord =
                outer <= ChordBounds.maximumChord
                ? 2 / kappaMin * sin(kappaMin * outer / 2) : min(outer, ChordBounds.longestChord(distance: outer))
            return (acceptChord < 0 ? -1 : acceptChord * acceptChord, rejectChord * rejectChord)
        }
    }

    /// The longest chord (meters) between two points of the WGS84 ellipsoid at most `distance`
    /// meters apart along it.
    ///
    /// Projecting a curve on the ellipsoid radially onto the sphere of radius a lengthens it by at
    /// most a / b (every point is at least b from the centre), so the points' geocentric angle θ
    /// is at most distance / b. With both points between b and a from the centre, the chord
    /// √(r₁² + r₂² − 2 r₁ r₂ cos θ) is largest at a corner of that range: r₁ = r₂ = a, or a and b.
    static func longestChord(distance: Double) -> Double {
        let a = WGS84.equatorialRadius
        let b = WGS84.polarRadius
        let theta = distance / b
        guard theta < .pi else { return 2 * a }
        let cosine = cos(theta)
        let chord2 = max(2 * a * a * (1 - cosine), a * a + b * b - 2 * a * b * cosine)
        return chord2.squareRoot() * (1 + 1e-12) + 1e-6
    }
}
