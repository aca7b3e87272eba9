import Foundation

/// One query's worth of state: the query point prepared for a distance model, and the machinery to
/// collect and order the points within a radius exactly as a brute-force scan would.
struct RadiusSearch {
    /// A candidate within the radius: its sort key (the squared chord, or the squared distance),
    /// its distance if known (`exact`: measured, or estimated once the key became the squared
    /// distance; else NaN until `order` estimates it from the key) and handle. Near ties are
    /// measured again whatever the flag says.
    struct Candidate {
        var key: Double
        var distance: Double
        var handle: UInt32
        var exact: Bool
    }

    enum Mode {
        /// Chord kernel with bounds; the exact function decides the uncertain band.
        case chord(ChordFrame, ChordBounds, exact: (Coordinate, Coordinate) -> Double, sphereRadius: Double?)
        /// Planar distance after projecting every candidate.
        case projected(ProjTransformer, x: Double, y: Double)
    }

    /// Above this plane radius (meters) a projected query visits every cell.
    static let projectedCoverLimit = 200_000.0

    /// Geodesic distances never exceed half a meridian, 20,003,931.5 m on WGS84; 20,004 km covers it.
    static let wholeEarthMeters = 20_004_000.0

    let index: GridIndex
    let center: Coordinate
    let mode: Mode

    init(index: GridIndex, center: Coordinate, model: DistanceModel, projector: ProjTransformer? = nil)
        throws(GeoError)
    {
        self.index = index
        self.center = center
        switch model {
        case .haversine(let sphere):
            mode = .chord(
                ChordFrame(center: center, equatorialRadius: sphere.radiusMeters, eccentricitySquared: 0),
                .sphere(radius: sphere.radiusMeters), exact: { sphere.distance($0, $1) },
                sphereRadius: sphere.radiusMeters)
        case .geodesic:
            mode = .chord(
                ChordFrame(
                    center: center, equatorialRadius: WGS84.equatorialRadius,
                    eccentricitySquared: WGS84.eccentricitySquared),
                .ellipsoid, exact: { Geodesic.wgs84.distance($0, $1) }, sphereRadius: nil)
        case .projected:
            guard let projector else { preconditionFailure("a projected search needs a transformer") }
            let origin = try projector.project(center)
            mode = .projected(projector, x: origin.x, y: origin.y)
        }
    }

    /// Runs `body` with a search prepared for `model`, checking a PROJ transformation out of the
    /// pool for the projected model.
    static func with<T>(
        index: GridIndex, center: Coordinate, model: DistanceModel, _ body: (inout RadiusSearch) throws(GeoError) -> T
    ) throws(GeoError) -> T {
        guard case .projected(let choice) = model else {
            var search = try RadiusSearch(index: index, center: center, model: model)
            return try body(&search)
        }
        return try ProjectionPool.shared.withTransformer(crs: choice.crs(for: center)) { projector throws(GeoError) in
            var search = try RadiusSearch(index: index, center: center, model: model, projector: projector)
            return try body(&search)
        }
    }

    /// The largest distance this model can report between two points, meters (infinite for a
    /// projection, whose plane distances are unbounded).
    var wholeEarthMeters: Double {
        switch mode {
        case .chord(_, _, _, let sphereRadius):
            return sphereRadius.map { .pi * $0 * 1.000_001 } ?? RadiusSearch.wholeEarthMeters
        case .projected: return .infinity
        }
    }

    /// Whether a query of this radius already visits every cell, so that a wider one can only find
    /// points farther away in the same cells (a projection's plane distances grow without bound).
    func visitsEveryCell(radiusMeters radius: Double) -> Bool {
        switch mode {
        case .chord(_, let bounds, _, let sphereRadius):
            let reach = radius + bounds.halfWidth(atDistance: radius)
            return reach / (sphereRadius ?? WGS84.minimumRadiusOfCurvature) >= .pi / 2
        case .projected:
            return radius > RadiusSearch.projectedCoverLimit
        }
    }

