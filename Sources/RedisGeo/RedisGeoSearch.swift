/// A Redis 7.0 GEO search (GEOSEARCH, GEORADIUS and their BYMEMBER forms) over a sorted set,
/// answering with exactly Redis's members in exactly Redis's order.
///
/// Redis does not test every member. It picks a cell size from the radius, takes the cell holding the
/// centre and its eight neighbours, drops neighbours that lie wholly outside the bounding box, and
/// tests only the members of the remaining cells (`geohashCalculateAreasByShapeWGS84`,
/// `membersOfAllNeighbors`). This type does the same, so it also reproduces what that scheme misses:
/// a member outside the nine cells is never reported, even inside the shape. The case that matters
/// is a member stored at longitude 180 or latitude 85.05112878, whose score carries past 52 bits
/// (see `GeoHash.encode`): it lies in no cell computed from a centre off that edge. (In 400,000
/// random trials with other members the nine cells always covered the shape.)
///
/// Without ASC/DESC the reply is in scan order: the centre cell, then north, south, east, west,
/// north-east, north-west, south-east, south-west; inside a cell, by score and then member bytes.
///
/// ```swift
/// let search = try RedisGeoSearch(longitude: 15, latitude: 37, shape: .radius(200, unit: .kilometers))
/// let matches = try search.matches(in: entries, order: .ascending, count: .first(3))
/// ```
public struct RedisGeoSearch: Sendable, Hashable {
    /// The centre, degrees: FROMLONLAT as given, or FROMMEMBER's decoded position.
    public let longitude: Double
    public let latitude: Double
    /// The area searched.
    public let shape: RedisGeoShape
    /// The bounding box Redis computes for the shape, degrees (Redis `geohashBoundingBox`). Its
    /// longitudes may pass ±180 and its latitudes ±85.05.
    public let boundingBox: GeoHashCell.Bounds
    /// The nine cells in Redis's scan order (centre, N, S, E, W, NE, NW, SE, SW), nil for the
    /// neighbours Redis prunes. All have the same step.
    public let cells: [GeoHashCell?]
    /// The centre, prepared for many distances.
    let centre: RedisGeo.DistanceFrom

    /// Order of the reply (ASC, DESC or neither).
    public enum Order: Sendable, Hashable {
        /// Scan order (see the type's discussion), unless a COUNT without ANY forces `ascending`.
        case unsorted
        /// Nearest first (ASC).
        case ascending
        /// Farthest first (DESC).
        case descending
    }

    /// How many members to return (COUNT).
    public enum Count: Sendable, Hashable {
        /// No COUNT.
        case all
        /// COUNT n: the n nearest (the n farthest with DESC); without an order, nearest first.
        case first(Int)
        /// COUNT n ANY: stop scanning once n members matched, then order those if asked.
        case any(Int)
    }

    /// Prepares a search: validates it and computes the cells to scan.
    ///
    /// - Parameters:
    ///   - longitude: the centre, degrees, -180...180.
    ///   - latitude: the centre, degrees, -85.05112878...85.05112878.
    ///   - shape: the radius or box, in its unit; sizes must be 0 or more (+infinity allowed).
    /// - Throws: `RedisGeoError.outsideRange` for the centre, `RedisGeoError.negativeSize` for a
    ///   negative or NaN size (Redis: `RedisGeoMessage.negativeRadius` / `negativeBox`).
    public init(longitude: Double, latitude: Double, shape: RedisGeoShape) throws(RedisGeoError) {
        guard GeoHash.isEncodable(longitude: longitude, latitude: latitude) else {
            throw .outsideRange(longitude: longitude, latitude: latitude)
        }
        for size in shape.sizes where size.isNaN || size < 0 { throw .negativeSize(size) }
        self.longitude = longitude
        self.latitude = latitude
        self.shape = shape
        centre = RedisGeo.DistanceFrom(longitude: longitude, latitude: latitude)
        let box = Self.boundingBox(longitude: longitude, latitude: latitude, shape: shape)
        boundingBox = box
        cells = Self.cells(longitude: longitude, latitude: latitude, shape: shape, box: box)
    }

    /// The step (bits per axis) of the scanned cells.
    public var step: UInt8 { cells[0]?.step ?? GeoHash.maximumStep }

    /// The distance in meters from the centre to a member's decoded position if the position is in
    /// the shape, else nil (Redis `geoAppendIfWithinShape`). Says nothing about whether the scan
    /// reaches the member: see `matches(in:order:count:)`.
    public func distanceIfInside(longitude pointLongitude: Double, latitude pointLatitude: Double) -> Double? {
        switch shape {
        case .radius(let radius, let unit):
            let distance = centre.distance(longitude: pointLongitude, latitude: pointLatitude)
            return distance > radius * unit.metersPerUnit ? nil : distance
        case .box(let width, let height, let unit):
            return RedisGeo.distanceIfInRectangle(
                widthMeters: width * unit.metersPerUnit, heightMeters: height * unit.metersPerUnit,
                centerLongitude: longitude, centerLatitude: latitude, longitude: pointLongitude,
                latitude: pointLatitude)
        }
    }

