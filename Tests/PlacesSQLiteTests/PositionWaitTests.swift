import Foundation
import Places
import PlacesSQLite
import TestSupport
import Testing

/// Read-your-writes across two servers of one SQLite file: a wait for a position (what
/// `Vicinity-Min-Position` and `WAITPOS` are built on) is released once the follower applies
/// the other server's write, and runs out when no one writes it.
@Suite(.timeLimit(.minutes(10))) struct PositionWaitTests {
    @Test func aWaitIsReleasedByAnotherServersWriteToTheSameFile() async throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let reader = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        let writer = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        defer {
            reader.close()
            writer.close()
        }
        reader.follow(pollInterval: 0.05)
        let wanted = reader.appliedPosition + 1
        async let released = reader.waitUntilApplied(wanted, timeout: 50)
        try await Task.sleep(for: .milliseconds(50))
        let receipt = try await writer.performWithReceipt(
            .setPlace(try SQLitePlaceStoreTests.place("elsewhere", 41, 29)), by: .admin)
        #expect(receipt.position == wanted)
        #expect(await released)
        #expect(reader.read { $0.places.place(kind: "pharmacy", id: "elsewhere") } != nil)
        #expect(reader.replication.followedChanges == 1 && reader.replication.ownChanges == 0)
    }

    @Test func aWaitForAPositionNoOneWroteRunsOut() async throws {
        let reader = try DurableDirectory(
            loading: try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase()))
        defer { reader.close() }
        reader.follow(pollInterval: 0.05)
        #expect(await reader.waitUntilApplied(reader.appliedPosition, timeout: 0))
        #expect(await !reader.waitUntilApplied(reader.appliedPosition + 1, timeout: 0.1))
    }
}