    /// Every point within `radiusMeters` (inclusive), in no particular order.
    func collect(radiusMeters radius: Double) throws(GeoError) -> [Candidate] {
        switch mode {
        case .chord(let frame, let bounds, let exact, let sphereRadius):
            // The cap in central angle on the unit sphere: the ellipsoid's smallest radius of
            // curvature turns a distance into the largest angle it can span.
            let reach = radius + bounds.halfWidth(atDistance: radius)
            let ranges = index.slots(
                inCapAround: center, angularRadius: reach / (sphereRadius ?? WGS84.minimumRadiusOfCurvature))
            return collectChord(ranges: ranges, radius: radius, frame: frame, bounds: bounds, exact: exact)
        case .projected(let projector, let x0, let y0):
            var found: [Candidate] = []
            let sigma = projectedCapAngle(radius: radius, projector: projector, x0: x0, y0: y0)
            for range in index.slots(inCapAround: center, angularRadius: sigma) {
                for slot in range.start..<range.end {
                    let point = Coordinate(unchecked: index.stored[slot].latitude, index.stored[slot].longitude)
                    // A point the CRS cannot represent is at no finite distance: never within.
                    guard let xy = try? projector.project(point) else { continue }
                    let distance = ((xy.x - x0) * (xy.x - x0) + (xy.y - y0) * (xy.y - y0)).squareRoot()
                    if distance <= radius {
                        found.append(
                            Candidate(
                                key: distance * distance, distance: distance, handle: index.handles[slot], exact: true))
                    }
                }
            }
            return found
        }
    }

    /// The hot loop: chord per candidate, bounds decide, the exact function only in the band.
    ///
    /// Branch-free on the common path: every candidate is written to the next free place and the
    /// place is kept only if it is inside, because whether a candidate is inside is a coin toss
    /// the processor cannot predict.
    private func collectChord(
        ranges: [GridIndex.SlotRange], radius: Double, frame: ChordFrame, bounds: ChordBounds,
        exact: (Coordinate, Coordinate) -> Double
    ) -> [Candidate] {
        let (accept, reject) = bounds.thresholds(radiusMeters: radius)
        let acceptEstimated = min(accept, bounds.reportableChordSquared)
        var total = 0
        for range in ranges { total += range.end - range.start }
        return [Candidate](unsafeUninitializedCapacity: total) { found, initialized in
            var kept = 0
            index.stored.withUnsafeBufferPointer { stored in
                index.handles.withUnsafeBufferPointer { handles in
                    // Every cache line of every run touched before scanning any: worth about a
                    // third of a cold query.
                    guard GridIndex.touch(ranges, stored: stored, handles: handles) else { return }
                    guard let base = found.baseAddress else { return }
                    for range in ranges {
                        for slot in range.start..<range.end {
                            let point = stored[slot]
                            let chord2 = frame.chordSquared(latitude: point.latitude, longitude: point.longitude)
                            (base + kept).initialize(
                                to: Candidate(key: chord2, distance: .nan, handle: handles[slot], exact: false))
                            kept &+= chord2 <= acceptEstimated ? 1 : 0
                            if chord2 > acceptEstimated && chord2 <= reject {
                                // Within the radius but too long to report the estimate, or in the
                                // band where only the exact distance can tell.
                                let distance = exact(center, Coordinate(unchecked: point.latitude, point.longitude))
                                if distance <= radius {
                                    base[kept] = Candidate(
                                        key: chord2, distance: distance, handle: handles[slot], exact: true)
                                    kept += 1
                                }
                            }
                        }
                    }
                }
            }
            initialized = kept
        }
    }

    /// The central angle that certainly holds every point within `radius` plane meters: the
    /// projection's smallest scale near the query, measured along 16 geodesics of length `radius`
    /// and taken 10 % smaller, bounds how far on the ellipsoid a plane distance can reach. Beyond
    /// 200 km, or where the scale is not sane, every cell is visited.
    private func projectedCapAngle(radius: Double, projector: ProjTransformer, x0: Double, y0: Double) -> Double {
        if radius > RadiusSearch.projectedCoverLimit { return .pi }
        let probe = max(radius, 100)
        var smallestScale = Double.infinity
        for step in 0..<16 {
            let point = Geodesic.wgs84.destination(from: center, bearing: Double(step) * 22.5, distanceMeters: probe)
            guard let xy = try? projector.project(point) else { return .pi }
            let plane = ((xy.x - x0) * (xy.x - x0) + (xy.y - y0) * (xy.y - y0)).squareRoot()
            smallestScale = min(smallestScale, plane / probe)
        }
        guard smallestScale.isFinite, smallestScale > 0.2 else { return .pi }
        return radius / (smallestScale * 0.9) / WGS84.minimumRadiusOfCurvature + 1e-12
    }