    /// Runs the search over a sorted set.
    ///
    /// - Parameters:
    ///   - entries: the members of the GEO key in sorted-set order: by score, then by member bytes
    ///     (see `RedisGeoEntry.precedes(_:)` for string members). Other orders give wrong results.
    ///   - order: ASC, DESC or neither.
    ///   - count: COUNT n, COUNT n ANY or no COUNT.
    /// - Returns: the members Redis replies with, in its order, with their distances in meters.
    /// - Throws: `RedisGeoError.invalidCount` for a COUNT below 1 (Redis: `RedisGeoMessage.countNotPositive`).
    public func matches<Member: Sendable>(
        in entries: [RedisGeoEntry<Member>], order: Order = .unsorted, count: Count = .all
    ) throws(RedisGeoError) -> [RedisGeoMatch<Member>] {
        // Sorted-set order is position order, so positions break score ties.
        try hits(candidates: entries.map(\.score), order: order, count: count, membersPrecede: { $0 < $1 }).map {
            hit in
            RedisGeoMatch(
                member: entries[hit.position].member, score: hit.score, longitude: hit.longitude,
                latitude: hit.latitude, distanceMeters: hit.distanceMeters)
        }
    }

    /// Runs the search over candidate members given by their scores, in any order, and answers
    /// with positions in `candidates`: what `matches(in:order:count:)` answers for a sorted set
    /// holding (at least) every member the search can report.
    ///
    /// A member counts once for each scanned cell that holds it, as in Redis. When the reply is
    /// ordered by distance and no two distances are equal, that order alone decides the reply and
    /// one sort gives it; otherwise the members are put in Redis's scan order (cell, score, member
    /// bytes) and sorted with Redis's own algorithms, so ties come out as in Redis.
    ///
    /// - Parameters:
    ///   - candidates: the members' scores, in any order.
    ///   - membersPrecede: whether the member at one position comes before the one at another in
    ///     sorted-set order (Redis compares member bytes with `memcmp`); asked only for equal scores.
    ///   - centres: empty, or position for position with `candidates`, the decoded position of
    ///     each score (`GeoHash.scoreAndCentre`, to the bit `GeoHash.decode(score:)`): then not
    ///     decoded again.
    ///   - estimating: whether the hits' distances may be estimates (`RedisGeoHit.distanceError`
    ///     says how close); the members and their order are Redis's either way. Distances are
    ///     estimated without trigonometric calls where the points are near (see
    ///     `RedisGeo.DistanceFrom.estimate`), and computed exactly wherever an estimate could
    ///     change a decision: a member near the edge of the shape, two members with distances too
    ///     close to order, a sort that has to reproduce Redis's handling of ties.
    /// - Throws: `RedisGeoError.invalidCount` for a COUNT below 1.
    public func hits(
        candidates: [Double], centres: [(longitude: Double, latitude: Double)] = [], order: Order = .unsorted,
        count: Count = .all, membersPrecede: (Int, Int) -> Bool, estimating: Bool = false
    ) throws(RedisGeoError) -> [RedisGeoHit] {
        precondition(centres.isEmpty || centres.count == candidates.count, "a centre for each candidate")
        var limit = 0
        var any = false
        switch count {
        case .all: break
        case .first(let value), .any(let value):
            guard value > 0 else { throw .invalidCount(value) }
            limit = value
            any = { if case .any = count { return true } else { return false } }()
        }
        var (found, cellOfHit, repeated) = collect(candidates, centres: centres, estimating: estimating)
        let sortOrder = (limit != 0 && order == .unsorted && !any) ? Order.ascending : order
        // Redis sorts the whole reply with a stable merge sort (equal distances stay in scan order)
        // unless COUNT cuts it, and its partial sort is not stable.
        let stable = !repeated && (limit == 0 || found.count <= limit)
        if sortOrder != .unsorted && !any {
            if limit != 0, found.count > limit, found.count <= PackedDistanceSort.maximumCount {
                // COUNT cuts the reply: only the first `limit` need ordering.
                if let first = Self.firstIfDistinct(found, count: limit, descending: sortOrder == .descending) {
                    return first
                }
            } else if let sorted = Self.sortedIfDistinct(
                found, descending: sortOrder == .descending, samePlaceTies: stable, membersPrecede: membersPrecede)
            {
                found = sorted
                if limit != 0, found.count > limit { found.removeSubrange(limit...) }
                return found
            }
        }
        // COUNT n ANY keeps the first n in scan order, which lie in the first cells: only those
        // cells' hits are put in order (the scan order of a subset is its order in the whole).
        if any, found.count > limit {
            (found, cellOfHit) = Self.inFirstCells(
                found, cells: cellOfHit, cellCount: scannedRanges.count, holding: limit)
        }
        // Redis's scan order: by cell, then sorted-set order within the cell.
        let scores = found.map(\.score)
        let hits = found
        let packed = scores.withUnsafeBufferPointer { scores in
            cellOfHit.withUnsafeBufferPointer { cells in
                ScanOrderSort.order(
                    scores: scores, cells: cells, cellMinimums: scannedRanges.map(\.minimum),
                    membersPrecede: { membersPrecede(hits[$0].position, hits[$1].position) })
            }
        }
        var scanOrder: [Int]
        if let packed {
            scanOrder = packed
        } else {
            scanOrder = Array(found.indices)
            scanOrder.sort { a, b in
                if cellOfHit[a] != cellOfHit[b] { return cellOfHit[a] < cellOfHit[b] }
                if found[a].score != found[b].score { return found[a].score < found[b].score }
                return membersPrecede(found[a].position, found[b].position)
            }
        }
        found = scanOrder.map { found[$0] }
        // COUNT n ANY: Redis stops scanning once n members matched.
        if any, found.count > limit { found.removeSubrange(limit...) }
        // Redis's own sorts decide ties below: they compare the exact distances (of the members
        // kept: the scan order does not depend on distances).
        if sortOrder != .unsorted {
            for index in found.indices where found[index].distanceError != 0 {
                found[index].distanceMeters = exactDistance(found[index])
                found[index].distanceError = 0
            }
        }
        let returned = (limit == 0 || found.count < limit) ? found.count : limit
        if sortOrder != .unsorted {
            let descending = sortOrder == .descending
            let compare = { (a: RedisGeoHit, b: RedisGeoHit) -> Int in
                let ascending: Int =
                    a.distanceMeters > b.distanceMeters ? 1 : (a.distanceMeters == b.distanceMeters ? 0 : -1)
                return descending ? -ascending : ascending
            }
            if returned == found.count {
                GlibcMergeSort.sort(&found, by: compare)
            } else {
                RedisPartialSort.sort(&found, lower: 0, upper: returned - 1, by: compare)
            }
        }
        if found.count > returned { found.removeSubrange(returned...) }
        return found
    }

