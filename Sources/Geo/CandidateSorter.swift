/// Sorts a query's candidates by their key, ties by a caller's order, in about linear time.
///
/// The key is the squared chord (or the squared distance): points in a disc are spread evenly in
/// area, so key / largest key is roughly uniform, and one bucket per candidate on that scale leaves
/// about one candidate per bucket. Each bucket is finished by insertion sort (or the standard sort
/// when large, e.g. many points at one spot).
enum CandidateSorter {
    static func sort(_ candidates: inout [RadiusSearch.Candidate], tieOrder: (UInt32, UInt32) -> Bool) {
        @inline(__always)
        func precedes(_ left: RadiusSearch.Candidate, _ right: RadiusSearch.Candidate) -> Bool {
            left.key < right.key || (left.key == right.key && tieOrder(left.handle, right.handle))
        }
        let count = candidates.count
        if count < 2 { return }
        if count < 32 {
            candidates.withUnsafeMutableBufferPointer { insertionSort($0, from: 0, to: count, by: precedes) }
            return
        }
        var largest = 0.0
        for candidate in candidates { largest = max(largest, candidate.key) }
        guard largest > 0 else {
            candidates.sort(by: precedes)
            return
        }
        let scale = Double(count) / largest
        var starts = [Int32](repeating: 0, count: count + 1)
        let sorted = [RadiusSearch.Candidate](unsafeUninitializedCapacity: count) { output, initialized in
            candidates.withUnsafeBufferPointer { input in
                starts.withUnsafeMutableBufferPointer { starts in
                    // Monotone in the key, so buckets come out in key order.
                    @inline(__always)
                    func bucket(_ candidate: RadiusSearch.Candidate) -> Int {
                        min(count - 1, Int(candidate.key * scale))
                    }
                    for candidate in input { starts[bucket(candidate) + 1] += 1 }
                    for index in 0..<count { starts[index + 1] += starts[index] }
                    var next = Array(starts)
                    next.withUnsafeMutableBufferPointer { next in
                        for candidate in input {
                            let target = bucket(candidate)
                            (output.baseAddress! + Int(next[target])).initialize(to: candidate)
                            next[target] += 1
                        }
                    }
                    initialized = count
                    for index in 0..<count {
                        let lower = Int(starts[index])
                        let upper = Int(starts[index + 1])
                        if upper - lower < 2 { continue }
                        if upper - lower > 16 {
                            output[lower..<upper].sort(by: precedes)
                        } else {
                            insertionSort(output, from: lower, to: upper, by: precedes)
                        }
                    }
                }
            }
        }
        candidates = sorted
    }

    @inline(__always)
    private static func insertionSort(
        _ buffer: UnsafeMutableBufferPointer<RadiusSearch.Candidate>, from lower: Int, to upper: Int,
        by precedes: (RadiusSearch.Candidate, RadiusSearch.Candidate) -> Bool
    ) {
        var position = lower + 1
        while position < upper {
            let moving = buffer[position]
            var hole = position
            while hole > lower && precedes(moving, buffer[hole - 1]) {
                buffer[hole] = buffer[hole - 1]
                hole -= 1
            }
            buffer[hole] = moving
            position += 1
        }
    }
}
