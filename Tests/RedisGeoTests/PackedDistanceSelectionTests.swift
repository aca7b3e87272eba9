import Geo
import Testing

@testable import RedisGeo

/// The partial selection behind COUNT (`PackedDistanceSort.first`, `RedisGeoSearch.firstIfDistinct`)
/// and the bucket sort behind full orders, against full sorts of the same keys on random data
/// with ties.
@Suite struct PackedDistanceSelectionTests {
    /// Distances of many shapes: spread, all equal, few values, piled up on one point with a few
    /// elsewhere (a bucket overflows), growing, zero.
    static func patterns(_ random: inout SplitMix64, count: Int) -> [[Double]] {
        var spread: [Double] = []
        var few: [Double] = []
        var piled: [Double] = []
        var disc: [Double] = []
        for index in 0..<count {
            spread.append(random.nextUnit() * 500)
            few.append(Double(random.next() % 4) * 125)
            piled.append(index % 10 == 0 ? random.nextUnit() * 500 : 250)
            disc.append((random.nextUnit()).squareRoot() * 500)
        }
        return [
            spread, few, piled, disc, (0..<count).map(Double.init), Array(repeating: 7, count: count),
            Array(repeating: 0, count: count), (0..<count).map { Double(($0 * 7919) % 1000) / 8 },
        ]
    }

    /// The indices of `distances` sorted by their whole keys (distance bits above, index below).
    static func keyOrder(_ distances: [Double], descending: Bool) -> [Int] {
        distances.indices.map { PackedDistanceSort.key(distances[$0], index: $0, descending: descending) }
            .sorted().map { Int($0 & PackedDistanceSort.indexMask) }
    }

    @Test func orderIsTheOrderOfWholeKeys() {
        var random = SplitMix64(seed: 21)
        for count in [2, 3, 99, 100, 101, 251, 358, 1_000, 4_000] {
            for distances in Self.patterns(&random, count: count) {
                for descending in [false, true] {
                    let order = distances.withUnsafeBufferPointer {
                        PackedDistanceSort.sortedKeys($0, descending: descending)
                    }?.map { Int($0 & PackedDistanceSort.indexMask) }
                    #expect(
                        order == Self.keyOrder(distances, descending: descending), "\(count) descending \(descending)")
                }
            }
        }
    }

    @Test func bucketSortSortsOrGivesUp() {
        var random = SplitMix64(seed: 5)
        for count in [2, 100, 357, 2_000] {
            for distances in Self.patterns(&random, count: count) {
                for descending in [false, true] {
                    let keys = distances.indices.map {
                        PackedDistanceSort.key(distances[$0], index: $0, descending: descending)
                    }
                    var sorted = keys
                    let done = sorted.withUnsafeMutableBufferPointer { keys in
                        distances.withUnsafeBufferPointer {
                            PackedDistanceSort.bucketSort(keys, distances: $0, descending: descending)
                        }
                    }
                    #expect(sorted == (done ? keys.sorted() : keys))
                    // Equal distances give up; spread ones do not.
                    if Set(distances).count == 1 { #expect(!done) }
                    // Growing distances fill the first buckets of squares most: 2,000 overflow one.
                    if distances == distances.indices.map(Double.init) { #expect(done == (count <= 357)) }
                }
            }
        }
        // Squares past the largest double, or differences too small to divide by: given up.
        for distances in [
            [1e200, 2e200, 0] + Array(repeating: 5, count: 100),
            [0x1p-1070, 0x1p-1060] + Array(repeating: 0, count: 100),
        ] {
            var keys = distances.indices.map { PackedDistanceSort.key(distances[$0], index: $0, descending: false) }
            let done = keys.withUnsafeMutableBufferPointer { keys in
                distances.withUnsafeBufferPointer {
                    PackedDistanceSort.bucketSort(keys, distances: $0, descending: false)
                }
            }
            #expect(!done)
            let order = distances.withUnsafeBufferPointer { PackedDistanceSort.sortedKeys($0, descending: false) }
            #expect(
                order?.map { Int($0 & PackedDistanceSort.indexMask) } == Self.keyOrder(distances, descending: false))
        }
    }

    @Test func firstIsThePrefixOfTheFullOrder() {
        var random = SplitMix64(seed: 8)
        for count in [1, 2, 17, 100, 357, 3_000] {
            for distances in Self.patterns(&random, count: count) {
                for descending in [false, true] {
                    let full = Self.keyOrder(distances, descending: descending)
                    for wanted in [1, 2, 10, 50, count - 1, count, count + 5] where wanted > 0 {
                        let first = distances.withUnsafeBufferPointer {
                            PackedDistanceSort.first(wanted, of: $0, descending: descending)
                        }
                        #expect(first == Array(full.prefix(wanted)), "\(wanted) of \(count)")
                    }
                }
            }
        }
        for refused in [-1.0, .nan, .infinity, -0.0] {
            let first = [1.0, 2, refused, 3].withUnsafeBufferPointer {
                PackedDistanceSort.first(2, of: $0, descending: false)
            }
            #expect(first == nil)
        }
    }

    /// Whenever `firstIfDistinct` answers, its hits are the first of Redis's partial sort over the
    /// exact distances (which are the estimates within their errors), in its order; it refuses
    /// when the first ones tie with each other or with one left out.
    @Test func firstIfDistinctIsRedisPartialSort() {
        var random = SplitMix64(seed: 13)
        var answered = 0
        var refused = 0
        for trial in 0..<400 {
            let count = 2 + Int(random.next() % 300)
            let exact = (0..<count).map { _ -> Double in
                // Some trials with many equal distances, some with near ties within the errors.
                trial % 4 == 0 ? Double(random.next() % 40) : random.nextUnit() * 800
            }
            let hits = exact.indices.map { index -> RedisGeoHit in
                let estimated = index % 3 != 0
                let error = estimated ? exact[index] * 0x1p-40 : 0
                let offset = estimated ? error * (2 * random.nextUnit() - 1) : 0
                return RedisGeoHit(
                    position: index, score: Double(index), longitude: 0, latitude: 0,
                    distanceMeters: exact[index] + offset, distanceError: error)
            }
            for descending in [false, true] {
                let wanted = 1 + Int(random.next() % UInt64(count - 1))
                guard let first = RedisGeoSearch.firstIfDistinct(hits, count: wanted, descending: descending) else {
                    refused += 1
                    continue
                }
                answered += 1
                var redis = hits.map {
                    RedisGeoHit(
                        position: $0.position, score: $0.score, longitude: 0, latitude: 0,
                        distanceMeters: exact[$0.position])
                }
                RedisPartialSort.sort(&redis, lower: 0, upper: wanted - 1) { a, b in
                    let ascending =
                        a.distanceMeters > b.distanceMeters ? 1 : (a.distanceMeters == b.distanceMeters ? 0 : -1)
                    return descending ? -ascending : ascending
                }
                #expect(first.map(\.position) == redis.prefix(wanted).map(\.position))
            }
        }
        #expect(answered > 200)
        #expect(refused > 50, "ties must make it refuse")
    }
}
