import Foundation
import Geo
import Synchronization
import TestSupport
import Testing

@testable import Places

/// `DurableDirectory.transact`: a group of writes planned in order against a private copy, stored
/// all or none in one transaction, invisible to other readers until stored.
@Suite(.timeLimit(.minutes(10))) struct DirectoryTransactionTests {
    static func place(_ id: String, kind: String = "shop") throws -> Place {
        Place(id: id, kind: kind, name: id, coordinate: try Coordinate(latitude: 41, longitude: 29))
    }

    static func transact<T: Sendable>(
        _ durable: DurableDirectory, _ body: @escaping @Sendable (DirectoryTransaction) -> T
    )
        async -> Result<T, PlacesError>
    {
        await withCheckedContinuation { continuation in
            durable.transact(body) { continuation.resume(returning: $0) }
        }
    }

    @Test func theGroupSeesItsOwnWritesAndOthersSeeThemOnlyOnceStored() async throws {
        let store = MemoryStore(gated: true)
        let durable = DurableDirectory(PlaceDirectory(places: try PlaceCatalog()), store: store)
        defer { durable.close() }
        let first = try Self.place("a")
        let second = try Self.place("b")
        async let result = Self.transact(durable) { transaction in
            // swift-format-ignore: NeverUseForceTry
            try! transaction.perform(.setPlace(first), by: .admin)
            // swift-format-ignore: NeverUseForceTry
            try! transaction.perform(.setPlace(second), by: .admin)
            return durable.read { $0.places.count(kind: "shop") }
        }
        // Waited for off the cooperative pool, which a blocked thread would starve.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                store.gate?.entered.wait()
                continuation.resume()
            }
        }
        #expect(durable.read { $0.places.count(kind: "shop") } == 0, "not visible before the commit")
        let before = durable.version(ofKey: "shop")
        store.gate?.release.signal()
        #expect(try await result.get() == 2, "the body read its own writes")
        #expect(durable.read { $0.places.count(kind: "shop") } == 2)
        #expect(store.transactions.map(\.count) == [2], "one store transaction")
        #expect(durable.version(ofKey: "shop") > before)
    }

    @Test func aRolledBackGroupStoresNothing() async throws {
        let store = MemoryStore()
        let durable = DurableDirectory(PlaceDirectory(places: try PlaceCatalog()), store: store)
        defer { durable.close() }
        let place = try Self.place("a")
        let result = await Self.transact(durable) { transaction in
            // swift-format-ignore: NeverUseForceTry
            try! transaction.perform(.setPlace(place), by: .admin)
            transaction.rollBack()
            return transaction.isRolledBack
        }
        #expect(try result.get())
        #expect(store.transactions.isEmpty)
        #expect(durable.read { $0.places.count(kind: "shop") } == 0)
        #expect(durable.version(ofKey: "shop") == 0)
    }

    @Test func aStoreFailureLeavesMemoryAsItWas() async throws {
        let store = MemoryStore()
        store.fail { _ in true }
        let durable = DurableDirectory(PlaceDirectory(places: try PlaceCatalog()), store: store)
        defer { durable.close() }
        let place = try Self.place("a")
        let result = await Self.transact(durable) { transaction in
            // swift-format-ignore: NeverUseForceTry
            try! transaction.perform(.setPlace(place), by: .admin)
        }
        #expect(throws: PlacesError.self) { try result.get() }
        #expect(durable.read { $0.places.count(kind: "shop") } == 0)
    }
}
