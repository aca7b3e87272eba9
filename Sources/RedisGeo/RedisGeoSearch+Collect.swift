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
            estimates = centre.batch(centres, centre.estimates)
            if isBox { alongParallels = centre.batch(centres, centre.estimatesAlongParallel) }
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
