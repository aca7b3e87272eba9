/// Sorts a query's candidates by their key, ties by a caller's order, in about linear time.
///
/// The key is the squared chord (or the squared distance): points in a disc are spread evenly in
/// area, so key / largest key is roughly uniform, and one bucket per candidate on that scale leaves
/// about one candidate per bucket. Each bucket is finished by insertion sort (or the standard sort
/// when large, e.g. many points at one spot).
enum CandidateSorter {
    static func sort(_ candidates: inout [RadiusSearch.Candidate], tieOrder: (UInt32, UInt32) -> Bool) {
        let count = candidates.count
        if count < 2 { return }
        if count < 32 {
            candidates.withUnsafeMutableBufferPointer { insertionSort($0, 0, count, tieOrder) }
            return
        }
        var largest = 0.0
        for candidate in candidates { largest = max(largest, candidate.key) }
        guard largest > 0, largest.isFinite else {
            candidates.withUnsafeMutableBufferPointer { insertionSort($0, 0, count, tieOrder) }
            return
        }
        // Two buckets per candidate: few share one, so the insertion pass below moves little.
        let buckets = 2 * count
        let scale = Double(buckets) / largest
        let sorted = [RadiusSearch.Candidate](unsafeUninitializedCapacity: count) { output, initialized in
            let starts = UnsafeMutablePointer<Int32>.allocate(capacity: buckets + 1)
            defer { starts.deallocate() }
            starts.initialize(repeating: 0, count: buckets + 1)
            candidates.withUnsafeBufferPointer { input in
                // Monotone in the key, so buckets come out in key order.
                // NaN or infinite keys (which sane inputs never give) land in the last bucket
                // rather than trapping in Int(_:).
                @inline(__always)
                func bucket(_ key: Double) -> Int {
                    let scaled = key * scale
                    return scaled >= 0 && scaled < Double(buckets) ? Int(scaled) : buckets - 1
                }
                for candidate in input { starts[bucket(candidate.key) + 1] += 1 }
                var crowded = false
                for index in 0..<buckets {
                    crowded = crowded || starts[index + 1] > 16
                    starts[index + 1] += starts[index]
                }
                guard let base = output.baseAddress else { return }
                for candidate in input {
                    let target = bucket(candidate.key)
                    (base + Int(starts[target])).initialize(to: candidate)
                    starts[target] += 1
                }
                initialized = count
                // Now starts[b] is the end of bucket b. A crowded bucket (many points at one spot)
                // gets the standard sort first, so that the insertion pass stays linear.
                if crowded {
                    var lower = 0
                    for index in 0..<buckets {
                        let upper = Int(starts[index])
                        if upper - lower > 16 {
                            var bucket = UnsafeMutableBufferPointer(rebasing: output[lower..<upper])
                            bucket.sort {
                                $0.key < $1.key || ($0.key == $1.key && tieOrder($0.handle, $1.handle))
                            }
                        }
                        lower = upper
                    }
                }
            }
            // Buckets are in order; within one they are not: one insertion pass over the nearly
            // sorted whole finishes with few moves.
            insertionSort(output, 0, count, tieOrder)
        }
        candidates = sorted
    }

    /// Insertion sort of buffer[lower..<upper] by key, ties by `tieOrder` (called only for equal
    /// keys, so the common comparison is one floating-point compare).
    @inline(__always)
    private static func insertionSort(
        _ buffer: UnsafeMutableBufferPointer<RadiusSearch.Candidate>, _ lower: Int, _ upper: Int,
        _ tieOrder: (UInt32, UInt32) -> Bool
    ) {
        var position = lower + 1
        while position < upper {
            let moving = buffer[position]
            var hole = position
            while hole > lower {
                let previous = buffer[hole - 1]
                let before =
                    moving.key < previous.key
                    || (moving.key == previous.key && tieOrder(moving.handle, previous.handle))
                if !before { break }
                buffer[hole] = previous
                hole -= 1
            }
            buffer[hole] = moving
            position += 1
        }
    }
}
