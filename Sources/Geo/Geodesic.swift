import CProj

/// Geodesic distance and azimuth on the WGS84 ellipsoid, by Karney's algorithm as implemented in
/// PROJ's `geodesic.c` (`geod_inverse`).
///
/// Accuracy: errors below 15 nanometers for any pair of points on WGS84, including nearly
/// antipodal ones (C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55, 2013).
/// Cost: the dearest of the three models per call (BENCHMARKS.md).
///
/// The parameters live in a heap block that is written once in `init` and only read afterwards,
/// which `geod_inverse` does through a `const` pointer: one instance is safe to share between
/// threads.
public final class Geodesic: Sendable {
    /// The shared WGS84 solver.
    public static let wgs84 = Geodesic(
        equatorialRadius: WGS84.equatorialRadius, flattening: WGS84.flattening)

    private nonisolated(unsafe) let parameters: UnsafeMutablePointer<geod_geodesic>

    /// - Parameters:
    ///   - equatorialRadius: meters.
    ///   - flattening: dimensionless; negative for a prolate ellipsoid.
    public init(equatorialRadius: Double, flattening: Double) {
        parameters = .allocate(capacity: 1)
        geod_init(parameters, equatorialRadius, flattening)
    }

    deinit { parameters.deallocate() }

    /// Distance in meters between two points along the geodesic (the shortest path).
    public func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        inverse(a, b).distanceMeters
    }

    /// Solves the inverse geodesic problem.
    ///
    /// - Returns: the distance in meters and the initial azimuth at `a` in degrees clockwise from
    ///   north, normalized to [0, 360). For coincident points the azimuth is 0.
    public func inverse(_ a: Coordinate, _ b: Coordinate) -> (distanceMeters: Double, initialBearing: Double) {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        geod_inverse(parameters, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
        // geod_inverse gives 180° between coincident points; 0 like the other models.
        return (s12, s12 == 0 ? 0 : Bearing.normalized(azi1))
    }

    /// Solves the direct geodesic problem: the point reached from `start` after `distanceMeters`
    /// along the geodesic leaving at `bearing` degrees clockwise from north.
    public func destination(from start: Coordinate, bearing: Double, distanceMeters: Double) -> Coordinate {
        var lat2 = 0.0
        var lon2 = 0.0
        var azi2 = 0.0
        geod_direct(parameters, start.latitude, start.longitude, bearing, distanceMeters, &lat2, &lon2, &azi2)
        return Coordinate(unchecked: min(90, max(-90, lat2)), Bearing.wrappedLongitude(lon2))
    }
}
