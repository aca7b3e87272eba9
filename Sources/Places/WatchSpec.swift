import Geo

/// A standing radius query: what of one kind is within a radius of a centre, kept up to date by
/// events as the log is applied (`DurableDirectory.watch`).
///
/// The set a watch reports is exactly what `NEARBY` with the same kind, centre, radius, model and
/// principal returns at the same log position (inclusive boundary: d ≤ r), each object with its
/// name, coordinate, and distance and bearing from the centre.
public struct WatchSpec: Sendable, Hashable {
    /// Where the watch is centred.
    public enum Center: Sendable, Hashable {
        /// A fixed point.
        case point(Coordinate)
        /// A user's own location, wherever it goes (roaming): needs that user's token or the
        /// admin's. While the user has no location the watch holds nothing.
        case user(String)
    }

    /// A place kind, or `PlaceDirectory.userKind` for the users.
    public var kind: String
    public var center: Center
    /// Meters, 0 to `Vocabulary.maximumDistanceMeters`, inclusive.
    public var radiusMeters: Double
    /// `.geodesic` (WGS84) or `.haversine`; a projected model is refused.
    public var model: DistanceModel

    public init(kind: String, center: Center, radiusMeters: Double, model: DistanceModel = .geodesic) {
        self.kind = kind
        self.center = center
        self.radiusMeters = radiusMeters
        self.model = model
    }
}

/// A watch's number, unique in its server for the life of the process (never reused).
public typealias WatchID = UInt64
