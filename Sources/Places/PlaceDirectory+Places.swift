import Geo

/// Reading places: anyone may. These forward to `places` so that front ends have one façade.
extension PlaceDirectory {
    /// The place with this kind and id.
    ///
    /// - Throws: `PlacesError.noSuchPlace`.
    public func place(kind: String, id: String) throws(PlacesError) -> Place {
        guard let place = places.place(kind: kind, id: id) else { throw .noSuchPlace(kind: kind, id: id) }
        return place
    }

    /// The places of `kind` within `radiusMeters` (distance ≤ radius), nearest first, ties by id;
    /// see `PlaceCatalog.nearby`.
    public func nearby(
        _ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic,
        limit: Int? = nil
    ) throws(PlacesError) -> [PlaceHit] {
        try places.nearby(center, radiusMeters: radiusMeters, kind: kind, model: model, limit: limit)
    }

    /// The id and coordinate of each place of `kind` within `radiusMeters` of `center`, unordered;
    /// see `PlaceCatalog.forEachPlace`.
    public func forEachPlace(
        within radiusMeters: Double, of center: Coordinate, kind: String, model: DistanceModel,
        _ body: (_ id: String, _ coordinate: Coordinate) -> Void
    ) throws(PlacesError) {
        try places.forEachPlace(within: radiusMeters, of: center, kind: kind, model: model, body)
    }

    /// The `count` places of `kind` nearest to `center`; see `PlaceCatalog.nearest`.
    public func nearest(
        _ count: Int, to center: Coordinate, kind: String, model: DistanceModel = .geodesic,
        maxDistanceMeters: Double? = nil
    ) throws(PlacesError) -> [PlaceHit] {
        try places.nearest(count, to: center, kind: kind, model: model, maxDistanceMeters: maxDistanceMeters)
    }

    /// How many places of `kind` lie within `radiusMeters` of `center`.
    public func count(
        _ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic
    ) throws(PlacesError) -> Int {
        try places.count(center, radiusMeters: radiusMeters, kind: kind, model: model)
    }

    /// The places of `kind` inside a latitude/longitude box in degrees, edges inclusive, by id;
    /// `west > east` is a box across ±180°. See `PlaceCatalog.inBox`.
    public func inBox(south: Double, west: Double, north: Double, east: Double, kind: String) throws(PlacesError)
        -> [Place]
    {
        try places.inBox(south: south, west: west, north: north, east: east, kind: kind)
    }

    /// The distance in meters and the initial bearing in degrees (0…360, clockwise from north)
    /// from `a` to `b` under `model`.
    public func distance(_ a: Coordinate, _ b: Coordinate, model: DistanceModel = .geodesic) throws(PlacesError)
        -> (distanceMeters: Double, bearing: Double)
    {
        do { return try model.measure(a, b) } catch { throw .geo(error) }
    }
}
