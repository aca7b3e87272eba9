import Foundation

/// A cheap first test of the candidates of a grid scan around a small cap: false only for a point
/// certainly outside the cap, so the exact test that follows sees fewer points and decides alone.
///
/// For a central angle θ between points whose latitudes are at most φmax from the equator,
/// hav θ = hav Δφ + cos φ1 cos φ2 hav Δλ ≥ hav Δφ + cos² φmax hav Δλ, and x²/4 ≥ hav x ≥
/// x²/4 (1 − x²/12), so a point within angle σ has Δφ² + (Δλ cos φmax)² ≤ σ² (1 + m²/12) with m
/// the larger of Δφ and Δλ (radians). The filter applies to caps of σ ≤ 0.002 rad (12.7 km on
/// Redis's sphere) that stay below 80° of latitude and clear of ±180°, where m²/12 < 2e-5; it
/// allows σ² (1 + 2e-3). Elsewhere every point passes.
struct CapPrefilter {
    private let latitude: Double
    private let longitude: Double
    /// cos φmax, the factor of a longitude difference (0 when the filter does not apply).
    private let cosine: Double
    /// The largest Δφ² + (Δλ cos φmax)² allowed, degrees² (infinity when the filter does not apply).
    private let limit: Double

    /// - Parameters:
    ///   - latitude, longitude: the cap's centre, degrees.
    ///   - angularRadius: the cap's angle, radians (distance on a sphere / its radius).
    init(latitude: Double, longitude: Double, angularRadius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        let degrees = angularRadius * 180 / .pi
        let farthest = abs(latitude) + degrees
        let cosine = farthest < 80 ? cos(farthest * .pi / 180) : 0
        if angularRadius.isFinite, angularRadius <= 0.002, farthest < 80, abs(longitude) + degrees / cosine < 179 {
            self.cosine = cosine
            limit = degrees * degrees * 1.002
        } else {
            self.cosine = 0
            limit = .infinity
        }
    }

    /// Whether a point (degrees) may lie within the cap.
    @inline(__always)
    func mayHold(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Bool {
        let north = pointLatitude - latitude
        let east = (pointLongitude - longitude) * cosine
        return north * north + east * east <= limit
    }
}