    /// Redis's distance from the centre to a hit's position, meters, computed exactly.
    public func exactDistance(_ hit: RedisGeoHit) -> Double {
        centre.distance(longitude: hit.longitude, latitude: hit.latitude)
    }

    /// The hits sorted by distance when every distance differs from every other by more than
    /// their errors (and none is NaN), so that any correct sort gives Redis's order; nil otherwise.
    ///
    /// - Parameters:
    ///   - samePlaceTies: whether hits of the same score may tie (for a sort that keeps equal
    ///     distances in scan order, over hits each found once): they are the same decoded
    ///     position, so their distances are equal to the bit, and within their cell Redis scans
    ///     them by member; they are put in that order.
    ///   - membersPrecede: whether the member at one position precedes another in sorted-set order.
    private static func sortedIfDistinct(
        _ hits: [RedisGeoHit], descending: Bool, samePlaceTies: Bool, membersPrecede: (Int, Int) -> Bool
    ) -> [RedisGeoHit]? {
        var tieRuns: [Range<Int>] = []
        var distinct = true
        let count = hits.count
        // Scratch: the distances and their sorted keys.
        let sorted = withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { distances -> [RedisGeoHit]? in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { keys -> [RedisGeoHit]? in
                for index in 0..<count { distances[index] = hits[index].distanceMeters }
                guard PackedDistanceSort.sortKeys(UnsafeBufferPointer(distances), descending: descending, into: keys)
                else { return nil }
                // The hits gathered in key order, each checked against the one before it as it comes.
                return hits.withUnsafeBufferPointer { hits in
                    [RedisGeoHit](unsafeUninitializedCapacity: count) { sorted, written in
                        guard let base = sorted.baseAddress else { return }
                        var runStart = 0
                        for index in 0..<count {
                            let next = hits[Int(keys[index] & PackedDistanceSort.indexMask)]
                            (base + index).initialize(to: next)
                            written = index + 1
                            guard index > 0 else { continue }
                            let previous = base[index - 1]
                            if samePlaceTies, previous.score == next.score {
                                continue
                            }
                            if index - runStart > 1 { tieRuns.append(runStart..<index) }
                            runStart = index
                            guard Self.apart(previous, next, descending: descending) else {
                                distinct = false
                                return
                            }
                        }
                        if count - runStart > 1 { tieRuns.append(runStart..<count) }
                    }
                }
            }
        }
        guard var sorted else { return sortedPairsIfDistinct(hits, descending: descending) }
        guard distinct else { return nil }
        for run in tieRuns {
            sorted[run].sort { membersPrecede($0.position, $1.position) }
        }
        return sorted
    }

