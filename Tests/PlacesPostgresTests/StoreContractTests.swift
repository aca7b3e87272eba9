import Foundation
import Geo
import Places
import PlacesPostgres
import PlacesSQLite
import TestSupport
import Testing

/// Which store a contract test runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// SQLite always; PostgreSQL when `$VICINITY_TEST_POSTGRES` names a server.
    static var available: [StoreKind] { TestDatabase.enabled ? [.sqlite, .postgres] : [.sqlite] }
}

/// One database of a contract test: any number of stores on it (several connections, processes
/// or nodes), each opened by `open()`.
struct ContractDatabase: Sendable {
    let open: @Sendable () throws -> any BulkPlaceStore
    let cleanup: @Sendable () async -> Void

    static func make(_ kind: StoreKind) async throws -> ContractDatabase {
        switch kind {
        case .sqlite:
            let folder = try TemporaryDirectory(prefix: "vicinity-contract")
            let path = folder.file("test.sqlite")
            return ContractDatabase(open: { try SQLitePlaceStore(path: path) }, cleanup: { folder.remove() })
        case .postgres:
            let database = try await TestDatabase.create()
            return ContractDatabase(
                open: { try PostgresPlaceStore(settings: database.settings) }, cleanup: { await database.drop() })
        }
    }
}

