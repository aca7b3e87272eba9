import Foundation
import Geo
import Testing

@testable import RedisGeo

/// `RedisGeoSearch.hits(candidates:)` takes a fast path (one sort by distance) when no two
/// distances tie, and otherwise rebuilds Redis's scan order and runs Redis's own sorts. Both are
/// checked here against a literal model of Redis 7.0 (`membersOfAllNeighbors` over the sorted
/// set, then `qsort` / `pqsort`) on data made to tie: members stacked on one point, mirrored about
/// the centre, and searches across the antimeridian and near the latitude limit.
@Suite struct RedisGeoSearchPathTests {
    @Test(arguments: 0..<3)
    func bothPathsGiveRedisReplies(seed: UInt64) throws {
        var random = SplitMix64(seed: 0xC0FFEE + seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + random.nextUnit() * (range.upperBound - range.lowerBound)
        }
        let centres: [(Double, Double)] = [(29, 41), (179.99, 0.5), (-180, -10), (12, 85.05), (0, 0)]
        var compared = 0
        var swept = 0
        var tiesSeen = 0
        for (centreLongitude, centreLatitude) in centres {
            // Members around the centre: some stacked on shared points, some mirrored east–west.
            var entries: [RedisGeoEntry<String>] = []
            var shared: [(Double, Double)] = []
            for index in 0..<400 {
                var longitude = centreLongitude + uniform(-0.05...0.05)
                var latitude = min(max(centreLatitude + uniform(-0.05...0.05), -85.05), 85.05)
                if index % 7 == 0, let point = shared.last {
                    (longitude, latitude) = point
                } else if index % 11 == 0 {
                    longitude = 2 * centreLongitude - longitude
                }
                if longitude > 180 { longitude -= 360 }
                if longitude < -180 { longitude += 360 }
                shared.append((longitude, latitude))
                let score = Double(try GeoHash.encode(longitude: longitude, latitude: latitude))
                entries.append(RedisGeoEntry(score: score, member: "m\(index)"))
            }
            entries.sort { $0.precedes($1) }
            let shuffledOrder = Array(entries.indices).shuffled(using: &random)
            let shuffledScores = shuffledOrder.map { entries[$0].score }
            let shuffledCentres = shuffledScores.map { GeoHash.decode(score: $0) }
            let rankInSet = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].member, $0) })
            for trial in 0..<24 {
                let size = uniform(100...8000)
                let shape: RedisGeoShape =
                    trial % 3 == 0 ? .box(width: size, height: size * 0.7, unit: .meters) : .radius(size, unit: .meters)
                let search = try RedisGeoSearch(longitude: centreLongitude, latitude: centreLatitude, shape: shape)
                let orders: [RedisGeoSearch.Order] = [.unsorted, .ascending, .descending]
                let counts: [RedisGeoSearch.Count] = [.all, .first(1), .first(25), .first(60), .any(5), .any(500)]
                for order in orders {
                    for count in counts {
                        let expected = RedisModel.search(search, entries, order: order, count: count)
                        // Sorted input, positions as the tie order …
                        let sorted = try search.matches(in: entries, order: order, count: count)
                        #expect(sorted.map(\.member) == expected.map(\.member))
                        #expect(sorted.map(\.distanceMeters) == expected.map(\.distanceMeters))
                        // … and shuffled input with the member comparison.
                        let shuffled = try search.hits(
                            candidates: shuffledScores, order: order, count: count,
                            membersPrecede: {
                                rankInSet[entries[shuffledOrder[$0]].member]! < rankInSet[
                                    entries[shuffledOrder[$1]].member]!
                            })
                        #expect(shuffled.map { entries[shuffledOrder[$0.position]].member } == expected.map(\.member))
                        // … and with the decoded positions given and distances estimated.
                        let given = try search.hits(
                            candidates: shuffledScores, centres: shuffledCentres, order: order, count: count,
                            membersPrecede: {
                                rankInSet[entries[shuffledOrder[$0]].member]! < rankInSet[
                                    entries[shuffledOrder[$1]].member]!
                            }, estimating: true)
                        #expect(given.map { entries[shuffledOrder[$0.position]].member } == expected.map(\.member))
                        let distances = expected.map(\.distanceMeters)
                        if Set(distances).count < distances.count { tiesSeen += 1 }
                        compared += 1
                    }
                }
                // COUNT n ANY for every n up to all the hits (a box unordered, a radius DESC): the
                // n-th hit at every cell boundary, on the estimating path.
                if trial < 2 {
                    let order: RedisGeoSearch.Order = trial == 0 ? .unsorted : .descending
                    let all = RedisModel.search(search, entries, order: order, count: .all).count
                    for limit in 1...(all + 1) {
                        let expected = RedisModel.search(search, entries, order: order, count: .any(limit))
                        let given = try search.hits(
                            candidates: shuffledScores, centres: shuffledCentres, order: order, count: .any(limit),
                            membersPrecede: {
                                rankInSet[entries[shuffledOrder[$0]].member]! < rankInSet[
                                    entries[shuffledOrder[$1]].member]!
                            }, estimating: true)
                        #expect(given.map { entries[shuffledOrder[$0.position]].member } == expected.map(\.member))
                        swept += 1
                    }
                }
            }
        }
        #expect(compared == 5 * 24 * 18)
        #expect(swept > 5 * 2 * 10, "COUNT n ANY swept over n")
        #expect(tiesSeen > 50, "the data must make ties for the slow path to be tested")
    }

    /// COUNT n ANY's cut: the hits of the first cells that hold n, in their order — at a cell's
    /// last hit, past empty cells, and all of them when the last cell is reached.
    @Test func countAnyKeepsTheCellsHoldingTheFirstN() {
        let cells = [2, 0, 2, 4, 0, 2, 4]
        let hits = cells.indices.map {
            RedisGeoHit(position: $0, score: Double($0), longitude: 0, latitude: 0, distanceMeters: 1)
        }
        func kept(_ count: Int) -> [Int] {
            let (keptHits, keptCells) = RedisGeoSearch.inFirstCells(hits, cells: cells, cellCount: 5, holding: count)
            #expect(keptCells == keptHits.map { cells[$0.position] })
            return keptHits.map(\.position)
        }
        for count in 1...2 { #expect(kept(count) == [1, 4], "n = \(count)") }
        for count in 3...5 { #expect(kept(count) == [0, 1, 2, 4, 5], "n = \(count)") }
        for count in 6...8 { #expect(kept(count) == Array(cells.indices), "n = \(count)") }
        // A member found in two cells counts in each, as Redis counts it.
        let repeatedCells = [1, 0, 1, 2]
        let repeatedHits = [0, 1, 1, 2].map {
            RedisGeoHit(position: $0, score: Double($0), longitude: 0, latitude: 0, distanceMeters: 1)
        }
        let (twice, _) = RedisGeoSearch.inFirstCells(repeatedHits, cells: repeatedCells, cellCount: 3, holding: 3)
        #expect(twice.map(\.position) == [0, 1, 1])
    }

    @Test func packedKeysOrderLikeTheStandardLibrary() {
        var random = SplitMix64(seed: 11)
        let patterns: [(Int) -> Double] = [
            { _ in random.nextUnit() * 500 }, { Double($0) }, { Double($0 % 3) }, { _ in 1 },
            { Double(($0 * 7919) % 1000) }, { $0 % 2 == 0 ? Double($0) : Double(1000 - $0) }, { _ in 0 },
        ]
        for pattern in patterns {
            for count in [0, 1, 2, 3, 16, 17, 18, 100, 1000] {
                let distances = (0..<count).map(pattern)
                for descending in [false, true] {
                    let order = distances.withUnsafeBufferPointer {
                        PackedDistanceSort.sortedKeys($0, descending: descending)
                    }?.map { Int($0 & PackedDistanceSort.indexMask) }
                    guard let order else {
                        Issue.record("finite distances ≥ 0 must be ordered")
                        continue
                    }
                    let sorted = order.map { distances[$0] }
                    #expect(sorted == distances.sorted(by: descending ? (>) : (<)))
                    #expect(Set(order).count == count)
                }
            }
        }
        for refused in [-1.0, .nan, .infinity, -0.0] {
            let order = [1.0, refused].withUnsafeBufferPointer { PackedDistanceSort.sortedKeys($0, descending: false) }
            #expect(order == nil)
        }
    }

    /// The radix sort reads only the bits above the index, yet gives the order of the whole keys:
    /// keys equal above it keep their (ascending) indices' order.
    @Test func radixSortGivesTheOrderOfWholeKeys() {
        var random = SplitMix64(seed: 3)
        for count in [2, 100, 101, 357, 5_000] {
            for spread in [UInt64(4), 1 << 20, 1 << 30, 1 << 44, .max] {
                let keys = (0..<count).map { index in
                    ((random.next() % spread) << 20) | UInt64(index)
                }
                var sorted = keys
                sorted.withUnsafeMutableBufferPointer { PackedDistanceSort.radixSort($0) }
                #expect(sorted == keys.sorted(), "\(count) keys below \(spread)")
            }
        }
    }

    @Test func distanceKeysSortLikeTheStandardLibrary() {
        var random = SplitMix64(seed: 7)
        let patterns: [(Int) -> Double] = [
            { _ in random.nextUnit() }, { Double($0) }, { Double(-$0) }, { Double($0 % 3) }, { _ in 1 },
            { Double(($0 * 7919) % 1000) }, { $0 % 2 == 0 ? Double($0) : Double(1000 - $0) },
        ]
        for pattern in patterns {
            for count in [0, 1, 2, 3, 16, 17, 18, 100, 1000] {
                var keys = (0..<count).map { (distance: pattern($0), index: $0) }
                for descending in [false, true] {
                    DistanceKeySort.sort(&keys, descending: descending)
                    let distances = keys.map(\.distance)
                    #expect(distances == distances.sorted(by: descending ? (>) : (<)))
                    #expect(Set(keys.map(\.index)).count == count)
                }
            }
        }
    }
}

/// Redis 7.0's GEOSEARCH as it is written: scan the nine cells over the sorted set in order, then
/// glibc `qsort` (stable merge sort) for a full sort, `pqsort` for COUNT without ANY.
enum RedisModel {
    static func search(
        _ search: RedisGeoSearch, _ entries: [RedisGeoEntry<String>], order: RedisGeoSearch.Order,
        count: RedisGeoSearch.Count
    ) -> [RedisGeoMatch<String>] {
        var limit = 0
        var any = false
        switch count {
        case .all: break
        case .first(let value): limit = value
        case .any(let value):
            limit = value
            any = true
        }
        var found: [RedisGeoMatch<String>] = []
        var lastProcessed = 0
        scanning: for (index, candidate) in search.cells.enumerated() {
            guard let cell = candidate else { continue }
            if lastProcessed != 0, search.cells[lastProcessed] == cell { continue }
            if any && found.count >= limit { break }
            let range = cell.scoreRange
            for entry in entries where entry.score >= Double(range.lowerBound) && entry.score < Double(range.upperBound)
            {
                let point = GeoHash.decode(score: entry.score)
                if let distance = search.distanceIfInside(longitude: point.longitude, latitude: point.latitude) {
                    found.append(
                        RedisGeoMatch(
                            member: entry.member, score: entry.score, longitude: point.longitude,
                            latitude: point.latitude, distanceMeters: distance))
                }
                if any && found.count >= limit { break scanning }
            }
            lastProcessed = index
        }
        let sortOrder = (limit != 0 && order == .unsorted && !any) ? .ascending : order
        let returned = (limit == 0 || found.count < limit) ? found.count : limit
        if sortOrder != .unsorted {
            let descending = sortOrder == .descending
            let compare = { (a: RedisGeoMatch<String>, b: RedisGeoMatch<String>) -> Int in
                let ascending =
                    a.distanceMeters > b.distanceMeters ? 1 : (a.distanceMeters == b.distanceMeters ? 0 : -1)
                return descending ? -ascending : ascending
            }
            if returned == found.count {
                GlibcMergeSort.sort(&found, by: compare)
            } else {
                RedisPartialSort.sort(&found, lower: 0, upper: returned - 1, by: compare)
            }
        }
        return Array(found.prefix(returned))
    }
}
