import Foundation

extension RadiusSearch {
    /// What `nearestPlan` found.
    enum NearestPlan {
        /// At least the number asked for lie within this many meters: collect there.
        case holding(Double)
        /// The answer's candidates, every one measured exactly: all points within the limit or
        /// the bounding radius, whichever is smaller.
        case measured([Candidate])
        /// Fewer than asked may lie within the radius searched: at most this many.
        case short(Int)
    }

    /// How `count` points nearest to the query that `keep` accepts are best found, from the
    /// cells within `radius` alone.
    ///
    /// Cells are taken nearest first by a lower bound on their chords, keeping the `count`
    /// shortest chords seen, until the next cell's bound is beyond the longest kept: so only the
    /// cells near those points are read, however many points the radius holds. The largest upper
    /// bound on the kept points' distances is a radius certain to hold `count` points. Up to
    /// `ChordBounds.maximumChord`, or on a sphere, collecting there is cheap (`.holding`).
    /// Beyond it, on the ellipsoid, the chord tells the distance only to within 0.3 %, so each
    /// run of neighbouring cells that may reach the radius, then each of its cells, gets one exact
    /// distance, and only the points of cells that this and the cell's size cannot rule out are
    /// measured (`.measured`).
    ///
    /// Nil for a projected search, whose distances come only from projecting every point.
    func nearestPlan(count: Int, within radius: Double, limit: Double, keep: ((UInt32) -> Bool)?) -> NearestPlan? {
        guard case .chord(let frame, let bounds, let exact, let sphereRadius) = mode else { return nil }
        let reject = bounds.thresholds(radiusMeters: radius).reject
        var cells = boundedCells(
            radius: radius, frame: frame, bounds: bounds, sphereRadius: sphereRadius, below: reject)
        let total = cells.reduce(0) { $0 + Int($1.cell.count) }
        guard total >= count else { return .short(total) }
        cells.sort { $0.chordSquared < $1.chordSquared }
        var heap = ChordHeap(capacity: count)
        var possible = 0
        index.stored.withUnsafeBufferPointer { stored in
            for cell in cells {
                if heap.isFull, cell.chordSquared > heap.longest { break }
                for slot in Int(cell.cell.start)..<Int(cell.cell.start + cell.cell.count) {
                    let chord2 = frame.chordSquared(latitude: stored[slot].latitude, longitude: stored[slot].longitude)
                    guard chord2 <= reject, heap.admits(chord2) else { continue }
                    if let keep, !keep(index.handles[slot]) { continue }
                    possible += 1
                    heap.insert(ChordKey(chordSquared: chord2, slot: UInt32(slot)))
                }
            }
        }
        guard heap.isFull else { return .short(possible) }
        var bounding = 0.0
        var measured: [UInt32: Double] = [:]
        for key in heap.keys {
            let upper: Double
            if key.chordSquared <= bounds.boundedChordSquared {
                let estimate = bounds.estimate(chord: key.chordSquared.squareRoot())
                upper = estimate.distance + estimate.halfWidth
            } else {
                upper = exact(center, point(at: Int(key.slot)))
                measured[key.slot] = upper
            }
            bounding = max(bounding, upper)
        }
        let cutoff = min(bounding, limit)
        guard sphereRadius == nil, cutoff > ChordBounds.maximumChord else { return .holding(bounding) }
        return .measured(
            measuredWithin(cutoff, frame: frame, bounds: bounds, exact: exact, known: measured, keep: keep))
    }

    /// A cell of a cover with a lower bound on its squared chord from the query (m²).
    struct BoundedCell {
        var chordSquared: Double
        var cell: GridIndex.CoverCell
    }

