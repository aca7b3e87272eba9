/// One answer to a catalog query: a place and how far it is from the query point.
public struct PlaceHit: Sendable, Hashable {
    /// The place found.
    public var place: Place
    /// Distance from the query point in meters under the query's `DistanceModel` (see
    /// `GridHit.distanceMeters` for its accuracy: within a micrometer of the model's own value).
    public var distanceMeters: Double

    public init(place: Place, distanceMeters: Double) {
        self.place = place
        self.distanceMeters = distanceMeters
    }
}
