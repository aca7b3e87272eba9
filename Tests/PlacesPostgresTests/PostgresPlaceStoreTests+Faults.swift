import Foundation
import Places
import Testing

@testable import PlacesPostgres

/// Losing the database: a commit is refused at once while the connection is down, and the store
/// comes back by itself.
extension PostgresPlaceStoreTests {
    static func isUnavailable(_ error: any Error) -> Bool {
        if case .storeUnavailable = error as? PlacesError { return true }
        return false
    }

    /// Retries a commit until it succeeds, for up to `seconds`.
    static func commitEventually(_ store: PostgresPlaceStore, _ change: DirectoryChange, seconds: Double = 15) async
        -> Bool
    {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if (try? await onThread({ try store.commit([change]) })) != nil { return true }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    @Test func aTerminatedConnectionRefusesAtOnceThenRecovers() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        _ = try await onThread { try store.commit([.putPlace(try Self.place("before", 1, 1))]) }

        // Right after the sessions end, a commit either finds the connection gone (and is refused at
        // once) or already replaced (and succeeds); it never waits for a timeout.
        try await database.terminateSessions()
        let start = Date()
        var expected = ["after", "before"]
        do {
            _ = try await onThread { try store.commit([.putPlace(try Self.place("during", 1, 1))]) }
            expected.append("during")
        } catch {
            #expect(Self.isUnavailable(error), "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 1, "answered at once, not after a timeout")

        #expect(await Self.commitEventually(store, .putPlace(try Self.place("after", 1, 1))))
        #expect(try await onThread { try store.places() }.map(\.id).sorted() == expected.sorted())
    }

    /// Notifications sent while the LISTEN connection is down are lost: once it is back, a wait
    /// returns at once so that the follower reads what it missed.
    @Test func aWaitReturnsAtOnceAfterTheListenerReconnects() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        func waited(_ timeout: Double) async throws -> Double {
            let start = Date()
            try await onThread { store.waitForChanges(after: 1_000_000, timeout: timeout) }
            return Date().timeIntervalSince(start)
        }
        // The first LISTEN counts as a reconnect; then nothing happens, so a wait lasts its timeout.
        try await Task.sleep(nanoseconds: 500_000_000)
        _ = try await waited(0.05)
        #expect(try await waited(0.5) >= 0.45)

        try await database.terminateSessions()
        #expect(try await waited(10) < 5, "the wait should end once the listener is back")
        // And a commit's notification wakes a waiter.
        let writer = try await Self.open(database)
        defer { writer.close() }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            _ = try? writer.commit([.removeUser("nobody")])
            _ = try? writer.commit([.setAdminToken(Token.issue().digest)])
        }
        let start = Date()
        try await onThread { store.waitForChanges(after: 0, timeout: 10) }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// A server that holds a commit without answering (here a lock another session keeps) costs
    /// one timeout: the connection is dropped, the commit fails as unavailable with nothing
    /// stored, and the next commit runs on a new connection.
    @Test func aCommitTheServerDoesNotAnswerFailsAfterTheTimeout() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let settings = database.settings
        let store = try await onThread { try PostgresPlaceStore(settings: settings, answerTimeout: 1) }
        defer { store.close() }
        let holding = Task {
            try await database.sql { connection in
                try await connection.query("BEGIN", logger: TestDatabase.quiet)
                try await connection.query(
                    "LOCK TABLE vicinity_log_head IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.quiet)
                try await Task.sleep(nanoseconds: 3_000_000_000)
                try await connection.query("ROLLBACK", logger: TestDatabase.quiet)
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let start = Date()
        await #expect {
            _ = try await onThread { try store.commit([.putPlace(try Self.place("held", 1, 1))]) }
        } throws: { error in
            Self.isUnavailable(error) && "\(error)".contains("nothing was stored")
        }
        #expect(Date().timeIntervalSince(start) < 2.5)
        try await holding.value
        #expect(await Self.commitEventually(store, .putPlace(try Self.place("after", 1, 1))))
        #expect(try await onThread { try store.places() }.map(\.id) == ["after"])
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["VICINITY_TEST_POSTGRES_PAUSE"] != nil,
            "needs scripts/postgres-tests.sh's pause and resume scripts"))
    func aStoppedServerRefusesAtOnceAndANodeCatchesUpWhenItIsBack() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let writer = try await Self.open(database)
        let followerStore = try await Self.open(database)
        let follower = try await Self.node(followerStore)
        defer {
            follower.close()
            followerStore.close()
            writer.close()
        }
        _ = try await onThread { try writer.commit([.putPlace(try Self.place("before", 1, 1))]) }
        #expect(await eventually { follower.read { $0.places.count } == 1 })

        #expect(runControlScript("VICINITY_TEST_POSTGRES_PAUSE"))
        do {
            try await Task.sleep(nanoseconds: 200_000_000)
            let start = Date()
            await #expect {
                _ = try await onThread { try writer.commit([.putPlace(try Self.place("during", 1, 1))]) }
            } throws: { Self.isUnavailable($0) }
            #expect(Date().timeIntervalSince(start) < 1, "refused at once, not after a timeout")
            await #expect { _ = try await onThread { try writer.head() } } throws: { Self.isUnavailable($0) }
            // Reads keep answering from memory.
            #expect(follower.read { $0.places.count } == 1)
        }
        #expect(runControlScript("VICINITY_TEST_POSTGRES_RESUME"))

        #expect(await Self.commitEventually(writer, .putPlace(try Self.place("after", 1, 1))))
        #expect(await eventually(15) { follower.read { $0.places.place(kind: "pharmacy", id: "after") != nil } })
        #expect(follower.read { $0.places.place(kind: "pharmacy", id: "during") } == nil)
    }
}
