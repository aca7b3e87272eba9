import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import PlacesSQLite

/// The change log on SQLite: gap-free positions in commit order across connections, whole
/// transactions, trimming, and directories that follow each other through it.
@Suite(.timeLimit(.minutes(2))) struct SQLiteChangeLogTests {
    static func place(_ id: String, _ latitude: Double = 41, _ longitude: Double = 29) throws -> Place {
        try SQLitePlaceStoreTests.place(id, latitude, longitude)
    }

    /// Waits up to `seconds` for `condition`; whether it came true.
    static func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return try condition()
    }

    /// Must show 1 (SQLite's part): writers on four connections at once; the log holds every
    /// change once, at positions 1…N without a gap, each transaction's changes together, and a
    /// reader tailing it while they write misses nothing.
    @Test func positionsAreGapFreeInCommitOrderAcrossConnections() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        _ = try SQLitePlaceStore(path: path)
        let writers = 4
        let commits = 60
        let tail = try SQLitePlaceStore(path: path)
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
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let store = try! SQLitePlaceStore(path: path)
            for commit in 0..<commits {
                let size = 1 + commit % 3
                let changes = (0..<size).map { item in
                    DirectoryChange.putPlace(try! Self.place("w\(writer)-\(commit)-\(item)"))
                }
                let stored = try! store.commit(changes)
                #expect(stored.position(ofChangeAt: 0) == stored.position - LogPosition(size) + 1)
            }
            done.update { $0 += 1 }
        }
        #expect(Self.eventually { done.value == writers + 1 })
        let total = LogPosition(writers * (0..<commits).reduce(0) { $0 + 1 + $1 % 3 })
        #expect(try tail.head().position == total)
        #expect(seen.value == Array(1...total), "the tailing reader saw every position once, in order")
        guard case .changes(let all) = try tail.changes(after: 0, limit: Int(total) + 10) else {
            Issue.record("the log was trimmed")
            return
        }
        #expect(all.map(\.position) == Array(1...total))
        #expect(Set(all.map { ChangeCoding.encode($0.change) }).count == Int(total))
    }

    @Test func aReadNeverSplitsATransaction() throws {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        try store.commit([.putPlace(try Self.place("a"))])
        try store.commit((0..<5).map { .putPlace(try! Self.place("b\($0)")) })
        guard case .changes(let entries) = try store.changes(after: 1, limit: 2) else {
            Issue.record("trimmed")
            return
        }
        #expect(entries.map(\.position) == [2, 3, 4, 5, 6])
        guard case .changes(let none) = try store.changes(after: 6, limit: 2) else { return }
        #expect(none.isEmpty)
    }

    @Test func userChangesAreLoggedAsTheWholeStoredRecord() throws {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        let (_, digest) = Token.issue()
        let here = try Coordinate(latitude: 41, longitude: 29)
        try store.commit([.addUser(User(id: "ayse", name: "Ayşe", location: here), tokenDigest: digest)])
        try store.commit([.setVisibility("ayse", .private)])
        guard case .changes(let entries) = try store.changes(after: 0, limit: 10) else { return }
        #expect(
            entries.map(\.change) == [
                .putUser(User(id: "ayse", name: "Ayşe", location: here), tokenDigest: digest),
                .putUser(User(id: "ayse", name: "Ayşe", location: here, visibility: .private), tokenDigest: digest),
            ])
    }

    @Test func theDatabaseDecidesWhetherAPlaceWasReplaced() throws {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        let first = try store.commit([.putPlace(try Self.place("a"))])
        let second = try store.commit([.putPlace(try Self.place("a", 41.1)), .putPlace(try Self.place("b"))])
        #expect(first.replaced == [false])
        #expect(second.replaced == [true, false])
        #expect(second.position == 3)
    }

    @Test func trimmingKeepsWhatEitherLimitKeeps() throws {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        for index in 0..<20 { try store.commit([.putPlace(try Self.place("p\(index)"))]) }
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

    /// Must show 2 in the store: a directory following a file sees another connection's writes,
    /// bulk imports included, and a user made private elsewhere leaves its answers.
    @Test func aFollowingDirectoryAppliesAnotherWritersChanges() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let writerStore = try SQLitePlaceStore(path: path)
        let writer = try DurableDirectory(loading: writerStore)
        let follower = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        defer {
            writer.close()
            follower.close()
        }
        follower.follow(pollInterval: 0.2)
        let here = try Coordinate(latitude: 41, longitude: 29)
        try writer.performAndWait(.addUser(User(id: "bob", name: "Bob", location: here)), by: .admin)
        func seesBob() throws -> Bool {
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

    @Test func aReplacingImportLogsTheRemovals() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        try store.commit([.putPlace(try Self.place("old")), .putPlace(try Self.place("kept"))])
        let follower = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
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
        #expect(
            entries.map(\.change) == [
                .removePlace(kind: "pharmacy", id: "old"), .putPlace(try Self.place("kept", 42)),
                .putPlace(try Self.place("new")),
            ])
    }

    @Test func aFollowerBehindTheTrimmedLogReloadsASnapshot() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        let follower = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        defer { follower.close() }
        for index in 0..<30 { try store.commit([.putPlace(try Self.place("p\(index)"))]) }
        try store.commit([.removePlace(kind: "pharmacy", id: "p0")])
        _ = try store.trimLog(keeping: LogRetention(changes: 3, seconds: 0))
        follower.follow(pollInterval: 0.2)
        #expect(Self.eventually { follower.appliedPosition == 31 })
        #expect(follower.replication.reloads == 1)
        #expect(follower.read { $0.places.count } == 29)
    }

    /// A write planned against memory that another process changed meanwhile is re-checked by
    /// the database, and memory catches up before applying it.
    @Test func aWriterAppliesOthersChangesBeforeItsOwn() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let a = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        let b = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        defer {
            a.close()
            b.close()
        }
        try b.performAndWait(.setPlace(try Self.place("from-b")), by: .admin)
        try b.performAndWait(.addUser(User(id: "same", name: "B's")), by: .admin)
        #expect(throws: PlacesError.userExists("same")) {
            try a.performAndWait(.addUser(User(id: "same", name: "A's")), by: .admin)
        }
        let receipt = try a.performAndWaitReceipt(.setPlace(try Self.place("from-a")))
        #expect(receipt.position == 3)
        #expect(a.appliedPosition == 3)
        #expect(a.read { $0.places.count } == 2, "A applied B's place before its own")
        #expect(a.read { $0.userCount } == 1)
    }
}

extension DurableDirectory {
    /// `performWithReceipt(_:by:)` as the admin, for synchronous tests.
    func performAndWaitReceipt(_ request: DirectoryRequest) throws -> WriteReceipt {
        let result = Box<Result<WriteReceipt, PlacesError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(PlacesError) {
                let receipt = try await performWithReceipt(request, by: .admin)
                result.update { $0 = .success(receipt) }
            } catch {
                result.update { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.value!.get()
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
