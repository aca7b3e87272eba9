import Geo

extension PlaceCatalog {
    /// The places of `kind` within `radiusMeters` of `center` (distance ≤ radius), nearest first;
    /// places at exactly the same distance in order of their `id` (`String` `<`).
    ///
    /// - Parameters:
    ///   - center: the query point.
    ///   - radiusMeters: finite, 0 or more.
    ///   - kind: the collection to search; a kind not present gives `[]`.
    ///   - model: how distance is measured; the answer equals a brute-force scan under it.
    ///   - limit: keep only the first `limit` places (1 or more), or nil for all.
    /// - Throws: `PlacesError.geo` for an invalid radius or limit, or a projection failure.
    public func nearby(
        _ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic,
        limit: Int? = nil
    ) throws(PlacesError) -> [PlaceHit] {
        try placeHits(kind) { index, _, tieOrder throws(GeoError) in
            try index.within(radiusMeters: radiusMeters, of: center, model: model, limit: limit, tieOrder: tieOrder)
        }
    }

    /// The hits a search of `kind`'s index makes, as places: `search` gets the index, the places
    /// by handle and the order of ties (by id).
    ///
    /// - Throws: `PlacesError.geo` for what the search throws.
    private func placeHits(
        _ kind: String,
        _ search: (GridIndex, Collection?, TieOrder) throws(GeoError) -> [GridHit]
    ) throws(PlacesError) -> [PlaceHit] {
        guard let collection = collections[kind] else {
            do { _ = try search(emptyIndex, nil, { _, _ in false }) } catch { throw .geo(error) }
            return []
        }
        do {
            let texts = collection.texts
            return try search(collection.index, collection, { texts.idPrecedes(Int($0), Int($1)) }).map {
                PlaceHit(place: collection.place($0.handle), distanceMeters: $0.distanceMeters)
            }
        } catch {
            throw .geo(error)
        }
    }

    /// Calls `body` with the id and coordinate of each place of `kind` within `radiusMeters` of
    /// `center`, in no particular order: `nearby` without ordering, distances or copies of the
    /// places, for front ends that choose and order by their own rule (Redis's GEOSEARCH).
    ///
    /// - Throws: `PlacesError.geo` for an invalid radius or a projection failure.
    public func forEachPlace(
        within radiusMeters: Double, of center: Coordinate, kind: String, model: DistanceModel,
        _ body: (_ id: String, _ coordinate: Coordinate) -> Void
    ) throws(PlacesError) {
        guard let collection = collections[kind] else { return }
        let handles: [UInt32]
        do {
            handles = try collection.index.handles(withinRadiusMeters: radiusMeters, of: center, model: model)
        } catch {
            throw .geo(error)
        }
        for handle in handles {
            guard let coordinate = collection.index.coordinate(of: handle) else { continue }
            body(collection.texts.id(Int(handle)), coordinate)
        }
    }

    /// Calls `body` with the places of `kind` in the grid cells that may hold a place within
    /// `angularRadius` of `center` (see `GridIndex.withPoints`), as runs of handles and positions
    /// and their total count: a superset of those places, unordered, straight from the index's
    /// scan, for front ends that choose by their own distance rule (Redis's GEOSEARCH). A kind not
    /// present gives no runs. Ids come from `ids(kind:)` by handle.
    public func withPlaces<Result>(
        kind: String, inCapAround center: Coordinate, angularRadius: Double,
        _ body: (_ runs: [GridIndex.PointRun], _ count: Int) -> Result
    ) -> Result {
        guard let index = collections[kind]?.index else { return body([], 0) }
        return index.withPoints(inCapAround: center, angularRadius: angularRadius, body)
    }

    /// The ids of `kind`'s places by handle (nil for a kind not present).
    public func ids(kind: String) -> PlaceIDs? {
        collections[kind].map { PlaceIDs(texts: $0.texts) }
    }

    /// `nearby` for a point given as latitude and longitude in degrees.
    ///
    /// - Throws: also `PlacesError.geo(.invalidLatitude)` / `(.invalidLongitude)`.
    public func nearby(
        latitude: Double, longitude: Double, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic,
        limit: Int? = nil
    ) throws(PlacesError) -> [PlaceHit] {
        try nearby(
            Self.coordinate(latitude: latitude, longitude: longitude), radiusMeters: radiusMeters, kind: kind,
            model: model, limit: limit)
    }

