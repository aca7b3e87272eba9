import Foundation

/// Great-circle distance on a sphere by the haversine formula.
///
/// The sphere is an approximation of the Earth: against the WGS84 ellipsoid it is off by up to
/// about 0.5 % (0.12 % on average around Istanbul with the IUGG radius). It is here because Redis
/// and most spatial stores measure this way, and because it is cheap.
public struct Haversine: Sendable, Hashable {
    /// Sphere radius in meters.
    public let radiusMeters: Double

    /// The radii accepted, meters: from 1 m up to 10,000 km (the Earth is 6,371 km). Beyond them
    /// the index's error bounds, which are absolute, would no longer cover rounding.
    public static let validRadii: ClosedRange<Double> = 1...10_000_000

    /// - Parameter radiusMeters: sphere radius in meters, 1...10,000,000; defaults to the IUGG
    ///   mean radius 6,371,008.8 m. Use `SphereRadius.redis` to match Redis to the bit.
    /// - Throws: `GeoError.invalidSphereRadius` outside that range or for NaN.
    public init(radiusMeters: Double = SphereRadius.iuggMean) throws(GeoError) {
        guard Haversine.validRadii.contains(radiusMeters) else { throw .invalidSphereRadius(radiusMeters) }
        self.radiusMeters = radiusMeters
    }

    /// The canonical haversine distance in meters between two points.
    ///
    /// This function is the definition of the haversine model: the index returns exactly the
    /// points this function places within a radius. Accurate to a few ulps for short distances;
    /// near-antipodal pairs lose precision as `asin` approaches 1 (≈ 1 mm at 20,000 km).
    @inlinable
    public func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let degrees = Double.pi / 180
        let lat1 = a.latitude * degrees
        let lat2 = b.latitude * degrees
        let halfDeltaLat = (b.latitude - a.latitude) * degrees / 2
        let halfDeltaLon = (b.longitude - a.longitude) * degrees / 2
        let sinLat = sin(halfDeltaLat)
        let sinLon = sin(halfDeltaLon)
        let h = sinLat * sinLat + cos(lat1) * cos(lat2) * sinLon * sinLon
        return 2 * radiusMeters * asin(min(1, h.squareRoot()))
    }

    /// Initial bearing from `a` towards `b` along the great circle, degrees clockwise from north in
    /// [0, 360). Returns 0 for coincident points; undefined directions at the poles follow the
    /// meridian of the longitudes given.
    public func initialBearing(_ a: Coordinate, _ b: Coordinate) -> Double {
        let degrees = Double.pi / 180
        let lat1 = a.latitude * degrees
        let lat2 = b.latitude * degrees
        let deltaLon = (b.longitude - a.longitude) * degrees
        let y = sin(deltaLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(deltaLon)
        if distance(a, b) == 0 { return 0 }
        return Bearing.normalized(atan2(y, x) / degrees)
    }
}