/// The `PlaceStore` contract of issue 16, on every store: gap-free positions in commit order across
/// connections (a tailing reader misses nothing), whole transactions, user changes logged as the
/// stored record, the database deciding "replaced", trimming and the snapshot a follower behind it
/// reloads, directories following each other, imports logged with their removals.
///
/// Serialized: the PostgreSQL fault tests of this target stop the shared server.
@Suite(.serialized, .timeLimit(.minutes(10))) struct StoreContractTests {
    static func place(_ id: String, _ latitude: Double = 41, _ longitude: Double = 29) throws -> Place {
        Place(
            id: id, kind: "pharmacy", name: "Name \(id)",
            coordinate: try Coordinate(latitude: latitude, longitude: longitude),
            attributes: ["city": "Istanbul", "phone": "1"], attributeNames: ["phone", "city"])
    }

    /// Waits up to `seconds` for `condition`; whether it came true.
    static func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return try condition()
    }

    /// Runs a test body on a thread of its own (store calls block their thread) against a fresh
    /// database of `kind`.
    static func run(_ kind: StoreKind, _ body: @escaping @Sendable (ContractDatabase) throws -> Void) async throws {
        let database = try await ContractDatabase.make(kind)
        do {
            try await onThread { try body(database) }
        } catch {
            await database.cleanup()
            throw error
        }
        await database.cleanup()
    }

    /// Must show 1, in the store: writers on four connections at once; the log holds every change
    /// once, at positions 1…N without a gap, and a reader tailing it while they write sees every
    /// position once, in order.
    @Test(arguments: StoreKind.available) func positionsAreGapFreeInCommitOrderAcrossConnections(kind: StoreKind)
        async throws
    {
        try await Self.run(kind) { database in
            let writers = 4
            let commits = 40
            let tail = try database.open()
            let seen = Box<[LogPosition]>([])
            let done = Box<Int>(0)
            let tailer = Thread {
                var last: LogPosition = 0
                while true {
                    let finished = done.value == writers
                    if case .changes(let entries) = try? tail.changes(after: last, limit: 7) {
                        seen.update { $0 += entries.map(\.position) }
                        last = entries.last?.position ?? last
                    }
                    if finished, (try? tail.head().position) == last { break }
                }
                done.update { $0 += 1 }
            }
            tailer.start()
            let failures = Box<[String]>([])
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                do {
                    let store = try database.open()
                    for commit in 0..<commits {
                        let changes = try (0..<(1 + commit % 3)).map { item in
                            DirectoryChange.putPlace(try Self.place("w\(writer)-\(commit)-\(item)"))
                        }
                        _ = try store.commit(changes)
                    }
                } catch {
                    failures.update { $0.append("\(error)") }
                }
                done.update { $0 += 1 }
            }
            #expect(failures.value.isEmpty, "\(failures.value)")
            #expect(Self.eventually { done.value == writers + 1 })
            let total = LogPosition(writers * (0..<commits).reduce(0) { $0 + 1 + $1 % 3 })
            #expect(try tail.head().position == total)
            #expect(seen.value == Array(1...total), "the tailing reader saw every position once, in order")
        }
    }

    @Test(arguments: StoreKind.available) func aReadNeverSplitsATransaction(kind: StoreKind) async throws {
        try await Self.run(kind) { database in
            let store = try database.open()
            _ = try store.commit([.putPlace(try Self.place("a"))])
            _ = try store.commit((0..<5).map { .putPlace(try Self.place("b\($0)")) })
            guard case .changes(let entries) = try store.changes(after: 1, limit: 2) else {
                Issue.record("trimmed")
                return
            }
            #expect(entries.map(\.position) == [2, 3, 4, 5, 6])
            guard case .changes(let none) = try store.changes(after: 6, limit: 2) else { return }
            #expect(none.isEmpty)
        }
    }

    @Test(arguments: StoreKind.available) func userChangesAreLoggedAsTheWholeStoredRecord(kind: StoreKind)
        async throws
    {
        try await Self.run(kind) { database in
            let store = try database.open()
            let (_, digest) = Token.issue()
            let here = try Coordinate(latitude: 41, longitude: 29)
            _ = try store.commit([.addUser(User(id: "ayse", name: "Ayşe", location: here), tokenDigest: digest)])
            _ = try store.commit([.setVisibility("ayse", .private)])
            guard case .changes(let entries) = try store.changes(after: 0, limit: 10) else { return }
            #expect(
                entries.map(\.change) == [
                    .putUser(User(id: "ayse", name: "Ayşe", location: here, precision: .street), tokenDigest: digest),
                    .putUser(
                        User(id: "ayse", name: "Ayşe", location: here, visibility: .private, precision: .street),
                        tokenDigest: digest),
                ])
        }
    }

    @Test(arguments: StoreKind.available) func theDatabaseDecidesWhetherAPlaceWasReplaced(kind: StoreKind)
        async throws
    {
        try await Self.run(kind) { database in
            let store = try database.open()
            let first = try store.commit([.putPlace(try Self.place("a"))])
            let second = try store.commit([.putPlace(try Self.place("a", 41.1)), .putPlace(try Self.place("b"))])
            #expect(first.replaced == [false])
            #expect(second.replaced == [true, false])
            #expect(second.position == 3)
        }
    }

    @Test(arguments: StoreKind.available) func trimmingKeepsWhatEitherLimitKeeps(kind: StoreKind) async throws {
        try await Self.run(kind) { database in
            let store = try database.open()
            for index in 0..<20 { _ = try store.commit([.putPlace(try Self.place("p\(index)"))]) }
            #expect(try store.trimLog(keeping: LogRetention(changes: 5, seconds: 3600)) == 0, "young entries stay")
            #expect(try store.trimLog(keeping: LogRetention(changes: 5, seconds: 0)) == 15)
            guard case .trimmed(let oldest) = try store.changes(after: 3, limit: 10) else {
                Issue.record("a reader behind the trimmed part is told so")
                return
            }
            #expect(oldest == 16)
            guard case .changes(let rest) = try store.changes(after: 15, limit: 10) else { return }
            #expect(rest.map(\.position) == Array(16...20))
        }
    }

    /// Must show 2, in the store: a directory following the database sees another writer's
    /// changes, bulk imports included, and a user made private elsewhere leaves its answers.
    @Test(arguments: StoreKind.available) func aFollowingDirectoryAppliesAnotherWritersChanges(kind: StoreKind)
        async throws
    {
        try await Self.run(kind) { database in
            let writerStore = try database.open()
            let writer = try DurableDirectory(loading: writerStore)
            let follower = try DurableDirectory(loading: try database.open())
            defer {
                writer.close()
                follower.close()
            }
            follower.follow(pollInterval: 0.2)
            let here = try Coordinate(latitude: 41, longitude: 29)
            try writer.performAndWait(.addUser(User(id: "bob", name: "Bob", location: here)), by: .admin)
            let seesBob: @Sendable () throws -> Bool = {
                try follower.read { directory throws(PlacesError) in
                    try directory.nearbyUsers(here, radiusMeters: 10, as: .anonymous).contains { $0.user.id == "bob" }
                }
            }
            #expect(try Self.eventually { try seesBob() })
            try writer.performAndWait(.setVisibility("bob", .private), by: .admin)
            #expect(try Self.eventually { try !seesBob() })

            var batch = PlaceImport()
            for index in 0..<1_000 { try batch.add(try Self.place("bulk\(index)", 10, 10 + Double(index) / 1e4)) }
            try batch.store(into: writerStore)
            #expect(Self.eventually { follower.read { $0.places.count } == 1_000 })
            #expect(follower.appliedPosition == (try writerStore.head().position))
            #expect(follower.replication.followedChanges >= 1_000, "\(follower.replication)")
        }
    }

    @Test(arguments: StoreKind.available) func aReplacingImportLogsTheRemovals(kind: StoreKind) async throws {
        try await Self.run(kind) { database in
            let store = try database.open()
            _ = try store.commit([.putPlace(try Self.place("old")), .putPlace(try Self.place("kept"))])
            let follower = try DurableDirectory(loading: try database.open())
            defer { follower.close() }
            follower.follow(pollInterval: 0.2)
            var batch = PlaceImport()
            try batch.add(try Self.place("kept", 42))
            try batch.add(try Self.place("new"))
            try batch.store(into: store, replacingKinds: ["pharmacy"])
            #expect(
                Self.eventually {
                    follower.read { directory in
                        directory.places.count == 2 && directory.places.place(kind: "pharmacy", id: "new") != nil
                            && directory.places.place(kind: "pharmacy", id: "kept")?.coordinate.latitude == 42
                    }
                })
            guard case .changes(let entries) = try store.changes(after: 2, limit: 10) else { return }
            // One transaction of these changes; their order within it is the store's own (SQLite's
            // follows its buckets), as changes to distinct places give the same state in any order.
            let expected: [DirectoryChange] = [
                .removePlace(kind: "pharmacy", id: "old"), .putPlace(try Self.place("kept", 42)),
                .putPlace(try Self.place("new")),
            ]
            #expect(
                entries.map { ChangeCoding.encode($0.change) }.sorted() == expected.map(ChangeCoding.encode).sorted())
            #expect(entries.map(\.position) == [3, 4, 5])
        }
    }

    @Test(arguments: StoreKind.available) func aFollowerBehindTheTrimmedLogReloadsASnapshot(kind: StoreKind)
        async throws
    {
        try await Self.run(kind) { database in
            let store = try database.open()
            let follower = try DurableDirectory(loading: try database.open())
            defer { follower.close() }
            for index in 0..<30 { _ = try store.commit([.putPlace(try Self.place("p\(index)"))]) }
            _ = try store.commit([.removePlace(kind: "pharmacy", id: "p0")])
            _ = try store.trimLog(keeping: LogRetention(changes: 3, seconds: 0))
            follower.follow(pollInterval: 0.2)
            #expect(Self.eventually { follower.appliedPosition == 31 })
            #expect(follower.replication.reloads == 1)
            #expect(follower.read { $0.places.count } == 29)
        }
    }

    /// A write planned against memory that another writer changed meanwhile is re-checked by the
    /// database, and memory catches up before applying it.
    @Test(arguments: StoreKind.available) func aWriterAppliesOthersChangesBeforeItsOwn(kind: StoreKind) async throws {
        try await Self.run(kind) { database in
            let a = try DurableDirectory(loading: try database.open())
            let b = try DurableDirectory(loading: try database.open())
            defer {
                a.close()
                b.close()
            }
            try b.performAndWait(.setPlace(try Self.place("from-b")), by: .admin)
            try b.performAndWait(.addUser(User(id: "same", name: "B's")), by: .admin)
            #expect(throws: PlacesError.userExists("same")) {
                try a.performAndWait(.addUser(User(id: "same", name: "A's")), by: .admin)
            }
            try a.performAndWait(.setPlace(try Self.place("from-a")), by: .admin)
            #expect(a.appliedPosition == 3)
            #expect(a.read { $0.places.count } == 2, "A applied B's place before its own")
            #expect(a.read { $0.userCount } == 1)
        }
    }
}

/// A value shared between threads in a test, behind a lock.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func update(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&stored)
    }
}
