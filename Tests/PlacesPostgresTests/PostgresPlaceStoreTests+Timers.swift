import Foundation
import Geo
import Places
import Testing

@testable import PlacesPostgres

/// Users' timers on several nodes of one database (issue 18): every node runs the timers it finds
/// due, so two run the same one; the record changes once, and the nodes agree.
extension PostgresPlaceStoreTests {
    /// A node on the test's clock, locations lasting an hour; following the log unless told not to.
    static func timedNode(_ store: PostgresPlaceStore, clock: ManualClock, follows: Bool = true) async throws
        -> DurableDirectory
    {
        let node = try await onThread {
            try DurableDirectory(loading: store) { $0.privacy = clock.privacy(.street, locationTTLSeconds: 3_600) }
        }
        if follows { node.follow(pollInterval: 1) }
        return node
    }

    static func record(_ node: DurableDirectory, _ id: String) -> User? {
        node.read { try? $0.user(id, as: .admin) }
    }

    @Test func twoNodesRunTheSameDueTimerAndTheRecordChangesOnce() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let clock = ManualClock()
        let here = try Coordinate(latitude: 41, longitude: 29)
        let setupStore = try await Self.open(database)
        let setup = try await Self.timedNode(setupStore, clock: clock, follows: false)
        try await setup.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        let added = try #require(Self.record(setup, "ada"))
        setup.close()
        setupStore.close()

        // Both nodes hold Ada with the same expiry, and neither hears of the other's run before
        // its own: both run the timer, at once.
        let storeA = try await Self.open(database)
        let storeB = try await Self.open(database)
        let a = try await Self.timedNode(storeA, clock: clock, follows: false)
        let b = try await Self.timedNode(storeB, clock: clock, follows: false)
        defer {
            a.close()
            b.close()
            storeA.close()
            storeB.close()
        }
        let before = try await onThread { try storeA.head().position }
        clock.advance(3_600)
        async let first = a.runDueUserTimers()
        async let second = b.runDueUserTimers()
        let runs = await [first, second]
        #expect(runs == [1, 1], "both nodes ran the timer: \(runs)")

        var forgotten = added
        forgotten.location = nil
        forgotten.locationExpiresAt = nil
        #expect(Self.record(a, "ada") == forgotten)
        #expect(Self.record(b, "ada") == forgotten)
        let stored = try await onThread { try storeA.users() }.first { $0.user.id == "ada" }?.user
        #expect(stored == forgotten)
        // The two runs logged two changes, each the one forgotten record: it changed once.
        let logged = try await onThread { try storeA.changes(after: before, limit: 100) }
        guard case .changes(let entries) = logged else {
            Issue.record("the log was trimmed")
            return
        }
        #expect(entries.count == 2)
        for entry in entries {
            guard case .putUser(let user, _) = entry.change else {
                Issue.record("unexpected change \(entry.change)")
                continue
            }
            #expect(user == forgotten)
        }
        // A node started now loads the same record.
        let followerStore = try await Self.open(database)
        let follower = try await onThread { try DurableDirectory(loading: followerStore) }
        defer {
            follower.close()
            followerStore.close()
        }
        #expect(Self.record(follower, "ada") == forgotten)
        #expect(await a.runDueUserTimers() == 0)
        #expect(await b.runDueUserTimers() == 0)
    }

    @Test func aLateRunOfAnOldTimerKeepsTheNewLocation() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let clock = ManualClock()
        let here = try Coordinate(latitude: 41, longitude: 29)
        let setupStore = try await Self.open(database)
        let setup = try await Self.timedNode(setupStore, clock: clock, follows: false)
        let token = try await setup.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        setup.close()
        setupStore.close()

        // Two nodes that do not follow: B hears of nothing A does until its own write answers.
        let storeA = try await Self.open(database)
        let storeB = try await Self.open(database)
        let a = try await Self.timedNode(storeA, clock: clock, follows: false)
        let b = try await Self.timedNode(storeB, clock: clock, follows: false)
        defer {
            a.close()
            b.close()
            storeA.close()
            storeB.close()
        }
        clock.advance(3_600)
        #expect(await a.runDueUserTimers() == 1)
        let moved = try Coordinate(latitude: 41.001, longitude: 29)
        try await a.perform(.moveUser("ada", to: moved), presenting: token)
        let current = try #require(Self.record(a, "ada"))
        #expect(current.location == moved)
        #expect(Self.record(b, "ada")?.location == here, "B's memory is stale")
        #expect(await b.runDueUserTimers() == 1)
        #expect(Self.record(b, "ada") == current, "B took the stored record")
        let stored = try await onThread { try storeB.users() }.first { $0.user.id == "ada" }?.user
        #expect(stored == current, "the late run did not forget the new location")
    }
}
