import Testing

@testable import Geo

/// Bugs found by the property tests, each reduced to the smallest input that shows it.
@Suite struct GridIndexRegressionTests {
    /// Found 2026-11-22 by `GridIndexPropertyTests.boxesMatchBruteForce`: a box crossing ±180°
    /// whose east edge is exactly -180 (`west > east`) must hold the points stored at longitude
    /// -180 (`inBox` compares longitudes as numbers, and -180 ≤ east). The cell cover maps east to
    /// east + 360 = 180 and visits only the last column of each row, never column 0 where -180
    /// lives, so those points are lost unless the cover falls back to every cell.
    @Test(arguments: [
        (south: 9.999, west: 179.999, north: 10.001, east: -180.0),
        (south: 9.999, west: 180.0, north: 10.001, east: -180.0),
    ])
    func boxEndingAtMinus180KeepsPointsStoredAtMinus180(south: Double, west: Double, north: Double, east: Double)
        throws
    {
        var index = try GridIndex(cellSizeMeters: 250)
        try index.insert(handle: 0, at: Coordinate(latitude: 10, longitude: -180))
        try index.insert(handle: 1, at: Coordinate(latitude: 10, longitude: 180))
        try index.insert(handle: 2, at: Coordinate(latitude: 10, longitude: 170))
        #expect(try index.inBox(south: south, west: west, north: north, east: east) == [0, 1])
    }

    /// The same at the south pole: a polar cap box from 180 round to -180.
    @Test func polarBoxEndingAtMinus180KeepsPointsStoredAtMinus180() throws {
        var index = try GridIndex(cellSizeMeters: 5_000)
        try index.insert(handle: 0, at: Coordinate(latitude: -90, longitude: -180))
        try index.insert(handle: 1, at: Coordinate(latitude: -90, longitude: 180))
        try index.insert(handle: 2, at: Coordinate(latitude: -90, longitude: 0))
        try index.insert(handle: 3, at: Coordinate(latitude: 0, longitude: 0))
        #expect(try index.inBox(south: -90, west: 180, north: -89.99, east: -180) == [0, 1])
    }

    /// Found 2026-11-22 by `GridIndexPropertyTests.radiusCountAndNearestMatchBruteForce`: a hit the
    /// geodesic model accepts from its chord reports the midpoint of the chord bounds, which is up
    /// to their half-width (~1.3 mm at 50 km, ~60 µm at 18 km) away from `Geodesic.wgs84.distance`,
    /// while `GridHit.distanceMeters` promises 0.2 µm and the index promises brute-force results.
    /// Along a meridian at the equator the curvature is the largest anywhere, so the error is too.
    @Test func geodesicHitDistanceIsTheModelDistance() throws {
        var index = try GridIndex(cellSizeMeters: 250)
        let center = try Coordinate(latitude: 0, longitude: 0)
        let point = try Coordinate(latitude: 0.45, longitude: 0)
        try index.insert(handle: 7, at: point)
        let exact = Geodesic.wgs84.distance(center, point)  // 49,758.434393 m
        let within = try index.within(radiusMeters: 60_000, of: center, model: .geodesic)
        let nearest = try index.nearest(1, to: center, model: .geodesic)
        #expect(within.map(\.handle) == [7])
        #expect(nearest.map(\.handle) == [7])
        #expect(abs((within.first?.distanceMeters ?? 0) - exact) <= 2e-7)
        #expect(abs((nearest.first?.distanceMeters ?? 0) - exact) <= 2e-7)
    }

    /// Found 2026-11-22 by `GridIndexMutationTests` against the working tree: when the cap's
    /// 1e-9° safety margin reaches across a row boundary into the row below, every latitude of
    /// that row's band lies outside the cap, so hav Δλ at all of them is negative; without a floor
    /// at 0 its square root is NaN and `GridLayout.column` traps converting NaN to Int.
    @Test(arguments: [DistanceModel.geodesic, .sphere])
    func capGrazingARowBoundaryDoesNotTrap(model: DistanceModel) throws {
        var index = try GridIndex(cellSizeMeters: 250)
        let boundary = index.layout.south(row: index.layout.row(latitude: 41))
        let center = Coordinate(unchecked: boundary + 5e-10, 29)
        try index.insert(handle: 0, at: center)
        try index.insert(handle: 1, at: Coordinate(unchecked: boundary - 1e-3, 29))
        #expect(try index.within(radiusMeters: 0, of: center, model: model).map(\.handle) == [0])
        #expect(try index.within(radiusMeters: 1, of: center, model: model).map(\.handle) == [0])
    }

