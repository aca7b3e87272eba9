import Foundation
import Testing

@testable import Geo

@Suite struct HaversineTests {
    /// The Istanbul pair of TOOLCHAIN-NOTES.md (131.936 m on the ellipsoid).
    static let istanbulStart = Coordinate(unchecked: 41.088154, 29.015615)
    static let istanbulEnd = Coordinate(unchecked: 41.087853, 29.014096)

    @Test func istanbulPairOnTheIUGGSphere() throws {
        // 131.630 m (TOOLCHAIN-NOTES.md); 131.6303923 m by the same formula in Python.
        let distance = Haversine.iuggMean.distance(Self.istanbulStart, Self.istanbulEnd)
        #expect(abs(distance - 131.630) <= 1e-3)
        #expect(try DistanceModel.sphere.distance(Self.istanbulStart, Self.istanbulEnd) == distance)
    }

    @Test func istanbulPairOnTheRedisSphere() {
        // 131.6673496 m: the distance scales with the radius, 6,372,797.560856 / 6,371,008.8.
        let distance = Haversine.redis.distance(Self.istanbulStart, Self.istanbulEnd)
        #expect(abs(distance - 131.667_35) <= 1e-5)
    }

    @Test func istanbulBearing() throws {
        // 255.2701389° by atan2(sin Δλ cos φ2, cos φ1 sin φ2 − sin φ1 cos φ2 cos Δλ) in Python.
        let bearing = Haversine.iuggMean.initialBearing(Self.istanbulStart, Self.istanbulEnd)
        #expect(abs(bearing - 255.270_138_927) <= 1e-8)
        #expect(Bearing.compassPoint(bearing) == "WSW")
        let measured = try DistanceModel.sphere.measure(Self.istanbulStart, Self.istanbulEnd)
        #expect(measured.bearing == bearing)
    }

    /// Directions with an exact answer: along meridians, along the equator, and the convention of 0
    /// for coincident points.
    @Test(arguments: [
        (0.0, 0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0, 90.0), (0.0, 0.0, -1.0, 0.0, 180.0),
        (0.0, 0.0, 0.0, -1.0, 270.0), (10.0, 20.0, 10.0, 20.0, 0.0), (0.0, 179.5, 0.0, -179.5, 90.0),
    ])
    func bearing(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double, expected: Double) {
        let bearing = Haversine.iuggMean.initialBearing(
            Coordinate(unchecked: latitude1, longitude1), Coordinate(unchecked: latitude2, longitude2))
        #expect(abs(remainder(bearing - expected, 360)) <= 1e-12)
    }

    @Test func halfCircumferenceBetweenAntipodes() {
        let halfCircumference = Double.pi * SphereRadius.iuggMean
        let sphere = Haversine.iuggMean
        #expect(sphere.distance(Coordinate(unchecked: 0, 0), Coordinate(unchecked: 0, 180)) == halfCircumference)
        #expect(sphere.distance(Coordinate(unchecked: 90, 0), Coordinate(unchecked: -90, 0)) == halfCircumference)
        #expect(sphere.distance(Coordinate(unchecked: 10, 20), Coordinate(unchecked: 10, 20)) == 0)
    }

    @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity, 0.999, 1e-155, 10_000_000.5, 1e300])
    func rejectsInvalidRadius(radius: Double) {
        #expect {
            _ = try Haversine(radiusMeters: radius)
        } throws: { error in
            guard let error = error as? GeoError, case .invalidSphereRadius = error else { return false }
            return error.description.hasSuffix("expected 1 to 10000000 meters")
        }
    }

    @Test func defaultRadiusIsTheIUGGMean() throws {
        #expect(try Haversine().radiusMeters == 6_371_008.8)
        #expect(Haversine.redis.radiusMeters == 6_372_797.560_856)
    }
}
