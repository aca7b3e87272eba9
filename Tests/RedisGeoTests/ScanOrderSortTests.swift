import Geo
import Testing

@testable import RedisGeo

/// `ScanOrderSort`: Redis's scan order (cell, score, member) by one packed integer key a hit.
@Suite struct ScanOrderSortTests {
    /// Scan order by packed keys is the order of the comparison it replaces — cell, score, member
    /// — with many equal scores, cells found out of order and every count around the radix
    /// threshold; scores a key cannot hold are refused.
    @Test func scanOrderKeysOrderLikeTheComparison() {
        var random = SplitMix64(seed: 20_261_127)
        for count in [0, 1, 2, 3, 99, 100, 101, 400, 3_000] {
            for width in [UInt64(1), 1 << 8, 1 << 22, 1 << 40] {
                let cellCount = Int(random.next() % 9) + 1
                let minimums = (0..<cellCount).map { _ in Double(random.next() % (1 << 52)) }
                let cells = (0..<count).map { _ in Int(random.next() % UInt64(cellCount)) }
                let scores = cells.map { minimums[$0] + Double(random.next() % width) }
                // Members: a permutation, so that equal scores still have one order.
                let members = Array(0..<count).shuffled(using: &random)
                let precedes = { (a: Int, b: Int) in members[a] < members[b] }
                let order = scores.withUnsafeBufferPointer { scores in
                    cells.withUnsafeBufferPointer { cells in
                        ScanOrderSort.order(
                            scores: scores, cells: cells, cellMinimums: minimums, membersPrecede: precedes)
                    }
                }
                let expected = Array(0..<count).sorted { a, b in
                    if cells[a] != cells[b] { return cells[a] < cells[b] }
                    if scores[a] != scores[b] { return scores[a] < scores[b] }
                    return precedes(a, b)
                }
                #expect(order == expected, "\(count) hits in \(cellCount) cells \(width) wide")
            }
        }
        for refused in [-1.0, 0.5, 0x1p40, .nan] {
            let order = [0.0, refused].withUnsafeBufferPointer { scores in
                [0, 0].withUnsafeBufferPointer { cells in
                    ScanOrderSort.order(scores: scores, cells: cells, cellMinimums: [0], membersPrecede: { $0 < $1 })
                }
            }
            #expect(order == nil, "score \(refused)")
        }
    }
}
