import Foundation
import Geo
import Places
import Testing

@testable import PlacesPostgres

/// Several nodes on one database: each a `DurableDirectory` over a store of its own.
extension PostgresPlaceStoreTests {
    static func node(_ store: PostgresPlaceStore) async throws -> DurableDirectory {
        let directory = try await onThread { try DurableDirectory(loading: store) }
        directory.follow(pollInterval: 1)
        return directory
    }

    static func attempt(_ request: DirectoryRequest, on node: DurableDirectory) async -> PlacesError? {
        do {
            try await node.perform(request, by: .admin)
            return nil
        } catch {
            return error
        }
    }

    @Test func twoNodesShareOneDatabase() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let storeA = try await Self.open(database)
        let storeB = try await Self.open(database)
        let a = try await Self.node(storeA)
        let b = try await Self.node(storeB)
        defer {
            a.close()
            b.close()
            storeA.close()
            storeB.close()
        }

        // One id added on both at once: exactly one wins.
        async let first = Self.attempt(.addUser(User(id: "zeynep", name: "Z")), on: a)
        async let second = Self.attempt(.addUser(User(id: "zeynep", name: "Z")), on: b)
        let outcomes = await [first, second]
        #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
        #expect(outcomes.contains(.userExists("zeynep")), "\(outcomes)")

        // A write on one is applied by the other's follower.
        try await a.perform(.setPlace(try Self.place("from-a", 41, 29)), by: .admin)
        #expect(await eventually { b.read { $0.places.place(kind: "pharmacy", id: "from-a") != nil } })
        #expect(await eventually { b.read { $0.userCount } == 1 })

        // Rotating the admin token on one retires the old token on the other.
        let old = try #require(try await a.perform(.rotateAdminToken, by: .admin))
        #expect(await eventually { b.read { try? $0.principal(presenting: old) } == .admin })
        let new = try #require(try await a.perform(.rotateAdminToken, by: .admin))
        #expect(await eventually { b.read { try? $0.principal(presenting: new) } == .admin })
        await #expect(throws: PlacesError.invalidToken) {
            try await b.perform(.setPlace(try Self.place("late", 1, 1)), presenting: old)
        }
        #expect(b.replication.reloads == 0)
    }

    /// The gap test: many writers on several stores of one database while a node follows and a
    /// plain reader tails the log, trusting it (each read asks for what comes after the last
    /// position it saw). With positions from the head row the tail sees every position and the
    /// follower ends exactly where a fresh snapshot is; with positions from a sequence
    /// (`unsafeSequence`) the tail skips changes that committed after a higher number did.
    @Test(arguments: [false, true])
    func aFollowerOfManyConcurrentWritersMissesNothing(unsafe: Bool) async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let sequencing: LogSequencing = unsafe ? .unsafeSequence(delaySeconds: 0.03) : .headRow
        var writers: [PostgresPlaceStore] = []
        for _ in 0..<4 { writers.append(try await Self.open(database, sequencing: sequencing)) }
        let followerStore = try await Self.open(database)
        let follower = try await Self.node(followerStore)
        defer {
            follower.close()
            followerStore.close()
            for writer in writers { writer.close() }
        }

        let tailStore = try await Self.open(database)
        defer { tailStore.close() }
        let tail = LogTail()
        Thread.detachNewThread { tail.run(tailStore) }

        let threadsPerStore = 2
        let commitsPerThread = 25
        let stores = writers
        let failures = try await onThread { () -> Int in
            let done = DispatchGroup()
            let failed = ProgressCounter()
            for (storeIndex, store) in stores.enumerated() {
                for thread in 0..<threadsPerStore {
                    done.enter()
                    Thread.detachNewThread {
                        defer { done.leave() }
                        for index in 0..<commitsPerThread {
                            let place = try! Self.place("s\(storeIndex)-t\(thread)-\(index)", kind: "gap", 1, 1)
                            do { _ = try store.commit([.putPlace(place)]) } catch { failed.record(failed.last + 1) }
                        }
                    }
                }
            }
            done.wait()
            return failed.last
        }
        #expect(failures == 0)

        let head = try await onThread { try followerStore.head() }
        _ = await eventually(15) { follower.appliedPosition >= head.position && tail.position >= head.position }
        tail.stop()
        // Long enough for a poll, or a backoff after a gap, to have come round.
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let stored = Set(try await onThread { try followerStore.places() }.filter { $0.kind == "gap" }.map(\.id))
        let followed = Set(
            follower.read { directory in stored.filter { directory.places.place(kind: "gap", id: $0) != nil } })
        #expect(stored.count == writers.count * threadsPerStore * commitsPerThread)
        let unseen = Set(1...head.position).subtracting(tail.seen)
        if unsafe {
            #expect(!unseen.isEmpty, "the unsafe sequence should have made the tail skip a change")
        } else {
            #expect(unseen.isEmpty, "the tail skipped positions \(unseen.sorted())")
            #expect(followed == stored, "the follower missed \(stored.subtracting(followed).sorted())")
            #expect(follower.replication.reloads == 0)
            #expect(follower.appliedPosition == head.position)
        }
    }
}

/// A reader that trusts the log to be gap-free in commit order: it asks for what comes after the
/// last position it saw, and counts every position it was shown.
final class LogTail: @unchecked Sendable {
    private let lock = NSLock()
    private var seenPositions = Set<LogPosition>()
    private var last: LogPosition = 0
    private var stopped = false

    var seen: Set<LogPosition> { lock.withLock { seenPositions } }
    var position: LogPosition { lock.withLock { last } }
    func stop() { lock.withLock { stopped = true } }

    func run(_ store: PostgresPlaceStore) {
        while !lock.withLock({ stopped }) {
            let after = position
            switch try? store.changes(after: after, limit: 1_000) {
            case .changes(let entries) where !entries.isEmpty:
                lock.withLock {
                    seenPositions.formUnion(entries.map(\.position))
                    last = entries.last!.position
                }
            case .trimmed(let oldestKept):
                // Nothing was trimmed: the log skipped a position that had not committed yet.
                lock.withLock { last = oldestKept - 1 }
            default:
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }
}