    /// The `count` places of `kind` nearest to `center`, nearest first, ties by `id`; only those
    /// within `maxDistanceMeters` if it is given. Fewer if the kind holds fewer.
    ///
    /// - Parameters:
    ///   - count: 1 or more.
    ///   - maxDistanceMeters: finite, 0 or more, or nil for no limit.
    /// - Throws: `PlacesError.geo` for an invalid count or distance, or a projection failure.
    public func nearest(
        _ count: Int, to center: Coordinate, kind: String, model: DistanceModel = .geodesic,
        maxDistanceMeters: Double? = nil
    ) throws(PlacesError) -> [PlaceHit] {
        try placeHits(kind) { index, _, tieOrder throws(GeoError) in
            try index.nearest(
                count, to: center, model: model, maxDistanceMeters: maxDistanceMeters, tieOrder: tieOrder)
        }
    }

    /// `nearest` for a point given as latitude and longitude in degrees.
    public func nearest(
        _ count: Int, latitude: Double, longitude: Double, kind: String, model: DistanceModel = .geodesic,
        maxDistanceMeters: Double? = nil
    ) throws(PlacesError) -> [PlaceHit] {
        try nearest(
            count, to: Self.coordinate(latitude: latitude, longitude: longitude), kind: kind, model: model,
            maxDistanceMeters: maxDistanceMeters)
    }

    private static func coordinate(latitude: Double, longitude: Double) throws(PlacesError) -> Coordinate {
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw .geo(error)
        }
    }
}

extension PlaceCatalog {
    /// How many places of `kind` lie within `radiusMeters` of `center` (distance ≤ radius) under
    /// `model`: the length of `nearby`'s answer, without building it.
    public func count(
        _ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic
    ) throws(PlacesError) -> Int {
        let index = collections[kind]?.index ?? emptyIndex
        do { return try index.count(withinRadiusMeters: radiusMeters, of: center, model: model) } catch {
            throw .geo(error)
        }
    }

    /// The places of `kind` inside a latitude/longitude box in degrees, edges inclusive, in id
    /// order; `west > east` selects a box across ±180°.
    ///
    /// - Throws: `PlacesError.geo` for a latitude or longitude out of range or `south > north`.
    public func inBox(south: Double, west: Double, north: Double, east: Double, kind: String) throws(PlacesError)
        -> [Place]
    {
        guard let collection = collections[kind] else {
            do { _ = try emptyIndex.inBox(south: south, west: west, north: north, east: east) } catch {
                throw .geo(error)
            }
            return []
        }
        let texts = collection.texts
        do {
            return try collection.index.inBox(
                south: south, west: west, north: north, east: east,
                tieOrder: { texts.idPrecedes(Int($0), Int($1)) }
            ).map { collection.place($0) }
        } catch {
            throw .geo(error)
        }
    }
}

extension PlaceCatalog {
    /// `nearby` over the places `keep` accepts (called once per place within the radius): equals
    /// filtering a brute-force scan, then sorting.
    public func nearby(
        _ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic,
        limit: Int? = nil, where keep: (borrowing Place) -> Bool
    ) throws(PlacesError) -> [PlaceHit] {
        try placeHits(kind) { index, places, tieOrder throws(GeoError) in
            try index.within(
                radiusMeters: radiusMeters, of: center, model: model, limit: limit, tieOrder: tieOrder,
                where: { keep(places!.place($0)) })
        }
    }

    /// `nearest` over the places `keep` accepts, however far they are (within
    /// `maxDistanceMeters` if given): equals filtering a brute-force scan, sorting and cutting.
    public func nearest(
        _ count: Int, to center: Coordinate, kind: String, model: DistanceModel = .geodesic,
        maxDistanceMeters: Double? = nil, where keep: (borrowing Place) -> Bool
    ) throws(PlacesError) -> [PlaceHit] {
        try placeHits(kind) { index, places, tieOrder throws(GeoError) in
            try index.nearest(
                count, to: center, model: model, maxDistanceMeters: maxDistanceMeters, tieOrder: tieOrder,
                where: { keep(places!.place($0)) })
        }
    }
}
