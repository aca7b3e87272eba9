extension GridIndex {
    /// `within` over the points `keep` accepts: all of them within `radiusMeters` of `center`,
    /// nearest first, ties by `tieOrder`. Equals filtering a brute-force scan, then sorting.
    ///
    /// `keep` is called once per point inside the radius (in no particular order), never for a
    /// point outside it.
    public func within(
        radiusMeters: Double, of center: Coordinate, model: DistanceModel, limit: Int? = nil,
        tieOrder: TieOrder = { $0 < $1 }, where keep: (UInt32) -> Bool
    ) throws(GeoError) -> [GridHit] {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        if let limit, limit < 1 { throw .invalidCount(limit) }
        return try RadiusSearch.with(index: self, center: center, model: model) { search throws(GeoError) in
            var found = try search.collect(radiusMeters: radiusMeters)
            found.removeAll { !keep($0.handle) }
            var hits = search.order(found, tieOrder: tieOrder)
            if let limit, hits.count > limit { hits.removeSubrange(limit...) }
            return hits
        }
    }

    /// The `count` points nearest to `center` that `keep` accepts, however far they are (within
    /// `maxDistanceMeters` if given), nearest first, ties by `tieOrder`. Equals filtering a
    /// brute-force scan, sorting, and taking the first `count`.
    ///
    /// The search widens until `count` accepted points are found or the whole Earth is covered;
    /// `keep` may be called more than once for a point.
    public func nearest(
        _ count: Int, to center: Coordinate, model: DistanceModel, maxDistanceMeters: Double? = nil,
        tieOrder: TieOrder = { $0 < $1 }, where keep: (UInt32) -> Bool
    ) throws(GeoError) -> [GridHit] {
        guard count >= 1 else { throw .invalidCount(count) }
        if let maxDistanceMeters, !(maxDistanceMeters.isFinite && maxDistanceMeters >= 0) {
            throw .invalidRadius(maxDistanceMeters)
        }
        return try withoutActuallyEscaping(keep) { keep throws(GeoError) in
            try nearestHits(
                count, to: center, model: model, limit: maxDistanceMeters ?? .infinity, tieOrder: tieOrder, keep: keep)
        }
    }
}
