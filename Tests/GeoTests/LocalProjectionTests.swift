import Foundation
import Testing

@testable import Geo

/// The map projection keeps distance and direction from its centre true.
@Suite struct LocalProjectionTests {
    @Test func istanbulExampleIsAtItsGeodesicDistanceAndBearing() throws {
        let here = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let omur = try Coordinate(latitude: 41.087853, longitude: 29.014096)
        let (x, y) = try LocalProjection(center: here).project(omur)
        let geodesic = Geodesic.wgs84.inverse(here, omur)
        #expect(abs((x * x + y * y).squareRoot() - geodesic.distanceMeters) < 1e-6)
        #expect(abs(Bearing.normalized(atan2(x, y) * 180 / .pi) - geodesic.initialBearing) < 1e-6)
    }

    @Test(arguments: [(0.0, 0.0), (89.9999, 10.0), (-60.0, 179.9999), (45.0, -180.0)])
    func distancesFromTheCentreAreGeodesic(latitude: Double, longitude: Double) throws {
        let center = try Coordinate(latitude: latitude, longitude: longitude)
        let projection = try LocalProjection(center: center)
        for bearing in stride(from: 0.0, to: 360, by: 30) {
            for distance in [1.0, 500, 5_000, 200_000] {
                let point = Geodesic.wgs84.destination(from: center, bearing: bearing, distanceMeters: distance)
                let (x, y) = try projection.project(point)
                #expect(abs((x * x + y * y).squareRoot() - Geodesic.wgs84.distance(center, point)) < 1e-6)
            }
        }
    }

    @Test func aStreamOfCentresDoesNotGrowThePool() throws {
        let pool = ProjectionPool(capacity: 4)
        for step in 0..<20 {
            let center = try Coordinate(latitude: Double(step), longitude: 0)
            _ = try LocalProjection(center: center, pool: pool).project(center)
        }
        #expect(pool.idleCount <= 4)
    }
}
