import Testing

@testable import Geo

/// Nearest-N far from every point: the search widens by chords and collects at the radius that
/// bounds the shortest ones, and must still equal a brute-force scan, filtered or not, with ties.
@Suite struct GridIndexNearestTests {
    /// 4,000 points within a few kilometres of Istanbul (some at the same coordinates, some on a
    /// ring at one distance from a far query point), and queries 300 km away, on other continents,
    /// at the antipode and at a pole.
    @Test(arguments: [DistanceModel.geodesic, .sphere])
    func farFromADenseClusterMatchesBruteForce(model: DistanceModel) throws {
        var random = SplitMix64(seed: 2026_11_27)
        let istanbul = Coordinate(unchecked: 41.0, 29.0)
        var points: [(handle: UInt32, coordinate: Coordinate)] = []
        for handle in 0..<3_600 {
            let distance = abs(random.uniform(-1...1)) * 4_000
            let point = Geodesic.wgs84.destination(
                from: istanbul, bearing: random.uniform(0...360), distanceMeters: distance)
            points.append((UInt32(handle), point))
        }
        for handle in 3_600..<3_800 { points.append((UInt32(handle), random.pick(points).coordinate)) }
        // Points 300 km from the first far query, spread along a small arc: near ties for it.
        let far = Coordinate(unchecked: 39.0, 32.0)
        for handle in 3_800..<4_000 {
            let point = Geodesic.wgs84.destination(
                from: far, bearing: 300 + random.uniform(0...0.01), distanceMeters: 300_000)
            points.append((UInt32(handle), point))
        }
        var index = try GridIndex(cellSizeMeters: 250)
        try index.insert(contentsOf: points)
        let oracle = BruteForce(points: points)
        var checker = QueryChecker(index: index, oracle: oracle, model: model)
        let queries = [
            far, Coordinate(unchecked: -30, -60), Coordinate(unchecked: -41, -151),
            Coordinate(unchecked: 90, 0), Coordinate(unchecked: -90, 180), Coordinate(unchecked: 41.2, 29.3),
        ]
        for center in queries {
            let ranked = oracle.ranked(from: center, model: model)
            for count in [1, 3, 50, 1_000, 4_000, 5_000] {
                for limit in [nil, ranked[min(count / 2, ranked.count - 1)].distanceMeters, 1_000] as [Double?] {
                    let expected = Array(ranked.within(limit ?? .infinity).prefix(count))
                    let hits = try index.nearest(count, to: center, model: model, maxDistanceMeters: limit)
                    checker.compare(hits, expected, "nearest(\(count), max: \(String(describing: limit))) to \(center)")
                    let kept = Array(ranked.within(limit ?? .infinity).filter { $0.handle % 3 == 0 }.prefix(count))
                    let filtered = try index.nearest(count, to: center, model: model, maxDistanceMeters: limit) {
                        $0 % 3 == 0
                    }
                    checker.compare(
                        filtered, kept, "nearest(\(count), max: \(String(describing: limit)), ⅓) to \(center)")
                }
            }
        }
        #expect(checker.queries == 6 * 6 * 3 * 2)
        #expect(checker.mismatches == 0)
    }

    /// Places on a ring 5–30 km from a pole, cells of 1–100 km, and queries from lower latitudes
    /// whose covers cross ±180° in the ring's rows (a cover then lists a row's last columns first),
    /// on the ellipsoid and on a 10,000 km sphere.
    @Test(arguments: [1_000.0, 10_000.0, 100_000.0])
    func nearAPoleAcrossTheAntimeridianMatchesBruteForce(cellSize: Double) throws {
        var random = SplitMix64(seed: 2026_11_27 &+ UInt64(cellSize))
        var points: [(handle: UInt32, coordinate: Coordinate)] = []
        for handle in 0..<1_500 {
            let pole = handle % 3 == 0 ? -90.0 : 90.0
            let point = Geodesic.wgs84.destination(
                from: Coordinate(unchecked: pole, 0), bearing: random.uniform(0...360),
                distanceMeters: random.uniform(5_000...30_000))
            points.append((UInt32(handle), point))
        }
        var index = try GridIndex(cellSizeMeters: cellSize)
        try index.insert(contentsOf: points)
        let oracle = BruteForce(points: points)
        for model in [DistanceModel.geodesic, .haversine(try Haversine(radiusMeters: 10_000_000))] {
            var checker = QueryChecker(index: index, oracle: oracle, model: model)
            for _ in 0..<12 {
                let center = Coordinate(
                    unchecked: random.signed(random.uniform(0...70)),
                    random.pick([180, -180, 179.9, -179.9, random.longitude()]))
                let ranked = oracle.ranked(from: center, model: model)
                for count in [1, 7, 200] {
                    let expected = Array(ranked.prefix(count))
                    checker.compare(
                        try index.nearest(count, to: center, model: model), expected, "nearest(\(count)) to \(center)")
                    let kept = Array(ranked.filter { $0.handle % 5 == 0 }.prefix(count))
                    let filtered = try index.nearest(count, to: center, model: model) { $0 % 5 == 0 }
                    checker.compare(filtered, kept, "nearest(\(count), ⅕) to \(center)")
                }
            }
            #expect(checker.queries == 12 * 3 * 2)
            #expect(checker.mismatches == 0, "\(model)")
        }
    }

    /// The heap behind the plan keeps the `capacity` shortest chords, whatever the ties.
    @Test func chordHeapKeepsTheShortest() {
        var random = SplitMix64(seed: 7)
        for round in 0..<400 {
            let size = 1 + Int(random.next() % 300)
            let distinct = round % 2 == 0 ? 5 : 1_000_000
            let chords = (0..<size).map { _ in Double(random.next() % UInt64(distinct)) }
            let capacity = 1 + Int(random.next() % UInt64(size + 5))
            var heap = ChordHeap(capacity: capacity)
            for (slot, chord) in chords.enumerated() where heap.admits(chord) {
                heap.insert(ChordKey(chordSquared: chord, slot: UInt32(slot)))
            }
            #expect(heap.keys.map(\.chordSquared).sorted() == Array(chords.sorted().prefix(capacity)))
            #expect(heap.isFull == (size >= capacity))
            #expect(heap.keys.allSatisfy { chords[Int($0.slot)] == $0.chordSquared })
        }
    }
}
