import Geo
import Places

/// One result of a `PlaceQuery`, as every surface shows it: what, where, how far and which way.
public struct QueryHit: Sendable, Hashable {
    public var id: String
    public var name: String
    /// The place's kind, or `user`.
    public var kind: String
    /// Where it is, WGS84 degrees.
    public var coordinate: Coordinate
    /// Meters from the query point under the query's model (see `PlaceQuery.Measures`).
    public var distanceMeters: Double
    /// Initial bearing from the query point, degrees clockwise from north in [0, 360); grid north
    /// for `projected`.
    public var bearingDegrees: Double
    /// For users: `private` only for the asking user's own record; nil for places.
    public var visibility: Visibility?
    /// For a user seen by anyone but themselves: the precision others see them at (the
    /// coordinate is the published one and the distance is rounded to its cell size; `exact`:
    /// neither); nil for places and the asker's own record.
    public var precision: LocationPrecision?
    /// For a query with `open` or `hoursAt`: whether the place is open then, and until when.
    public var opening: OpeningState?

    public init(
        id: String, name: String, kind: String, coordinate: Coordinate, distanceMeters: Double,
        bearingDegrees: Double, visibility: Visibility? = nil, precision: LocationPrecision? = nil,
        opening: OpeningState? = nil
    ) {
        self.opening = opening
        self.id = id
        self.name = name
        self.kind = kind
        self.coordinate = coordinate
        self.distanceMeters = distanceMeters
        self.bearingDegrees = bearingDegrees
        self.visibility = visibility
        self.precision = precision
    }
}

/// The answer to a `PlaceQuery`.
public struct QueryAnswer: Sendable, Hashable {
    /// Nearest first, ties by id (by kind, then id, across several kinds).
    public var hits: [QueryHit]
    /// For `within`: how many are within the radius, also when `limit` cut `hits`; for
    /// `nearest`: `hits.count`.
    public var total: Int
    /// With `namesNearestBeyond`, when nothing is within the radius: the nearest hit beyond it
    /// (nil if the collection is empty).
    public var nearestBeyondRadius: QueryHit?

    public init(hits: [QueryHit], total: Int, nearestBeyondRadius: QueryHit? = nil) {
        self.hits = hits
        self.total = total
        self.nearestBeyondRadius = nearestBeyondRadius
    }
}
