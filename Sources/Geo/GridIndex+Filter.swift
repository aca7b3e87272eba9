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
        let limit = maxDistanceMeters ?? .infinity
        let cellArea = cellSizeMeters * cellSizeMeters
        let local = location(of: center).map { Double(rows[$0.row][$0.position].count) } ?? 0
        var radius = local > 0 ? (Double(count) * cellArea / (.pi * local)).squareRoot() * 1.2 : cellSizeMeters
        return try RadiusSearch.with(index: self, center: center, model: model) { search throws(GeoError) in
            let farthest = min(limit, search.wholeEarthMeters)
            radius = min(radius, farthest)
            while true {
                var found = try search.collect(radiusMeters: radius)
                found.removeAll { !keep($0.handle) }
                if found.count >= count || radius >= farthest {
                    var hits = search.order(found, tieOrder: tieOrder)
                    if hits.count > count { hits.removeSubrange(count...) }
                    return hits
                }
                if search.visitsEveryCell(radiusMeters: radius) {
                    radius = farthest
                    continue
                }
                // Grow the area by what is missing, judged by the points kept so far; none kept yet:
                // by 16. Overshooting costs more than a second look: every point kept is ordered,
                // and ordering measures exact distances.
                let growth =
                    found.isEmpty
                    ? 4 : min(1_000, max(1.25, (Double(count) / Double(found.count)).squareRoot() * 1.2))
                radius = min(farthest, radius * growth)
            }
        }
    }
}