    /// The `count` nearest hits (farthest when descending) in order, fewer than the hits, when
    /// their distances differ from each other and from every other hit's by more than their
    /// errors (and none is NaN): then they are exactly what Redis's partial sort puts first, in
    /// its order, whatever ties the other hits hold. Nil otherwise.
    ///
    /// Redis's partial quicksort is not stable but sorts the wanted positions correctly: with the
    /// first `count` distances strictly apart from each other and from the rest, those positions
    /// can hold nothing else.
    static func firstIfDistinct(_ hits: [RedisGeoHit], count: Int, descending: Bool) -> [RedisGeoHit]? {
        guard count > 0, count < hits.count else { return nil }
        let distances = hits.map(\.distanceMeters)
        guard
            let order = distances.withUnsafeBufferPointer({
                PackedDistanceSort.first(count, of: $0, descending: descending)
            }), let last = order.last
        else { return nil }
        return hits.withUnsafeBufferPointer { hits -> [RedisGeoHit]? in
            for index in order.indices.dropFirst() {
                let previous = hits[order[index - 1]]
                let next = hits[order[index]]
                guard Self.apart(previous, next, descending: descending) else { return nil }
            }
            var chosen = [Bool](repeating: false, count: hits.count)
            for index in order { chosen[index] = true }
            // The last one chosen against every hit left out; the comparisons fail for NaN.
            let edge = hits[last]
            if descending {
                let bound = edge.distanceMeters - edge.distanceError
                for index in hits.indices where !chosen[index] {
                    guard bound > hits[index].distanceMeters + hits[index].distanceError else { return nil }
                }
            } else {
                let bound = edge.distanceMeters + edge.distanceError
                for index in hits.indices where !chosen[index] {
                    guard hits[index].distanceMeters - hits[index].distanceError > bound else { return nil }
                }
            }
            return order.map { hits[$0] }
        }
    }

    /// Whether two hits, `next` after `previous` in the order asked for (nearest first, farthest
    /// first when `descending`), are in that order whatever their distances' errors: the farther
    /// one's least distance beyond the nearer one's greatest (false for NaN).
    @inline(__always)
    private static func apart(_ previous: RedisGeoHit, _ next: RedisGeoHit, descending: Bool) -> Bool {
        let nearer = descending ? next : previous
        let farther = descending ? previous : next
        return farther.distanceMeters - farther.distanceError > nearer.distanceMeters + nearer.distanceError
    }

    /// `sortedIfDistinct` for what `PackedDistanceSort` does not take (negative or infinite
    /// distances, more than a million hits).
    private static func sortedPairsIfDistinct(_ hits: [RedisGeoHit], descending: Bool) -> [RedisGeoHit]? {
        // Sort (distance, index) pairs: a third of the bytes of a hit to move.
        if hits.contains(where: { $0.distanceMeters.isNaN }) { return nil }
        var keys = hits.indices.map { (distance: hits[$0].distanceMeters, index: $0) }
        DistanceKeySort.sort(&keys, descending: descending)
        return keys.withUnsafeBufferPointer { keys -> [RedisGeoHit]? in
            for index in keys.indices.dropFirst() {
                let previous = hits[keys[index - 1].index]
                let next = hits[keys[index].index]
                guard Self.apart(previous, next, descending: descending) else { return nil }
            }
            return keys.map { hits[$0.index] }
        }
    }

    /// The score ranges of the cells Redis scans, in its order (`membersOfAllNeighbors`): pruned
    /// neighbours left out, and a cell equal to the one scanned just before it skipped, but never
    /// compared with the centre (Redis's "last processed" index 0 doubles as "none yet"), so a
    /// cell can be scanned twice and its members reported twice.
    var scannedRanges: [(minimum: Double, maximum: Double)] {
        var ranges: [(minimum: Double, maximum: Double)] = []
        ranges.reserveCapacity(cells.count)
        var lastProcessed = 0
        for (index, candidate) in cells.enumerated() {
            guard let cell = candidate else { continue }
            if lastProcessed != 0, cells[lastProcessed] == cell { continue }
            let range = cell.scoreRange
            ranges.append((Double(range.lowerBound), Double(range.upperBound)))
            lastProcessed = index
        }
        return ranges
    }
}
