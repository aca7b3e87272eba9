import Testing

@testable import Geo

/// The builder's in-place load against the bulk insert: the same cells, blocks and slots, so
/// every query answers the same; then the built index takes mutations as any other.
@Suite struct GridIndexBuilderTests {
    @Test(arguments: [50.0, 250.0, 5_000.0])
    func buildsTheIndexTheBulkInsertBuilds(cellSize: Double) throws {
        var mixture = PointMixture(seed: 0xB011D ^ UInt64(cellSize))
        let points = (0..<5_000).map { (handle: UInt32(($0 * 7_919) % 5_000), coordinate: mixture.next()) }
        var inserted = try GridIndex(cellSizeMeters: cellSize)
        try inserted.insert(contentsOf: points)
        var builder = GridIndexBuilder(reservingCapacity: points.count)
        for point in points { try builder.append(handle: point.handle, at: point.coordinate) }
        var built = builder.build(into: try GridIndex(cellSizeMeters: cellSize))
        #expect(built.count == inserted.count)
        #expect(built.stored.capacity == points.count)
        var shadow = BruteForce(points: points)
        try GridIndexMutationTests.expectSameContents(built, shadow)
        for handle in UInt32(0)..<5_000 {
            #expect(built.coordinate(of: handle) == inserted.coordinate(of: handle))
        }
        for _ in 0..<20 {
            let center = mixture.next()
            #expect(
                try built.within(radiusMeters: 3_000, of: center, model: .geodesic)
                    == inserted.within(radiusMeters: 3_000, of: center, model: .geodesic))
        }
        for handle in UInt32(0)..<500 {
            let point = mixture.next()
            try built.insert(handle: handle * 3, at: point)
            shadow.points[handle * 3] = point
        }
        try GridIndexMutationTests.expectSameContents(built, shadow)
    }

    /// A built index gives each point the handle of its slot: the old handles' slots are a
    /// permutation in grid order, and the renumbered index holds the same points under the new
    /// handles, then takes mutations; an index with spare room is not renumbered.
    @Test func numbersHandlesBySlotInGridOrder() throws {
        var mixture = PointMixture(seed: 0x51075)
        let points = (0..<4_000).map { (handle: UInt32(($0 * 7_919) % 4_000), coordinate: mixture.next()) }
        var builder = GridIndexBuilder(reservingCapacity: points.count)
        for point in points { try builder.append(handle: point.handle, at: point.coordinate) }
        var index = builder.build(into: try GridIndex(cellSizeMeters: 250))
        let newHandles = try #require(index.withSlotOfEachHandle { Array($0) })
        #expect(newHandles.sorted() == (0..<UInt32(4_000)).map { $0 })
        index.numberHandlesBySlot()
        var shadow = BruteForce(points: points.map { (handle: newHandles[Int($0.handle)], coordinate: $0.coordinate) })
        try GridIndexMutationTests.expectSameContents(index, shadow)
        #expect(index.handles == (0..<UInt32(4_000)).map { $0 })
        for handle in UInt32(0)..<300 {
            let point = mixture.next()
            try index.insert(handle: handle * 5, at: point)
            shadow.points[handle * 5] = point
        }
        index.remove(handle: 17)
        shadow.points[17] = nil
        try GridIndexMutationTests.expectSameContents(index, shadow)
        #expect(index.withSlotOfEachHandle { _ in true } == nil)
    }
}
