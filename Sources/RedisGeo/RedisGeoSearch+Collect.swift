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
            let estimates = centre.batch(centres) { centre.estimates($0, into: $1) }
            let (found, cells) = collectInRadius(
                candidates, centres: centres, estimates: estimates, ranges: ranges, limit: radius * unit.metersPerUnit)
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

    /// `collect` for a radius over cells that do not overlap, given every candidate's estimate
    /// (`DistanceFrom.estimates`): the candidates in a scanned cell and inside `limit` meters,
    /// with the index of that cell; in candidate order, except that those decided exactly come
    /// last (`hits` orders the hits itself, whatever order they come in).
    ///
    /// Inside or outside, decided on the estimate (as `estimatedRadiusHit` decides), and in a
    /// cell or not are computed as numbers, not branched on: whether a candidate is kept is as
    /// good as random (those in the cover's corners fall outside), and a mispredicted branch per
    /// candidate would cost more than the test. Each candidate is written to the next place and
    /// the count advanced only past those kept. The estimates too near the edge to decide (or
    /// none) are noted the same way and decided exactly after, as `estimatedRadiusHit` does.
    private func collectInRadius(
        _ candidates: [Double], centres: [(longitude: Double, latitude: Double)], estimates: [Double],
        ranges: [(minimum: Double, maximum: Double)], limit: Double
    ) -> (found: [RedisGeoHit], cells: [Int]) {
        let count = candidates.count
        // The ranges that hold anything, by lower bound: a score can only lie in the last of them
        // whose lower bound it reaches (they do not overlap), found by counting, not searching.
        var byMinimum = ranges.indices.filter { ranges[$0].minimum < ranges[$0].maximum }
        guard !byMinimum.isEmpty else { return ([], []) }
        byMinimum.sort { ranges[$0].minimum < ranges[$1].minimum }
        let occupied = byMinimum.count
        var cells = [Int](repeating: -1, count: count)
        var undecidedCount = 0
        // Scratch for the loop: the ranges' bounds, and the candidates no estimate decides.
        let found = withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * occupied) { bounds in
            let minimums = bounds.baseAddress!
            let maximums = minimums + occupied
            for (slot, range) in byMinimum.enumerated() {
                minimums[slot] = ranges[range].minimum
                maximums[slot] = ranges[range].maximum
            }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { undecided in
                var found = [RedisGeoHit](unsafeUninitializedCapacity: count) { found, foundCount in
                    guard let base = found.baseAddress else { return }
                    var kept = 0
                    cells.withUnsafeMutableBufferPointer { cells in
                        byMinimum.withUnsafeBufferPointer { byMinimum in
                            candidates.withUnsafeBufferPointer { candidates in
                                centres.withUnsafeBufferPointer { centres in
                                    estimates.withUnsafeBufferPointer { estimates in
                                        for position in 0..<count {
                                            let score = candidates[position]
                                            // The scanned cell holding the score (at most one), or -1.
                                            var reached = 0
                                            for slot in 0..<occupied { reached &+= Self.bit(score >= minimums[slot]) }
                                            let slot = max(reached - 1, 0)
                                            let inCell = Self.bit(reached > 0) & Self.bit(score < maximums[slot])
                                            let cell = (byMinimum[slot] + 1) * inCell - 1
                                            let point = centres[position]
                                            let estimate = estimates[position]
                                            let error = estimate * RedisGeo.DistanceFrom.estimateRelativeError
                                            let inside = Self.bit(estimate + error <= limit)
                                            // Neither inside nor outside on the estimate (near the edge, or NaN).
                                            let open = 1 &- (inside | Self.bit(estimate - error > limit))
                                            undecided[undecidedCount] = position
                                            undecidedCount &+= open & Self.bit(cell >= 0)
                                            (base + kept).initialize(
                                                to: RedisGeoHit(
                                                    position: position, score: score, longitude: point.longitude,
                                                    latitude: point.latitude, distanceMeters: estimate,
                                                    distanceError: error))
                                            cells[kept] = cell
                                            kept &+= inside & Self.bit(cell >= 0)
                                        }
                                    }
                                }
                            }
                        }
                    }
                    foundCount = kept
                }
                cells.removeSubrange(found.count...)
                for position in undecided[..<undecidedCount] {
                    let score = candidates[position]
                    guard let hit = exactHit(position, score, centres[position]) else { continue }
                    found.append(hit)
                    // Its cell again (rare): the one range holding the score.
                    cells.append(ranges.firstIndex { score >= $0.minimum && score < $0.maximum } ?? -1)
                }
                return found
            }
        }
        return (found, cells)
    }

    /// 1 for true, 0 for false, as a number the compiler does not turn back into a branch.
    @inline(__always)
    private static func bit(_ value: Bool) -> Int { Int(unsafeBitCast(value, to: UInt8.self)) }

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
}
