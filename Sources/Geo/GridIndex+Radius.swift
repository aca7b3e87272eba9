import Foundation

/// One query result: a handle and its distance in meters under the query's model.
public struct GridHit: Sendable, Hashable {
    /// The point's handle.
    public var handle: UInt32
    /// Distance from the query point in meters.
    ///
    /// Exact (the model's own function) where the order or the radius test needed it; elsewhere a
    /// chord-based estimate within 0.1 µm of it: for the geodesic model up to 2 km (longer hits get
    /// `geod_inverse`), for haversine up to 50 km (longer hits get the haversine formula).
    public var distanceMeters: Double

    public init(handle: UInt32, distanceMeters: Double) {
        self.handle = handle
        self.distanceMeters = distanceMeters
    }
}

/// How a query orders points at exactly the same distance. The default is by handle; `Places`
/// passes an ordering by string id.
public typealias TieOrder = (UInt32, UInt32) -> Bool

extension GridIndex {
    /// All points within `radiusMeters` of `center` (distance ≤ radius), nearest first, ties by
    /// `tieOrder`.
    ///
    /// - Parameters:
    ///   - radiusMeters: finite, ≥ 0.
    ///   - center: the query point.
    ///   - model: the distance model; the result equals a brute-force scan with
    ///     `model.distance(center, point)`.
    ///   - limit: keep only the first `limit` results.
    ///   - tieOrder: order of points at exactly equal distance.
    /// - Throws: `GeoError.invalidRadius`, `.invalidCount`, or a projection error for `projected`.
    public func within(
        radiusMeters: Double, of center: Coordinate, model: DistanceModel, limit: Int? = nil,
        tieOrder: TieOrder = { $0 < $1 }
    ) throws(GeoError) -> [GridHit] {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        if let limit, limit < 1 { throw .invalidCount(limit) }
        return try RadiusSearch.with(index: self, center: center, model: model) { search throws(GeoError) in
            var hits = search.order(try search.collect(radiusMeters: radiusMeters), tieOrder: tieOrder)
            if let limit, hits.count > limit { hits.removeSubrange(limit...) }
            return hits
        }
    }

    /// The number of points within `radiusMeters` of `center` (distance ≤ radius).
    public func count(withinRadiusMeters radiusMeters: Double, of center: Coordinate, model: DistanceModel)
        throws(GeoError) -> Int
    {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        return try RadiusSearch.with(index: self, center: center, model: model) { search throws(GeoError) in
            try search.collect(radiusMeters: radiusMeters).count
        }
    }

    /// The handles of all points within `radiusMeters` of `center` (distance ≤ radius), in no
    /// particular order and without their distances: `within` without the ordering, for callers
    /// that filter or order by their own rule.
    ///
    /// - Throws: `GeoError.invalidRadius`, or a projection error for `projected`.
    public func handles(withinRadiusMeters radiusMeters: Double, of center: Coordinate, model: DistanceModel)
        throws(GeoError) -> [UInt32]
    {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        return try RadiusSearch.with(index: self, center: center, model: model) { search throws(GeoError) in
            try search.collect(radiusMeters: radiusMeters).map(\.handle)
        }
    }

    /// The `count` points nearest to `center`, nearest first, ties by `tieOrder`; optionally only
    /// those within `maxDistanceMeters`. Exact: equals sorting a brute-force scan and taking the
    /// first `count`.
    public func nearest(
        _ count: Int, to center: Coordinate, model: DistanceModel, maxDistanceMeters: Double? = nil,
        tieOrder: TieOrder = { $0 < $1 }
    ) throws(GeoError) -> [GridHit] {
        guard count >= 1 else { throw .invalidCount(count) }
        if let maxDistanceMeters, !(maxDistanceMeters.isFinite && maxDistanceMeters >= 0) {
            throw .invalidRadius(maxDistanceMeters)
        }
        return try nearestHits(
            count, to: center, model: model, limit: maxDistanceMeters ?? .infinity, tieOrder: tieOrder, keep: nil)
    }

    /// Handles of the points inside a latitude/longitude box, edges inclusive, ordered by
    /// `tieOrder`. `west > east` selects a box crossing ±180° (west → 180 and -180 → east).
    /// Longitudes are compared as numbers: a point stored at -180 is not in a box ending at 180.
    public func inBox(
        south: Double, west: Double, north: Double, east: Double, tieOrder: TieOrder = { $0 < $1 }
    ) throws(GeoError) -> [UInt32] {
        let southWest = try Coordinate(latitude: south, longitude: west)
        let northEast = try Coordinate(latitude: north, longitude: east)
        guard south <= north else { throw .invalidBox(south: south, north: north) }
        var found: [UInt32] = []
        let crosses = west > east
        for range in slots(inBoxSouth: southWest.latitude, west: west, north: northEast.latitude, east: east) {
            for slot in range.start..<range.end {
                let point = stored[slot]
                guard point.latitude >= south, point.latitude <= north else { continue }
                let inside =
                    crosses
                    ? (point.longitude >= west || point.longitude <= east)
                    : (point.longitude >= west && point.longitude <= east)
                if inside { found.append(handles[slot]) }
            }
        }
        found.sort(by: tieOrder)
        return found
    }
}
