/// Puts hits in Redis's scan order — by the scanned cell that holds them, then by score, then by
/// member — through one 64-bit key each, sorted as integers (`PackedDistanceSort.sort`) instead
/// of by a comparison closure: the cell's index in the top 4 bits, the score's offset from the
/// cell's lowest score in the next 40, the hit's index in the low 20.
///
/// A cell of step s spans 2^(52 - 2s) scores, so the offsets fit from step 6 on (cells of about
/// 600 km and less: radii up to some 150 km). Hits of equal cell and score (places at the same
/// decoded position) are then ordered by member, as Redis's sorted set holds them.
enum ScanOrderSort {
    /// The most scanned cells a key can name.
    static let maximumCells = 16
    private static let indexBits: UInt64 = 20
    private static let indexMask: UInt64 = (1 << indexBits) - 1
    /// Offsets are below 2^40 (bits 20 ... 59).
    private static let offsetLimit = 0x1p40

    /// The indices of the hits in scan order; nil when a key cannot hold a hit (more than
    /// `PackedDistanceSort.maximumCount` hits, more than `maximumCells` cells, a score below its
    /// cell's lowest, too far above it, or not an integer): then sort by comparison.
    ///
    /// - Parameters:
    ///   - scores: the hits' scores.
    ///   - cells: hit for hit, the index of the scanned cell it was found in.
    ///   - cellMinimums: each scanned cell's lowest score.
    ///   - membersPrecede: whether the member of one hit (by index) precedes another's in
    ///     sorted-set order; asked only for hits of equal cell and score.
    static func order(
        scores: UnsafeBufferPointer<Double>, cells: UnsafeBufferPointer<Int>, cellMinimums: [Double],
        membersPrecede: (Int, Int) -> Bool
    ) -> [Int]? {
        let count = scores.count
        guard count <= PackedDistanceSort.maximumCount, cellMinimums.count <= maximumCells else { return nil }
        guard count > 1 else { return Array(0..<count) }
        var keys = [UInt64](repeating: 0, count: count)
        var valid = true
        keys.withUnsafeMutableBufferPointer { keys in
            cellMinimums.withUnsafeBufferPointer { minimums in
                for index in 0..<count {
                    let cell = cells[index]
                    let offset = scores[index] - minimums[cell]
                    // Also false for NaN.
                    let fits = offset >= 0 && offset < offsetLimit
                    let whole = fits ? UInt64(offset) : 0
                    valid = valid && fits && Double(whole) == offset
                    keys[index] = UInt64(truncatingIfNeeded: cell) << 60 | whole << indexBits | UInt64(index)
                }
            }
            if valid { PackedDistanceSort.sort(keys) }
        }
        guard valid else { return nil }
        var order = keys.map { Int($0 & indexMask) }
        // Runs of equal cell and score, ordered by member.
        var runStart = 0
        for position in 1...count {
            let runEnds = position == count || keys[position] >> indexBits != keys[runStart] >> indexBits
            guard runEnds else { continue }
            if position - runStart > 1 { order[runStart..<position].sort(by: membersPrecede) }
            runStart = position
        }
        return order
    }
}
