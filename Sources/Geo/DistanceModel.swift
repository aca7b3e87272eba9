/// How distance is measured. Every model returns meters.
///
/// | model | surface | accuracy against the true WGS84 geodesic |
/// |---|---|---|
/// | `geodesic` | WGS84 ellipsoid, Karney's algorithm (PROJ `geod_inverse`) | < 15 nm |
/// | `haversine` | sphere, IUGG mean radius 6,371,008.8 m by default | up to ~0.5 % off |
/// | `projected` | plane of a projected CRS (UTM zone of the query by default) | the CRS's scale error, ~0.04 % in a UTM zone |
public enum DistanceModel: Sendable, Hashable, CustomStringConvertible {
    /// Great circle on a sphere.
    case haversine(Haversine)
    /// Shortest path on the WGS84 ellipsoid.
    case geodesic
    /// Straight line in a projected CRS.
    case projected(ProjectionChoice)

    /// The haversine model on the IUGG mean sphere.
    public static let sphere = DistanceModel.haversine(Haversine.iuggMean)

    /// Distance in meters and initial bearing (degrees clockwise from north, [0, 360); grid north
    /// for `projected`) from `a` to `b`.
    public func measure(_ a: Coordinate, _ b: Coordinate) throws(GeoError) -> (distanceMeters: Double, bearing: Double)
    {
        switch self {
        case .haversine(let sphere):
            return (sphere.distance(a, b), sphere.initialBearing(a, b))
        case .geodesic:
            let result = Geodesic.wgs84.inverse(a, b)
            return (result.distanceMeters, result.initialBearing)
        case .projected(let choice):
            let result = try ProjectedDistance(choice).measure(a, b)
            return (result.distanceMeters, result.gridBearing)
        }
    }

    /// Distance in meters from `a` to `b` under this model.
    public func distance(_ a: Coordinate, _ b: Coordinate) throws(GeoError) -> Double {
        switch self {
        case .haversine(let sphere): return sphere.distance(a, b)
        case .geodesic: return Geodesic.wgs84.distance(a, b)
        case .projected(let choice): return try ProjectedDistance(choice).measure(a, b).distanceMeters
        }
    }

    /// `haversine`, `geodesic` or `projected`.
    public var name: String {
        switch self {
        case .haversine: return "haversine"
        case .geodesic: return "geodesic"
        case .projected: return "projected"
        }
    }

    public var description: String {
        switch self {
        case .haversine(let sphere): return "haversine (sphere R = \(sphere.radiusMeters) m)"
        case .geodesic: return "geodesic (WGS84)"
        case .projected(let choice): return "projected (\(choice))"
        }
    }
}

extension Haversine {
    /// The IUGG mean sphere, R = 6,371,008.8 m.
    public static let iuggMean = Haversine(validRadius: SphereRadius.iuggMean)
    /// The sphere Redis measures on, R = 6,372,797.560856 m.
    public static let redis = Haversine(validRadius: SphereRadius.redis)

    init(validRadius: Double) { radiusMeters = validRadius }
}