    /// Sorts candidates by distance, ties by `tieOrder`, resolving with the exact distance every run
    /// of estimates too close to order by their bounds.
    func order(_ candidates: [Candidate], tieOrder: TieOrder) -> [GridHit] {
        var candidates = candidates
        guard case .chord(_, let bounds, let exact, _) = mode else {
            CandidateSorter.sort(&candidates, tieOrder: tieOrder)
            return candidates.map { GridHit(handle: $0.handle, distanceMeters: $0.distance) }
        }
        // Far beyond the chord bounds' range (long queries), the squared chord no longer orders
        // points as their distances do: sort those queries by squared distance instead
        // (regression: geodesic hits 12,000 km away came out 26 km out of order).
        let bounded = bounds.boundedChordSquared
        if candidates.contains(where: { $0.exact && $0.key > bounded }) {
            for position in candidates.indices {
                if candidates[position].distance.isNaN {
                    candidates[position].distance = bounds.distanceEstimate(chordSquared: candidates[position].key)
                }
                candidates[position].key = candidates[position].distance * candidates[position].distance
                // The key is no longer a chord: the distance must not be estimated from it again.
                candidates[position].exact = true
            }
        }
        CandidateSorter.sort(&candidates, tieOrder: tieOrder)
        guard let farthest = candidates.last else { return [] }
        // Two distances closer than their combined half-widths may be in either order, and an
        // exact one may sit a half-width off its estimate: four of the largest half-width (it
        // grows with distance, and the last candidate is the farthest) is a safe gap for every pair.
        let largest = farthest.exact ? farthest.distance : bounds.distanceEstimate(chordSquared: farthest.key)
        let gap = 4 * bounds.halfWidth(atDistance: largest)
        // The estimate is a monotone function of the key, so estimates come out sorted; an exact
        // distance is within a half-width of its own estimate.
        var nearTies = false
        var hits = [GridHit](unsafeUninitializedCapacity: candidates.count) { hits, initialized in
            candidates.withUnsafeBufferPointer { candidates in
                guard let base = hits.baseAddress else { return }
                var previous = -Double.infinity
                for (position, candidate) in candidates.enumerated() {
                    let distance =
                        candidate.exact ? candidate.distance : bounds.distanceEstimate(chordSquared: candidate.key)
                    (base + position).initialize(to: GridHit(handle: candidate.handle, distanceMeters: distance))
                    nearTies = nearTies || distance - previous <= gap
                    previous = distance
                }
            }
            initialized = candidates.count
        }
        if nearTies { resolveNearTies(&hits, gap: gap, exact: exact, tieOrder: tieOrder) }
        return hits
    }

    /// Gives every run of hits closer than `gap` to one another their exact distances and orders
    /// the run by them, ties by `tieOrder`. Points at the same coordinates are at the same
    /// distance, whatever it is exactly, and the sort already ordered them by `tieOrder`.
    private func resolveNearTies(
        _ hits: inout [GridHit], gap: Double, exact: (Coordinate, Coordinate) -> Double, tieOrder: TieOrder
    ) {
        let stored = index.stored
        let slotOfHandle = index.slotOfHandle
        func point(_ hit: GridHit) -> Coordinate {
            let entry = stored[Int(slotOfHandle[Int(hit.handle)])]
            return Coordinate(unchecked: entry.latitude, entry.longitude)
        }
        hits.withUnsafeMutableBufferPointer { hits in
            var first = 0
            while first < hits.count {
                var last = first
                var coincident = true
                while last + 1 < hits.count, hits[last + 1].distanceMeters - hits[last].distanceMeters <= gap {
                    coincident = coincident && point(hits[last]) == point(hits[last + 1])
                    last += 1
                }
                if last > first && !coincident {
                    for position in first...last {
                        hits[position].distanceMeters = exact(center, point(hits[position]))
                    }
                    var run = UnsafeMutableBufferPointer(rebasing: hits[first...last])
                    run.sort {
                        $0.distanceMeters < $1.distanceMeters
                            || ($0.distanceMeters == $1.distanceMeters && tieOrder($0.handle, $1.handle))
                    }
                }
                first = last + 1
            }
        }
    }
}
