/// Orders hits by distance through one 64-bit key each: the distance's bit pattern (for a finite
/// distance ≥ 0 it orders as the distance does) with its low bits replaced by the hit's index.
/// Sorting plain integers moves an eighth of the bytes of a hit and compares without branches on
/// floating-point flags: several times cheaper than sorting (distance, index) pairs.
///
/// The low bits given to the index cut the distance to 2^-(52 - indexBits) of itself (2^-32 for
/// a million hits, 0.12 µm at 500 m), so two hits closer than that may come out in index order
/// rather than distance order. Callers check every neighbouring pair afterwards (as
/// `RedisGeoSearch` does with the distances' error bounds) and take another path when any pair
/// is too close to order; an order accepted by that check is the distance order.
enum PackedDistanceSort {
    /// The most hits one sort takes: their indices fill the low 20 bits of the keys.
    static let maximumCount = 1 << 20
    static let indexBits: UInt64 = 20
    static let indexMask: UInt64 = (1 << indexBits) - 1

    /// The key of a finite distance ≥ 0 at `index`: its bit pattern (complemented for a
    /// descending order) with the low bits replaced by the index.
    @inline(__always)
    static func key(_ distance: Double, index: Int, descending: Bool) -> UInt64 {
        let bits = descending ? ~distance.bitPattern : distance.bitPattern
        return (bits & ~indexMask) | UInt64(truncatingIfNeeded: index)
    }

    /// The indices of `distances` in ascending order of distance (descending when asked); nil
    /// when a distance is negative, NaN or infinite, or there are more than `maximumCount`.
    ///
    /// The answer is the sorted keys themselves: each key's low `indexBits` bits are the index
    /// (`key & indexMask`), for callers that read the indices once, in order.
    static func sortedKeys(_ distances: UnsafeBufferPointer<Double>, descending: Bool) -> [UInt64]? {
        var valid = true
        let keys = [UInt64](unsafeUninitializedCapacity: distances.count) { keys, initialized in
            valid = sortKeys(distances, descending: descending, into: keys)
            initialized = valid ? distances.count : 0
        }
        return valid ? keys : nil
    }

    /// `sortedKeys` written into `keys` (room for as many as `distances`, not overlapping it):
    /// false, with `keys` meaningless, when `sortedKeys` answers nil.
    static func sortKeys(
        _ distances: UnsafeBufferPointer<Double>, descending: Bool, into keys: UnsafeMutableBufferPointer<UInt64>
    ) -> Bool {
        let count = distances.count
        precondition(keys.count >= count, "room for \(keys.count) keys, \(count) distances")
        guard count <= maximumCount else { return false }
        let keys = UnsafeMutableBufferPointer(rebasing: keys[..<count])
        var valid = true
        for index in 0..<count {
            let distance = distances[index]
            // Also false for NaN; -0.0 has its sign bit set and would sort last.
            valid = valid && distance >= 0 && distance.isFinite && distance.sign == .plus
            keys[index] = key(distance, index: index, descending: descending)
        }
        guard valid else { return false }
        if keys.count < radixThreshold || !bucketSort(keys, distances: distances, descending: descending) {
            sort(keys)
        }
        return true
    }

    /// Sorts the keys ascending: a radix sort for a hundred keys or more (a quicksort's
    /// comparisons of random distances mispredict about every other branch), else
    /// `IntroQuicksort`, and the standard library's sort when that gives up.
    static func sort(_ keys: UnsafeMutableBufferPointer<UInt64>) {
        if keys.count >= radixThreshold, indicesAscend(keys) {
            radixSort(keys)
        } else if !IntroQuicksort.sort(keys, by: ByValue.self) {
            var keys = keys
            keys.sort()
        }
    }

    /// The fewest keys `sort` gives to `radixSort`.
    static let radixThreshold = 100

    /// Whether the keys' low bits are 0, 1, 2, … in order, as `order` makes them.
    private static func indicesAscend(_ keys: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        var ascend = true
        for index in keys.indices { ascend = ascend && keys[index] & indexMask == UInt64(index) }
        return ascend
    }

