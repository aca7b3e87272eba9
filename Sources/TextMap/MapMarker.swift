/// One place to show on a map and in the list under it.
///
/// The position is given already projected — meters east and north of the map's centre on a
/// local azimuthal-equidistant projection (`Geo.LocalProjection`) — so the renderer does no
/// geodesy and no I/O. `init(name:kind:coordinate:distanceMeters:bearingDegrees:projection:)`
/// builds one from a coordinate.
public struct MapMarker: Sendable, Hashable {
    /// Display name, as listed under the map; an empty name is listed as "(unnamed)".
    public var name: String
    /// The collection the place belongs to (`pharmacy`, `user`, …); shown in the list only when
    /// it differs from the map's kind.
    public var kind: String
    /// Distance from the centre in meters, as the caller's distance model measured it; the list
    /// prints it and orders by it.
    public var distanceMeters: Double
    /// Direction from the centre, degrees clockwise from north, [0, 360); the list prints it as a
    /// compass point (`WSW`).
    public var bearingDegrees: Double
    /// Meters east of the centre (negative: west). NaN or infinite: the place cannot be placed
    /// on the map and is listed as outside it.
    public var eastMeters: Double
    /// Meters north of the centre (negative: south). NaN or infinite: as for `eastMeters`.
    public var northMeters: Double
    /// Whether the place is open at the map's moment, for a map that shows opening hours; nil when
    /// the caller did not ask. A map where any marker has a state draws open places by their
    /// number and closed places and those with hours unknown by their own symbols, and says in
    /// the list until when; a marker without a state on such a map is drawn as hours unknown,
    /// never as open. A map where no marker has one is drawn as if hours did not exist.
    public var opening: Opening?

    public init(
        name: String, kind: String, distanceMeters: Double, bearingDegrees: Double, eastMeters: Double,
        northMeters: Double, opening: Opening? = nil
    ) {
        self.name = name
        self.kind = kind
        self.distanceMeters = distanceMeters
        self.bearingDegrees = bearingDegrees
        self.eastMeters = eastMeters
        self.northMeters = northMeters
        self.opening = opening
    }

    /// The name the list prints.
    var displayName: String { name.isEmpty ? "(unnamed)" : name }
}
