import Testing

@testable import Geo

/// The index after many inserts, moves and removes (blocks growing at the end of the arena,
/// handles reused, an explicit `compact()`), checked against a shadow dictionary and the brute
/// force after every round.
@Suite struct GridIndexMutationTests {
    static let radii: [Double] = [0, 1, 500, 5_000, 100_000, 3_000_000, 21_000_000]

    @Test(arguments: zip([DistanceModel.geodesic, .sphere, .haversine(.redis)], [250.0, 50.0, 5_000.0]))
    func queriesMatchBruteForceAfterMutations(model: DistanceModel, cellSize: Double) throws {
        let seed = GridIndexPropertyTests.seed(model, cellSize) ^ 0x3017
        var mixture = PointMixture(seed: seed)
        var random = SplitMix64(seed: seed ^ 0xA11CE)
        var index = try GridIndex(cellSizeMeters: cellSize)
        // Bulk-load half (exact blocks, one handle given twice: the later position wins), then
        // insert the rest one by one.
        var bulk = (0..<700).map { (handle: UInt32($0), coordinate: mixture.next()) }
        bulk.append((handle: 3, coordinate: mixture.next()))
        try index.insert(contentsOf: bulk)
        var shadow = BruteForce(points: bulk)
        for handle in UInt32(700)..<1_400 {
            let point = mixture.next()
            try index.insert(handle: handle, at: point)
            shadow.points[handle] = point
        }
        try Self.expectSameContents(index, shadow)

        let arenaBefore = index.handles.count
        for round in 0..<4 {
            // Each round piles points into one hot spot, so that its block keeps outgrowing itself.
            let hotSpot = mixture.clusterCenters[round % mixture.clusterCenters.count]
            for _ in 0..<3_000 {
                let handle = UInt32(random.next() % 2_000)
                let roll = random.unit()
                if roll < 0.55 {
                    let target = random.chance(0.6) ? mixture.near(hotSpot, spreadMeters: 30) : mixture.next()
                    if shadow.points[handle] == nil && random.chance(0.5) {
                        #expect(throws: GeoError.unknownHandle(handle)) { try index.move(handle: handle, to: target) }
                        continue
                    }
                    if random.chance(0.5), shadow.points[handle] != nil {
                        try index.move(handle: handle, to: target)
                    } else {
                        try index.insert(handle: handle, at: target)
                    }
                    shadow.points[handle] = target
                } else {
                    #expect(index.remove(handle: handle) == (shadow.points.removeValue(forKey: handle) != nil))
                }
            }
            if round == 2 {
                index.compact()
                #expect(index.staleSlots == 0)
            }
            try Self.expectSameContents(index, shadow)
            var checker = QueryChecker(index: index, oracle: shadow, model: model)
            for _ in 0..<6 {
                let center = random.chance(0.5) ? random.pick(Array(shadow.points.values)) : mixture.next()
                try checker.checkAll(center: center, radii: Self.radii, random: &random)
            }
            #expect(checker.handleMismatches == 0, "round \(round)")
            #expect(
                checker.distanceMismatches == 0, "round \(round): largest difference \(checker.largestDifference) m")
        }
        #expect(index.handles.count > arenaBefore, "the hot spots made blocks grow")
    }

    /// Same count, same handles, same coordinates bit for bit, and removed handles really gone.
    static func expectSameContents(_ index: GridIndex, _ shadow: BruteForce) throws {
        #expect(index.count == shadow.points.count)
        for handle in UInt32(0)..<2_000 {
            let stored = index.coordinate(of: handle)
            #expect(stored == shadow.points[handle], "handle \(handle)")
            #expect(index.contains(handle: handle) == (shadow.points[handle] != nil))
        }
        let everything = try index.inBox(south: -90, west: -180, north: 90, east: 180)
        #expect(everything == shadow.points.keys.sorted())
    }
}
