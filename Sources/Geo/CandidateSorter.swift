/// Sorts a query's candidates by distance, ties by a caller's order, in about linear time.
///
/// Points in a disc are spread evenly in area, so (d / r)² is roughly uniform: one bucket per
/// candidate on that scale leaves about one candidate per bucket, and each bucket is finished by
/// insertion sort (or the standard sort when large, e.g. many points at one spot).
enum CandidateSorter {
    static func sort(_ candidates: inout [RadiusSearch.Candidate], tieOrder: (UInt32, UInt32) -> Bool) {
        let count = candidates.count
        func precedes(_ left: RadiusSearch.Candidate, _ right: RadiusSearch.Candidate) -> Bool {
            left.distance < right.distance || (left.distance == right.distance && tieOrder(left.slot, right.slot))
        }
        if count < 48 {
            candidates.sort(by: precedes)
            return
        }
        var largest = 0.0
        for candidate in candidates { largest = max(largest, candidate.distance) }
        guard largest > 0 else {
            candidates.sort(by: precedes)
            return
        }
        let scale = Double(count) / (largest * largest)
        var starts = [Int32](repeating: 0, count: count + 1)
        var buckets = [Int32]()
        buckets.reserveCapacity(count)
        for candidate in candidates {
            // Monotone in the distance, so buckets come out in distance order.
            let bucket = min(count - 1, Int(candidate.distance * candidate.distance * scale))
            buckets.append(Int32(bucket))
            starts[bucket + 1] += 1
        }
        for bucket in 0..<count { starts[bucket + 1] += starts[bucket] }
        var next = starts
        var sorted = candidates
        for (position, candidate) in candidates.enumerated() {
            let bucket = Int(buckets[position])
            sorted[Int(next[bucket])] = candidate
            next[bucket] += 1
        }
        for bucket in 0..<count {
            let lower = Int(starts[bucket])
            let upper = Int(starts[bucket + 1])
            if upper - lower < 2 { continue }
            if upper - lower > 16 {
                sorted[lower..<upper].sort(by: precedes)
                continue
            }
            for position in (lower + 1)..<upper {
                let moving = sorted[position]
                var hole = position
                while hole > lower && precedes(moving, sorted[hole - 1]) {
                    sorted[hole] = sorted[hole - 1]
                    hole -= 1
                }
                sorted[hole] = moving
            }
        }
        candidates = sorted
    }
}
