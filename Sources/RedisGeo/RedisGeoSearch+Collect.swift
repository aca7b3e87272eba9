import CDistanceKernels

extension RedisGeoSearch {
    /// The candidates inside the shape, once per scanned cell holding them, in candidate order,
    /// with the index of that cell in the scan.
    /// `repeated`: whether a candidate was found in more than one scanned cell (and is reported
    /// more than once).
    func collect(
        _ candidates: [Double], centres: [(longitude: Double, latitude: Double)], estimating: Bool
    ) -> (found: [RedisGeoHit], cells: [Int], repeated: Bool) {
        let ranges = scannedRanges
        // Unless a cell is scanned twice, the cells do not overlap: the first holding a candidate
        // is the only one.
        let disjoint = ranges.indices.allSatisfy { first in
            ranges.indices.allSatisfy { second in
                first == second || ranges[first].maximum <= ranges[second].minimum
                    || ranges[second].maximum <= ranges[first].minimum
            }
        }
        if disjoint, estimating, !centres.isEmpty, case .radius(let radius, let unit) = shape {
            let (found, cells) = collectInRadius(
                candidates, centres: centres, ranges: ranges, limit: radius * unit.metersPerUnit)
            return (found, cells, false)
        }
        var found: [RedisGeoHit] = []
        var cellOfHit: [Int] = []
        var repeated = false
        found.reserveCapacity(candidates.count)
        cellOfHit.reserveCapacity(candidates.count)
        // The estimates, all computed before any is used (`DistanceFrom.estimates`); along the
        // parallels too for a box.
        var estimates: [Double] = []
        var alongParallels: [Double] = []
        let isBox: Bool = {
            if case .box = shape { return true }
            return false
        }()
        if estimating, !centres.isEmpty {
            estimates = centre.batch(centres) { centre.estimates($0, into: $1) }
            if isBox { alongParallels = centre.batch(centres) { centre.estimatesAlongParallel($0, into: $1) } }
        }
        let (radiusLimit, halfHeight, halfWidth): (Double, Double, Double) = {
            switch shape {
            case .radius(let radius, let unit): return (radius * unit.metersPerUnit, 0, 0)
            case .box(let width, let height, let unit):
                return (0, height * unit.metersPerUnit / 2, width * unit.metersPerUnit / 2)
            }
        }()
        for (position, score) in candidates.enumerated() {
            var inside: RedisGeoHit?
            var tested = false
            for (cell, range) in ranges.enumerated() where score >= range.minimum && score < range.maximum {
                if !tested {
                    tested = true
                    let point = centres.isEmpty ? GeoHash.decode(score: score) : centres[position]
                    if !alongParallels.isEmpty {
                        inside = estimatedBoxHit(
                            position, score, point, estimates[position], alongParallels[position],
                            halfHeight: halfHeight, halfWidth: halfWidth)
                    } else if !estimates.isEmpty {
                        inside = estimatedRadiusHit(position, score, point, estimates[position], limit: radiusLimit)
                    } else if estimating {
                        // One candidate at a time (no centres given): its estimates here.
                        let estimate = centre.estimate(longitude: point.longitude, latitude: point.latitude) ?? .nan
                        if isBox {
                            let along =
                                centre.estimateAlongParallel(longitude: point.longitude, latitude: point.latitude)
                                ?? .nan
                            inside = estimatedBoxHit(
                                position, score, point, estimate, along, halfHeight: halfHeight, halfWidth: halfWidth)
                        } else {
                            inside = estimatedRadiusHit(position, score, point, estimate, limit: radiusLimit)
                        }
                    } else {
                        inside = exactHit(position, score, point)
                    }
                }
                guard let inside else { break }
                if found.last?.position == position { repeated = true }
                found.append(inside)
                cellOfHit.append(cell)
                if disjoint { break }
            }
        }
        return (found, cellOfHit, repeated)
    }

