import Foundation
import Testing

@testable import Geo

/// The radius search's fast path turns a 3-D chord into a distance estimate with a claimed
/// half-width, and accepts or rejects a point on that alone. If the claim is ever wrong, the index
/// silently disagrees with a brute-force scan, so it is checked here on 210,000 seeded pairs that
/// lean on the hard places: within 1e-6° of the poles and on them, around ±180°, and separations
/// from 0 (coincident points) to 50 km (`ChordBounds.maximumChord`).
@Suite struct ChordBoundsTests {
    /// Where the first point of a pair is drawn.
    enum Region: String, CaseIterable, Sendable {
        /// Latitude uniform in -90...90 (not by area, so that high latitudes get their share).
        case anywhere
        /// Within 1e-6° of a pole.
        case nearPole
        /// Exactly at ±90°, any longitude.
        case atPole
        /// Longitude within 0.5° of ±180° or exactly ±180°.
        case antimeridian

        var pairCount: Int {
            switch self {
            case .anywhere: return 100_000
            case .nearPole: return 50_000
            case .atPole: return 20_000
            case .antimeridian: return 40_000
            }
        }

        var seed: UInt64 {
            switch self {
            case .anywhere: return 0xC0DE_0001
            case .nearPole: return 0xC0DE_0002
            case .atPole: return 0xC0DE_0003
            case .antimeridian: return 0xC0DE_0004
            }
        }

        func start(_ random: inout SplitMix64) -> Coordinate {
            switch self {
            case .anywhere:
                return Coordinate(unchecked: random.uniform(-90...90), random.longitude())
            case .nearPole:
                return Coordinate(unchecked: random.signed(90 - random.logUniform(1e-13...1e-6)), random.longitude())
            case .atPole:
                let longitude = random.chance(0.3) ? random.pick([0, 180, -180, 90]) : random.longitude()
                return Coordinate(unchecked: random.signed(90), longitude)
            case .antimeridian:
                let offset = random.chance(0.2) ? 0 : random.logUniform(1e-10...0.5)
                return Coordinate(unchecked: random.uniform(-90...90), random.signed(180 - offset))
            }
        }
    }

    /// IUGG mean radius, meters: the sphere `DistanceModel.sphere` measures on.
    static let sphereRadius = SphereRadius.iuggMean

    @Test(arguments: Region.allCases)
    func estimateIsWithinItsHalfWidth(region: Region) {
        var random = SplitMix64(seed: region.seed)
        let sphereBounds = ChordBounds.sphere(radius: Self.sphereRadius)
        var worstEllipsoid = 0.0
        var worstSphere = 0.0
        var failures = 0
        for _ in 0..<region.pairCount {
            let start = region.start(&random)
            let end = Self.partner(of: start, &random)

            let ellipsoidFrame = ChordFrame(
                center: start, equatorialRadius: WGS84.equatorialRadius,
                eccentricitySquared: WGS84.eccentricitySquared)
            let ellipsoidChord2 = ellipsoidFrame.chordSquared(latitude: end.latitude, longitude: end.longitude)
            let ellipsoid = ChordBounds.ellipsoid.estimate(chord: ellipsoidChord2.squareRoot())
            let geodesic = Geodesic.wgs84.distance(start, end)
            // The query's hot path uses the series form of the same estimate: both must hold.
            let geodesicError = max(
                abs(ellipsoid.distance - geodesic),
                abs(ChordBounds.ellipsoid.distanceEstimate(chordSquared: ellipsoidChord2) - geodesic))
            worstEllipsoid = max(worstEllipsoid, geodesicError / ellipsoid.halfWidth)

            let sphereFrame = ChordFrame(center: start, equatorialRadius: Self.sphereRadius, eccentricitySquared: 0)
            let sphereChord2 = sphereFrame.chordSquared(latitude: end.latitude, longitude: end.longitude)
            let sphere = sphereBounds.estimate(chord: sphereChord2.squareRoot())
            let haversine = Haversine.iuggMean.distance(start, end)
            let haversineError = max(
                abs(sphere.distance - haversine),
                abs(sphereBounds.distanceEstimate(chordSquared: sphereChord2) - haversine))
            worstSphere = max(worstSphere, haversineError / sphere.halfWidth)

            if geodesicError > ellipsoid.halfWidth || haversineError > sphere.halfWidth {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        """
                        \(start) → \(end): ellipsoid error \(geodesicError) m (half-width \(ellipsoid.halfWidth)), \
                        sphere error \(haversineError) m (half-width \(sphere.halfWidth))
                        """)
                }
            }
        }
        #expect(failures == 0, "worst |error| / half-width: ellipsoid \(worstEllipsoid), sphere \(worstSphere)")
    }

    /// A second point 0 to 50 km from `start`: 3 % exact copies, 1 % the same point spelled with the
    /// other ±180°, the rest at a log-uniform distance (1 mm … 50 km) in a uniform direction.
    static func partner(of start: Coordinate, _ random: inout SplitMix64) -> Coordinate {
        let roll = random.unit()
        if roll < 0.03 { return start }
        if roll < 0.04 {
            guard abs(start.longitude) == 180 else { return start }
            return Coordinate(unchecked: start.latitude, -start.longitude)
        }
        let distance = random.logUniform(1e-3...50_000)
        return Geodesic.wgs84.destination(from: start, bearing: random.uniform(0...360), distanceMeters: distance)
    }
}
