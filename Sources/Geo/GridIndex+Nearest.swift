import Foundation

extension GridIndex {
    /// The nearest-N search behind both `nearest` methods: the `count` points nearest to `center`
    /// that `keep` accepts (all when nil), within `limit` meters, nearest first, ties by
    /// `tieOrder`.
    ///
    /// The first radius should hold `count` points at the density of the query's cell. When it
    /// does not, wider radii are tried cell by cell, nearest first (`RadiusSearch.nearestPlan`),
    /// so a query far from a dense cluster reads the cells near its answer rather than the whole
    /// cluster (regression: `NEAREST` 300 km from a million places took 1.3 s, 10,000 km away
    /// 2.5 s, measuring each place).
    func nearestHits(
        _ count: Int, to center: Coordinate, model: DistanceModel, limit: Double, tieOrder: TieOrder,
        keep: ((UInt32) -> Bool)?
    ) throws(GeoError) -> [GridHit] {
        let cellArea = cellSizeMeters * cellSizeMeters
        let local = location(of: center).map { Double(rows[$0.row][$0.position].count) } ?? 0
        var radius = local > 0 ? (Double(count) * cellArea / (.pi * local)).squareRoot() * 1.2 : cellSizeMeters
        return try RadiusSearch.with(index: self, center: center, model: model) { search throws(GeoError) in
            let farthest = min(limit, search.wholeEarthMeters)
            radius = min(radius, farthest)
            func collected(at radius: Double) throws(GeoError) -> [RadiusSearch.Candidate] {
                var found = try search.collect(radiusMeters: radius)
                if let keep { found.removeAll { !keep($0.handle) } }
                return found
            }
            func ordered(_ found: [RadiusSearch.Candidate]) -> [GridHit] {
                var hits = search.order(found, tieOrder: tieOrder)
                if hits.count > count { hits.removeSubrange(count...) }
                return hits
            }
            var first = true
            while true {
                var possible: Int
                if !first, let plan = search.nearestPlan(count: count, within: radius, limit: farthest, keep: keep) {
                    switch plan {
                    case .holding(let bounding): return ordered(try collected(at: min(bounding, farthest)))
                    case .measured(let found): return ordered(found)
                    case .short(let found): possible = found
                    }
                    if radius >= farthest { return ordered(try collected(at: farthest)) }
                } else {
                    let found = try collected(at: radius)
                    if found.count >= count || radius >= farthest { return ordered(found) }
                    possible = found.count
                }
                first = false
                if search.visitsEveryCell(radiusMeters: radius) {
                    // Every cell was read: the rest can only be farther, so take them all at once
                    // (regression: a projected query doubled its radius ~1,000 times to infinity).
                    radius = farthest
                    continue
                }
                let growth =
                    possible == 0 ? 4 : min(1_000, max(2, (Double(count) / Double(possible)).squareRoot() * 1.3))
                radius = min(farthest, radius * growth)
            }
        }
    }
}