    /// Found 2026-11-22 by `GridIndexMutationTests`: `grow` compacts only when
    /// `staleSlots * 2 > arena`, but every growth adds as many slots to the owning cell as it
    /// makes stale (and a new cell's first block makes none), so stale slots never exceed half
    /// the arena and the arena is never compacted on its own. Points that keep moving between
    /// cells leave emptied, oversized blocks behind: here 3,000 points end up in an arena of
    /// about 61,000 slots, nearly half of them stale.
    @Test func churnCompactsTheArenaOnItsOwn() throws {
        var random = SplitMix64(seed: 1)
        var mixture = PointMixture(seed: 2)
        var index = try GridIndex(cellSizeMeters: 250)
        let hotSpots = (0..<6).map { _ in Coordinate(unchecked: random.uniform(-60...60), random.longitude()) }
        for handle in UInt32(0)..<3_000 { try index.insert(handle: handle, at: mixture.next()) }
        var compacted = false
        var largestStale = 0
        for step in 0..<200_000 {
            let hotSpot = hotSpots[(step / 20_000) % hotSpots.count]
            let before = index.staleSlots
            try index.move(handle: UInt32(random.next() % 3_000), to: mixture.near(hotSpot, spreadMeters: 30))
            compacted = compacted || index.staleSlots < before
            largestStale = max(largestStale, index.staleSlots)
        }
        #expect(largestStale > 4_096)
        #expect(compacted, "arena \(index.handles.count) slots for \(index.count) points, \(index.staleSlots) stale")
    }

    /// Found 2026-11-22 by `GridIndexPropertyTests`: points at a pole with different longitudes are
    /// all 0 m from a query at that pole (`geod_inverse`), but their chord estimates are a few
    /// 1e-11 m apart. The group of near-ties was formed, yet its estimates were taken for exact
    /// distances (the "exact" mark was derived from the distance being set), so the group kept the
    /// estimates' order instead of exact ties ordered by handle.
    @Test func poleTiesAreExactAndOrderedByHandle() throws {
        var random = SplitMix64(seed: 99)
        var points: [(handle: UInt32, coordinate: Coordinate)] = []
        for handle in UInt32(0)..<40 {
            let latitude = handle % 2 == 0 ? -90 : -90 + random.uniform(0...0.000004)
            points.append((handle, Coordinate(unchecked: latitude, random.uniform(-180...180))))
        }
        var index = try GridIndex(cellSizeMeters: 250)
        try index.insert(contentsOf: points)
        let center = Coordinate(unchecked: -90, 75.56829892782474)
        let hits = try index.within(radiusMeters: 1, of: center, model: .geodesic)
        let brute = BruteForce(points: points).ranked(from: center, model: .geodesic).within(1)
        #expect(hits.map(\.handle) == brute.map(\.handle))
        #expect(hits.prefix(20).allSatisfy { $0.distanceMeters == 0 })
    }

    /// Found 2026-11-22 by `GridIndexPropertyTests`: results thousands of kilometers away get
    /// exact distances, but were sorted by squared chord, which orders them differently from the
    /// geodesic (a hit 12,306 km away came before one 12,279 km away).
    @Test func longGeodesicResultsAreOrderedByDistance() throws {
        var mixture = PointMixture(seed: 5)
        let points = (UInt32(0)..<600).map { (handle: $0, coordinate: mixture.draw(.uniform)) }
        var index = try GridIndex(cellSizeMeters: 5_000)
        try index.insert(contentsOf: points)
        let center = Coordinate(unchecked: 35.37973439551659, -16.035623179227123)
        let hits = try index.within(radiusMeters: 19_000_000, of: center, model: .geodesic)
        let brute = BruteForce(points: points).ranked(from: center, model: .geodesic).within(19_000_000)
        #expect(hits.map(\.handle) == brute.map(\.handle))
    }

    /// Found 2026-11-22 by `GridIndexPropertyTests`: in a query long enough to sort by squared
    /// distance, a near hit's estimated distance was turned into the sort key and then estimated
    /// again as if the key were a squared chord: 1.3 µm off at 1 km.
    @Test func nearHitsOfLongQueriesKeepTheirDistance() throws {
        let center = Coordinate(unchecked: 35.37973439551659, -16.035623179227123)
        let near = Geodesic.wgs84.destination(from: center, bearing: 40, distanceMeters: 1_083)
        let far = Geodesic.wgs84.destination(from: center, bearing: 200, distanceMeters: 2_500_000)
        var index = try GridIndex(cellSizeMeters: 250)
        try index.insert(handle: 0, at: near)
        try index.insert(handle: 1, at: far)
        let hits = try index.within(radiusMeters: 3_000_000, of: center, model: .geodesic)
        #expect(hits.map(\.handle) == [0, 1])
        #expect(abs((hits.first?.distanceMeters ?? 0) - Geodesic.wgs84.distance(center, near)) <= 2e-7)
    }
}
