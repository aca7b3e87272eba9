import Geo

/// What a map shows: the region around a centre, the search radius and the places found.
///
/// ```swift
/// let model = MapModel(
///     center: here, radiusMeters: 500, kind: "pharmacy",
///     markers: [MapMarker(name: "Omur", kind: "pharmacy", distanceMeters: 131.9,
///                         bearingDegrees: 255.3, eastMeters: -127.6, northMeters: -33.4)])
/// let lines = try MapRenderer(width: 80, height: 24).render(model).lines
/// ```
public struct MapModel: Sendable, Hashable {
    /// The query point, drawn as the "you" marker in the middle of the map.
    public var center: Coordinate
    /// The search radius in meters (finite, 0 or more), drawn as a ring.
    public var radiusMeters: Double
    /// Half the side of the drawn square in meters (finite, above 0): the map shows from
    /// `halfExtentMeters` west to `halfExtentMeters` east of the centre, and as far north and
    /// south.
    public var halfExtentMeters: Double
    /// The kind searched for (`pharmacy`), singular; titles and messages pluralize it.
    public var kind: String
    /// The places to number and list, normally those within the radius. The renderer orders
    /// them by `distanceMeters` (a stable sort: callers' ties keep their order) and numbers
    /// them 1, 2, … in that order — only the open ones when some carry an opening state.
    public var markers: [MapMarker]
    /// For an empty map: the nearest place beyond the radius, named under the map so that the
    /// reader knows where to go; nil if there is none or it is unknown.
    public var nearestBeyondRadius: MapMarker?

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - halfExtentMeters: nil for `defaultHalfExtent(radiusMeters:)`.
    public init(
        center: Coordinate, radiusMeters: Double, halfExtentMeters: Double? = nil, kind: String,
        markers: [MapMarker], nearestBeyondRadius: MapMarker? = nil
    ) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.halfExtentMeters = halfExtentMeters ?? Self.defaultHalfExtent(radiusMeters: radiusMeters)
        self.kind = kind
        self.markers = markers
        self.nearestBeyondRadius = nearestBeyondRadius
    }

    /// Whether the map shows opening states: some marker (or the nearest place beyond the radius)
    /// carries one (`MapMarker.opening`).
    var showsOpening: Bool {
        markers.contains { $0.opening != nil } || nearestBeyondRadius?.opening != nil
    }

    /// 1.2 × the radius, so the ring sits inside the frame with a margin, and at least 10 m so a
    /// radius of 0 still gives a map.
    public static func defaultHalfExtent(radiusMeters: Double) -> Double {
        max(radiusMeters * 1.2, 10)
    }
}