    /// The occupied cells that may hold a point within `radius`, whose chords' lower bound is at
    /// most `below`, in the cover's order.
    private func boundedCells(
        radius: Double, frame: ChordFrame, bounds: ChordBounds, sphereRadius: Double?, below: Double
    ) -> [BoundedCell] {
        let reach = radius + bounds.halfWidth(atDistance: radius)
        let cover = index.cells(
            inCapAround: center, angularRadius: reach / (sphereRadius ?? WGS84.minimumRadiusOfCurvature))
        var found: [BoundedCell] = []
        var row = -1
        var band = ChordFrame.Band(pLow: 0, pHigh: 0, zLow: 0, zHigh: 0)
        var width = 0.0
        for cell in cover {
            if Int(cell.row) != row {
                row = Int(cell.row)
                let south = index.layout.south(row: row)
                band = frame.band(south: south, north: south + index.layout.rowHeight)
                width = index.layout.columnWidth(row: row)
            }
            let west = -180 + Double(cell.column) * width
            let chord2 = frame.lowerBoundChordSquared(band: band, west: west, east: west + width)
            if chord2 <= below { found.append(BoundedCell(chordSquared: chord2, cell: cell)) }
        }
        return found
    }

    /// Every point within `radius` that `keep` accepts, measured exactly.
    ///
    /// Runs of up to `runColumns` neighbouring cells of a row, then each of their cells, are first
    /// judged by one exact distance and their size: when that distance less the run's (or cell's)
    /// largest geodesic is beyond the radius, none of its points is measured.
    ///
    /// - Parameter known: exact distances already measured, by slot.
    private func measuredWithin(
        _ radius: Double, frame: ChordFrame, bounds: ChordBounds, exact: (Coordinate, Coordinate) -> Double,
        known: [UInt32: Double], keep: ((UInt32) -> Bool)?
    ) -> [Candidate] {
        func measure(_ slot: Int) -> Double { known[UInt32(slot)] ?? exact(center, point(at: slot)) }
        let reject = bounds.thresholds(radiusMeters: radius).reject
        let candidates = boundedCells(radius: radius, frame: frame, bounds: bounds, sphereRadius: nil, below: reject)
        var found: [Candidate] = []
        /// Whether a group of points within `chord` of one another, one of them at `pivot`, may
        /// reach the radius.
        func mayReach(pivot: Double, chord: Double) -> Bool {
            guard chord <= ChordBounds.maximumChord else { return true }
            let size = bounds.estimate(chord: chord)
            return pivot - (size.distance + size.halfWidth) <= radius
        }
        var position = 0
        while position < candidates.count {
            let row = Int(candidates[position].cell.row)
            let south = index.layout.south(row: row)
            let band = frame.band(south: south, north: south + index.layout.rowHeight)
            let width = index.layout.columnWidth(row: row)
            let cellChord = frame.largestChord(band: band, width: width)
            // The row's cells that may reach the radius, in the cover's order.
            var cells: [GridIndex.CoverCell] = []
            while position < candidates.count, Int(candidates[position].cell.row) == row {
                cells.append(candidates[position].cell)
                position += 1
            }
            var first = 0
            while first < cells.count {
                var end = first + 1
                // A cover crossing ±180° lists a row's last columns before its first ones: a run ends
                // where the columns turn back.
                while end < cells.count, cells[end].column > cells[end - 1].column,
                    cells[end].column - cells[first].column < RadiusSearch.runColumns
                {
                    end += 1
                }
                let span = Double(cells[end - 1].column - cells[first].column + 1) * width
                let runPivot = measure(Int(cells[first].start))
                defer { first = end }
                if end - first > 1, !mayReach(pivot: runPivot, chord: frame.largestChord(band: band, width: span)) {
                    continue
                }
                for (offset, cell) in cells[first..<end].enumerated() {
                    let start = Int(cell.start)
                    let pivot = offset == 0 ? runPivot : measure(start)
                    guard mayReach(pivot: pivot, chord: cellChord) else { continue }
                    for slot in start..<start + Int(cell.count) {
                        let handle = index.handles[slot]
                        if let keep, !keep(handle) { continue }
                        let distance = slot == start ? pivot : measure(slot)
                        if distance <= radius {
                            found.append(
                                Candidate(key: distance * distance, distance: distance, handle: handle, exact: true))
                        }
                    }
                }
            }
        }
        return found
    }

    /// The most neighbouring cells of a row that `measuredWithin` judges together.
    static let runColumns: Int32 = 16

    @inline(__always)
    private func point(at slot: Int) -> Coordinate {
        Coordinate(unchecked: index.stored[slot].latitude, index.stored[slot].longitude)
    }
}
