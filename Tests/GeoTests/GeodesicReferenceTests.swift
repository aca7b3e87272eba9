import Foundation
import Testing

@testable import Geo

/// `Geodesic.wgs84` (PROJ's `geod_inverse`) against GeographicLib on the committed reference table
/// `Fixtures/geodesic-reference.csv` (1,616 pairs; `Fixtures/make_geodesic_reference.py` says how
/// it was made). Both implement Karney's algorithm, good to 15 nm, so 1 µm leaves room only for
/// real mistakes: a swapped argument, a lost normalization, a wrong ellipsoid.
@Suite struct GeodesicReferenceTests {
    /// Distance tolerance, meters. Observed: at most 1.9e-9 m (the `random` and `antimeridian` rows).
    static let distanceTolerance = 1e-6
    /// Azimuth tolerance, degrees. Observed: at most 2e-8° (a 2.5 m `short` pair, where one ulp of
    /// the inputs already turns the direction by about that much).
    static let azimuthTolerance = 1e-6
    /// Below this distance (meters) the azimuth is not compared: it swings with the last bits of the
    /// coordinates, and at 0 m it is undefined.
    static let azimuthMinimumDistance = 1.0
    /// Rows whose azimuth is a convention rather than a property of the two points: at a pole every
    /// direction points south (or north), and GeographicLib reads lon1 as the meridian the pole was
    /// approached along; between exact antipodes several geodesics are equally short. For these
    /// the test checks instead that the azimuth returned leads to the second point.
    static let conventionalAzimuthCategories: Set<String> = ["pole-start", "antipodal-exact"]

    @Test func tableCoversEveryCategory() {
        #expect(GeodesicReference.all.count >= 1_200)
        let expected: Set = [
            "short", "short-polar", "antipodal-near", "antipodal-equatorial", "antipodal-exact", "pole-start",
            "pole-end", "pole-near", "antimeridian", "equator", "random", "coincident",
        ]
        #expect(Set(GeodesicReference.categories) == expected)
    }

    @Test(arguments: GeodesicReference.categories)
    func distanceMatchesGeographicLib(category: String) throws {
        for row in GeodesicReference.all where row.category == category {
            let (start, end) = try row.points()
            let distance = Geodesic.wgs84.inverse(start, end).distanceMeters
            #expect(abs(distance - row.distanceMeters) <= Self.distanceTolerance, "\(row)")
            #expect(Geodesic.wgs84.distance(start, end) == distance)
        }
    }

    @Test(arguments: GeodesicReference.categories)
    func azimuthMatchesGeographicLib(category: String) throws {
        for row in GeodesicReference.all
        where row.category == category && row.distanceMeters > Self.azimuthMinimumDistance {
            let (start, end) = try row.points()
            let bearing = Geodesic.wgs84.inverse(start, end).initialBearing
            #expect(bearing >= 0 && bearing < 360, "\(row)")
            if Self.conventionalAzimuthCategories.contains(category) {
                let reached = Geodesic.wgs84.destination(
                    from: start, bearing: bearing, distanceMeters: row.distanceMeters)
                #expect(Geodesic.wgs84.distance(reached, end) <= Self.distanceTolerance, "\(row) reached \(reached)")
            } else {
                #expect(Self.angleBetween(bearing, row.azimuthDegrees) <= Self.azimuthTolerance, "\(row)")
            }
        }
    }

    @Test(arguments: GeodesicReference.categories)
    func geodesicModelMeasuresTheSame(category: String) throws {
        for row in GeodesicReference.all where row.category == category {
            let (start, end) = try row.points()
            let solved = Geodesic.wgs84.inverse(start, end)
            let measured = try DistanceModel.geodesic.measure(start, end)
            #expect(measured.distanceMeters == solved.distanceMeters, "\(row)")
            #expect(measured.bearing == solved.initialBearing, "\(row)")
            #expect(try DistanceModel.geodesic.distance(start, end) == solved.distanceMeters, "\(row)")
            #expect(abs(measured.distanceMeters - row.distanceMeters) <= Self.distanceTolerance, "\(row)")
        }
    }

    /// The smaller angle between two directions in degrees, whatever range each is written in.
    static func angleBetween(_ first: Double, _ second: Double) -> Double {
        abs(remainder(first - second, 360))
    }
}

extension GeodesicReference {
    /// The row's two points as validated coordinates (every row is inside the valid ranges).
    func points() throws -> (Coordinate, Coordinate) {
        (
            try Coordinate(latitude: latitude1, longitude: longitude1),
            try Coordinate(latitude: latitude2, longitude: longitude2)
        )
    }
}