    /// Sorts keys whose low `indexBits` hold their positions (`indicesAscend`) ascending, by a
    /// least-significant-digit radix sort of the bits above the index, one byte at a time. Each
    /// pass is stable and the indices start ascending, so keys equal above the index end in index
    /// order: exactly the order of the whole keys. Digits that all keys share are skipped.
    static func radixSort(_ keys: UnsafeMutableBufferPointer<UInt64>) {
        let count = keys.count
        guard count > 1, let base = keys.baseAddress else { return }
        // Bits 20 ... 63: five bytes and a last nibble.
        let passes = 6
        withUnsafeTemporaryAllocation(of: Int.self, capacity: passes * 256) { counts in
            counts.initialize(repeating: 0)
            for key in keys {
                for pass in 0..<passes {
                    let digit = Int(truncatingIfNeeded: (key >> (indexBits &+ UInt64(pass &* 8))) & 0xFF)
                    counts[pass &* 256 &+ digit] &+= 1
                }
            }
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { scratch in
                guard let scratchBase = scratch.baseAddress else { return }
                var source = base
                var destination = scratchBase
                for pass in 0..<passes {
                    let shift = indexBits &+ UInt64(pass &* 8)
                    let starts = counts.baseAddress! + pass &* 256
                    if starts[Int(truncatingIfNeeded: (source[0] >> shift) & 0xFF)] == count { continue }
                    var total = 0
                    for digit in 0..<256 {
                        let inDigit = starts[digit]
                        starts[digit] = total
                        total &+= inDigit
                    }
                    for index in 0..<count {
                        let key = source[index]
                        let digit = Int(truncatingIfNeeded: (key >> shift) & 0xFF)
                        destination[starts[digit]] = key
                        starts[digit] &+= 1
                    }
                    swap(&source, &destination)
                }
                if source != base { base.update(from: source, count: count) }
            }
        }
    }

    /// The most keys `bucketSort` lets one bucket hold before it gives up.
    static let maximumBucket = 24

    /// Sorts the keys `order` made (key `i` for distance `i`, all finite and ≥ 0) ascending: each
    /// goes to one of as many buckets as keys by where its squared distance lies between the
    /// smallest and the largest (points spread evenly over a disc then fill the buckets evenly),
    /// and an insertion sort finishes the nearly sorted result. About a third of a radix sort's
    /// work for a few hundred keys. False, leaving the keys as they were, when all distances are
    /// equal or a bucket would hold more than `maximumBucket` keys (points piled up): then sort
    /// them another way.
    ///
    /// The insertion sort alone decides the order, so it is the order of the whole keys whatever
    /// the buckets; they only bound its work.
    static func bucketSort(
        _ keys: UnsafeMutableBufferPointer<UInt64>, distances: UnsafeBufferPointer<Double>, descending: Bool
    ) -> Bool {
        let count = keys.count
        guard count > 1, count == distances.count, let base = keys.baseAddress else { return false }
        var low = Double.infinity
        var high = 0.0
        for distance in distances {
            let square = distance * distance
            low = min(low, square)
            high = max(high, square)
        }
        guard high > low, high.isFinite else { return false }
        // Slightly less than count / (high − low), so that the largest lands in the last bucket.
        let scale = Double(count) / (high - low) * (1 - 0x1p-20)
        guard scale.isFinite else { return false }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count + 1) { scratch in
            guard let buckets = scratch.baseAddress else { return false }
            let starts = buckets + count
            starts.initialize(repeating: 0, count: count + 1)
            var fullest: Int32 = 0
            for index in 0..<count {
                let distance = distances[index]
                let place = min(count - 1, max(0, Int((distance * distance - low) * scale)))
                let bucket = descending ? count - 1 - place : place
                buckets[index] = Int32(truncatingIfNeeded: bucket)
                starts[bucket + 1] &+= 1
                fullest = max(fullest, starts[bucket + 1])
            }
            guard fullest <= Int32(maximumBucket) else { return false }
            for bucket in 0..<count { starts[bucket + 1] &+= starts[bucket] }
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { spread in
                guard let out = spread.baseAddress else { return }
                for index in 0..<count {
                    let bucket = Int(buckets[index])
                    out[Int(starts[bucket])] = base[index]
                    starts[bucket] &+= 1
                }
                // Keys out of order share a bucket (rarely a neighbouring one): each moves a few
                // places at most.
                for index in 1..<count {
                    let key = out[index]
                    var hole = index
                    while hole > 0, out[hole - 1] > key {
                        out[hole] = out[hole - 1]
                        hole -= 1
                    }
                    out[hole] = key
                }
                base.update(from: out, count: count)
            }
            return true
        }
    }

    /// Keys by value.
    private enum ByValue: QuicksortOrder {
        @inline(__always)
        static func less(_ a: UInt64, _ b: UInt64) -> Bool { a < b }
    }
}