    /// `collect` for a radius over cells that do not overlap, deciding on the distance estimates
    /// (`RedisGeo.DistanceFrom.estimates`): the candidates in a scanned cell and inside `limit`
    /// meters, with the index of that cell; in candidate order, except that those decided exactly
    /// come last (`hits` orders the hits itself, whatever order they come in).
    ///
    /// The choice is the kernel's (`vicinity_collect_in_radius`, on `level`): inside or outside on
    /// the estimate as `estimatedRadiusHit` decides, and the estimates too near the edge to decide
    /// (or none) listed to be decided exactly here, as `estimatedRadiusHit` does. Hits are made
    /// only for the candidates kept.
    ///
    /// - Parameter level: the vector unit the kernel runs on, as `VectorKernels` counts them
    ///   (negative: the preferred one; tests choose each).
    func collectInRadius(
        _ candidates: [Double], centres: [(longitude: Double, latitude: Double)],
        ranges: [(minimum: Double, maximum: Double)], limit: Double, level: Int = VectorKernels.preferred
    ) -> (found: [RedisGeoHit], cells: [Int]) {
        precondition(centres.count == candidates.count, "a centre for each candidate")
        let count = candidates.count
        // The ranges that hold anything, by lower bound: a score can only lie in the last of them
        // whose lower bound it reaches (they do not overlap), found by counting, not searching.
        var byMinimum = ranges.indices.filter { ranges[$0].minimum < ranges[$0].maximum }
        guard !byMinimum.isEmpty, count > 0 else { return ([], []) }
        precondition(count < 1 << 32, "\(count) candidates")
        byMinimum.sort { ranges[$0].minimum < ranges[$1].minimum }
        let occupied = byMinimum.count
        let bound = RedisGeo.DistanceFrom.estimateRelativeError
        // Scratch: the ranges' bounds and the estimates kept; the kept and undecided candidates
        // and their ranges' slots.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * occupied + count) { doubles in
            let minimums = doubles.baseAddress!
            let maximums = minimums + occupied
            let estimates = maximums + occupied
            for (slot, range) in byMinimum.enumerated() {
                minimums[slot] = ranges[range].minimum
                maximums[slot] = ranges[range].maximum
            }
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * count) { words in
                let kept = words.baseAddress!
                let keptSlots = kept + count
                let undecided = keptSlots + count
                let undecidedSlots = undecided + count
                var undecidedCount = 0
                let filter = vicinity_radius_filter(
                    minimums: minimums, maximums: maximums, occupied: occupied, limit: limit, relativeError: bound)
                let keptCount = centre.collectInRadius(
                    filter, scores: candidates, centres: centres, level: level, kept: kept,
                    keptEstimates: estimates, keptSlots: keptSlots, undecided: undecided,
                    undecidedSlots: undecidedSlots, undecidedCount: &undecidedCount)
                var found = [RedisGeoHit](unsafeUninitializedCapacity: keptCount + undecidedCount) { found, made in
                    guard let base = found.baseAddress else { return }
                    candidates.withUnsafeBufferPointer { candidates in
                        centres.withUnsafeBufferPointer { centres in
                            for index in 0..<keptCount {
                                let position = Int(kept[index])
                                let point = centres[position]
                                let estimate = estimates[index]
                                (base + index).initialize(
                                    to: RedisGeoHit(
                                        position: position, score: candidates[position], longitude: point.longitude,
                                        latitude: point.latitude, distanceMeters: estimate,
                                        distanceError: estimate * bound))
                            }
                        }
                    }
                    made = keptCount
                }
                var cells = [Int](unsafeUninitializedCapacity: keptCount + undecidedCount) { cells, made in
                    for index in 0..<keptCount { cells[index] = byMinimum[Int(keptSlots[index])] }
                    made = keptCount
                }
                for index in 0..<undecidedCount {
                    let position = Int(undecided[index])
                    guard let hit = exactHit(position, candidates[position], centres[position]) else { continue }
                    found.append(hit)
                    cells.append(byMinimum[Int(undecidedSlots[index])])
                }
                return (found, cells)
            }
        }
    }

    /// The hit for a decoded position if it is in the shape, with its exact distance.
    private func exactHit(_ position: Int, _ score: Double, _ point: (longitude: Double, latitude: Double))
        -> RedisGeoHit?
    {
        guard let distance = distanceIfInside(longitude: point.longitude, latitude: point.latitude) else {
            return nil
        }
        return RedisGeoHit(
            position: position, score: score, longitude: point.longitude, latitude: point.latitude,
            distanceMeters: distance)
    }

    /// The hit for a decoded position in a radius of `limit` meters, given its distance estimate
    /// (NaN: none): with the estimate as its distance when the estimate decides, else `exactHit`.
    @inline(__always)
    private func estimatedRadiusHit(
        _ position: Int, _ score: Double, _ point: (longitude: Double, latitude: Double), _ estimate: Double,
        limit: Double
    ) -> RedisGeoHit? {
        guard !estimate.isNaN else { return exactHit(position, score, point) }
        let error = estimate * RedisGeo.DistanceFrom.estimateRelativeError
        if estimate - error > limit { return nil }
        guard estimate + error <= limit else { return exactHit(position, score, point) }
        return RedisGeoHit(
            position: position, score: score, longitude: point.longitude, latitude: point.latitude,
            distanceMeters: estimate, distanceError: error)
    }

    /// The same for a box of half sides `halfHeight` and `halfWidth` meters, given the point's
    /// estimates (NaN: none) of the distance and of the distance along its parallel.
    @inline(__always)
    private func estimatedBoxHit(
        _ position: Int, _ score: Double, _ point: (longitude: Double, latitude: Double), _ estimate: Double,
        _ along: Double, halfHeight: Double, halfWidth: Double
    ) -> RedisGeoHit? {
        let bound = RedisGeo.DistanceFrom.estimateRelativeError
        // Redis `geohashGetDistanceIfInRectangle`: the meridian test is exact and cheap.
        guard RedisGeo.latitudeDistance(point.latitude, latitude) <= halfHeight else { return nil }
        guard !along.isNaN, !estimate.isNaN else { return exactHit(position, score, point) }
        let alongError = along * bound
        if along - alongError > halfWidth { return nil }
        guard along + alongError <= halfWidth else { return exactHit(position, score, point) }
        return RedisGeoHit(
            position: position, score: score, longitude: point.longitude, latitude: point.latitude,
            distanceMeters: estimate, distanceError: estimate * bound)
    }

    /// The hits of the first scanned cells that together hold at least `count` of them (all of
    /// the last such cell's), with their cells, in their order: where the first `count` hits in
    /// scan order lie, since the scan goes cell by cell. All the hits when the cells hold fewer.
    ///
    /// - Parameters:
    ///   - hits: the hits, in any order.
    ///   - cells: hit for hit, the index of the scanned cell it was found in (0 ..< `cellCount`).
    ///   - cellCount: the number of scanned cells.
    ///   - count: how many hits the first cells must hold (COUNT n ANY's n).
    /// - Returns: the hits kept and their cells, in their order in `hits`.
    static func inFirstCells(
        _ hits: [RedisGeoHit], cells: [Int], cellCount: Int, holding count: Int
    ) -> ([RedisGeoHit], [Int]) {
        precondition(cells.count == hits.count, "a cell for each hit")
        var perCell = [Int](repeating: 0, count: cellCount)
        for cell in cells { perCell[cell] += 1 }
        var cut = 0
        var held = 0
        while cut < cellCount {
            held += perCell[cut]
            if held >= count { break }
            cut += 1
        }
        // The last cell reached (or none reached `count`): every hit is kept.
        guard cut < cellCount - 1 else { return (hits, cells) }
        var keptHits: [RedisGeoHit] = []
        var keptCells: [Int] = []
        keptHits.reserveCapacity(held)
        keptCells.reserveCapacity(held)
        for (hit, cell) in zip(hits, cells) where cell <= cut {
            keptHits.append(hit)
            keptCells.append(cell)
        }
        return (keptHits, keptCells)
    }
}
