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
    private static let indexBits: UInt64 = 20
    private static let indexMask: UInt64 = (1 << indexBits) - 1

    /// The indices of `distances` in ascending order of distance (descending when asked); nil
    /// when a distance is negative, NaN or infinite, or there are more than `maximumCount`.
    static func order(_ distances: UnsafeBufferPointer<Double>, descending: Bool) -> [Int]? {
        let count = distances.count
        guard count <= maximumCount else { return nil }
        var keys = [UInt64](repeating: 0, count: count)
        var valid = true
        keys.withUnsafeMutableBufferPointer { keys in
            for index in 0..<count {
                let distance = distances[index]
                // Also false for NaN; -0.0 has its sign bit set and would sort last.
                valid = valid && distance >= 0 && distance.isFinite && distance.sign == .plus
                let bits = descending ? ~distance.bitPattern : distance.bitPattern
                keys[index] = (bits & ~indexMask) | UInt64(index)
            }
            if valid { sort(keys) }
        }
        guard valid else { return nil }
        return keys.map { Int($0 & indexMask) }
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

    /// Keys by value.
    private enum ByValue: QuicksortOrder {
        @inline(__always)
        static func less(_ a: UInt64, _ b: UInt64) -> Bool { a < b }
    }
}
