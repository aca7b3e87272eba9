import Foundation
import GRDB
import Geo
import Places
import Testing

@testable import PlacesSQLite

/// The SQLite change log packed a run of a transaction's changes a row (schema v5): reads from any
/// position return exactly the changes after it, whole transactions, `limit` as before; trimming
/// removes whole rows only; a log of single rows written before v5 reads on and grows.
@Suite struct PackedChangeLogTests {
    /// One change the log should hold, and the last position of its transaction.
    struct Expected: Equatable {
        var position: LogPosition
        var change: DirectoryChange
        var transactionEnd: LogPosition
    }

    /// Three rows of 4,096 changes and one of 100 in the big transaction.
    static let bigCount = 3 * SQLitePlaceStore.changesPerRow + 100

    static func place(_ id: String, name: String? = nil) throws -> Place {
        let number = Double(id.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) % 1_000 }) / 20
        return Place(
            id: id, kind: "pharmacy", name: name ?? "Name \(id)",
            coordinate: try Coordinate(latitude: number - 25, longitude: number * 2 - 50),
            attributes: ["city": "Kadıköy\tİstanbul"], attributeNames: ["city"])
    }

    /// Commits `transactions` to a new store; the log it should hold.
    static func store(_ transactions: [[DirectoryChange]]) throws -> (SQLitePlaceStore, [Expected]) {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        var expected: [Expected] = []
        for changes in transactions {
            let end = try store.commit(changes).position
            let first = end - LogPosition(changes.count) + 1
            expected += changes.enumerated().map {
                Expected(position: first + LogPosition($0), change: $1, transactionEnd: end)
            }
        }
        return (store, expected)
    }

    /// One change, the big transaction, two changes, one change.
    static func mixed() throws -> (SQLitePlaceStore, [Expected]) {
        try store([
            [.putPlace(try place("first"))],
            try (0..<bigCount).map {
                .putPlace(try place("big\($0)", name: $0 % 97 == 0 ? "line\nfeed \\ \($0)" : nil))
            },
            [.putPlace(try place("x")), .removePlace(kind: "pharmacy", id: "first")],
            [.removePlace(kind: "pharmacy", id: "x")],
        ])
    }

    /// What `changes(after:limit:)` answers by the contract: from `position + 1` to the end of the
    /// transaction holding the `max(1, limit)`-th change after it.
    static func contract(_ log: [Expected], after position: LogPosition, limit: Int) -> [LoggedChange] {
        let after = log.filter { $0.position > position }
        guard !after.isEmpty else { return [] }
        let end = after[min(max(1, limit), after.count) - 1].transactionEnd
        return after.filter { $0.position <= end }.map {
            LoggedChange(position: $0.position, change: $0.change, committedAt: 0)
        }
    }

    static func read(_ store: SQLitePlaceStore, after position: LogPosition, limit: Int) throws -> [LoggedChange]? {
        guard case .changes(let entries) = try store.changes(after: position, limit: limit) else { return nil }
        return entries.map { LoggedChange(position: $0.position, change: $0.change, committedAt: 0) }
    }

    static func rows(_ store: SQLitePlaceStore) throws -> [[Int64]] {
        try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT position, last_position, tx_end FROM change_log ORDER BY position").map {
                [$0[0], $0[1], $0[2]]
            }
        }
    }

    @Test func aTransactionIsPackedInRowsOfAtMostARowsChanges() throws {
        let (store, log) = try Self.mixed()
        let per = Int64(SQLitePlaceStore.changesPerRow)
        let end = Int64(Self.bigCount) + 1
        #expect(
            try Self.rows(store) == [
                [1, 1, 1], [2, per + 1, end], [per + 2, 2 * per + 1, end], [2 * per + 2, 3 * per + 1, end],
                [3 * per + 2, end, end], [end + 1, end + 2, end + 2], [end + 3, end + 3, end + 3],
            ])
        #expect(try store.head().position == log.last?.position)
    }

    /// From every interesting position: none, the one change before the big transaction, inside
    /// a row, a row's last change, a row's first, the transaction's end, inside the pair after it,
    /// the head; with limits below a row, of a row and above the log.
    @Test func readsAfterAnyPositionAnswerExactlyTheContract() throws {
        let (store, log) = try Self.mixed()
        let per = LogPosition(SQLitePlaceStore.changesPerRow)
        let end = LogPosition(Self.bigCount) + 1
        let positions: [LogPosition] = [
            0, 1, 2, 3, 100, per, per + 1, per + 2, 2 * per + 1, 3 * per + 1, 3 * per + 2, end - 1, end, end + 1,
            end + 2, end + 3,
        ]
        for position in positions {
            for limit in [0, 1, 7, Int(per), 100_000] {
                let read = try #require(try Self.read(store, after: position, limit: limit), "trimmed")
                let wanted = Self.contract(log, after: position, limit: limit)
                #expect(read.first?.position == wanted.first?.position, "after \(position), limit \(limit)")
                #expect(read.count == wanted.count, "after \(position), limit \(limit)")
                #expect(read == wanted, "after \(position), limit \(limit)")
            }
        }
        #expect(try Self.read(store, after: end + 10, limit: 10) == [])
    }

    @Test func aFollowerReadingWithASmallLimitSeesEveryPositionOnceInOrder() throws {
        let (store, log) = try Self.mixed()
        var seen: [LogPosition] = []
        var last: LogPosition = 0
        while let entries = try Self.read(store, after: last, limit: 7), let newest = entries.last {
            seen += entries.map(\.position)
            last = newest.position
        }
        #expect(seen == log.map(\.position))
    }

    /// A row stays while any of its changes is kept: the reader behind it is told the oldest kept,
    /// a reader inside it reads on from its position.
    @Test func trimmingKeepsARowThatIsPartlyNeeded() throws {
        let (store, log) = try Self.mixed()
        let per = SQLitePlaceStore.changesPerRow
        let head = try #require(log.last?.position)
        // Keeping the last changes from the middle of the big transaction's second row on.
        let keep = head - LogPosition(per + per / 2)
        #expect(try store.trimLog(keeping: LogRetention(changes: keep, seconds: 3600)) == 0, "young rows stay")
        #expect(try store.trimLog(keeping: LogRetention(changes: keep, seconds: 0)) == 1 + per)
        #expect(try Self.rows(store).first == [Int64(per + 2), Int64(2 * per + 1), Int64(head - 3)])
        guard case .trimmed(let oldest) = try store.changes(after: 0, limit: 10) else {
            Issue.record("a reader behind the trimmed rows is told so")
            return
        }
        #expect(oldest == LogPosition(per + 2))
        if case .changes = try store.changes(after: LogPosition(per), limit: 10) {
            Issue.record("the change after \(per) is gone")
        }
        for position in [per + 1, per + 2, 2 * per - 5] {
            let read = try #require(try Self.read(store, after: LogPosition(position), limit: 3))
            #expect(read == Self.contract(log, after: LogPosition(position), limit: 3))
        }
        #expect(try store.trimLog(keeping: LogRetention(changes: 0, seconds: 0)) == Int(head) - 1 - per)
        #expect(try Self.rows(store).isEmpty)
        guard case .trimmed(let none) = try store.changes(after: head - 1, limit: 10) else {
            Issue.record("an empty log before the head is trimmed")
            return
        }
        #expect(none == head + 1)
    }

    /// Large changes start a new row before a row's text passes `bytesPerRow`.
    @Test func largeChangesAreSplitByTheirSize() throws {
        let name = String(repeating: "ü", count: 100_000)
        let (store, log) = try Self.store([try (0..<30).map { .putPlace(try Self.place("large\($0)", name: name)) }])
        let rows = try Self.rows(store)
        #expect(rows.count > 1 && rows.count < 30, "\(rows.map { $0[0] })")
        #expect(try Self.read(store, after: 10, limit: 1) == Self.contract(log, after: 10, limit: 1))
    }

    /// A database of schema v4, its log one row a change, opens at v5: its rows read as single
    /// changes, the log grows packed after them, and trimming counts both kinds of row.
    @Test func aLogOfSingleRowsIsMigratedAndGrows() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let old = try DatabaseQueue(path: path)
        try SQLitePlaceStore.migrator.migrate(old, upTo: "v4: people's privacy")
        let before: [DirectoryChange] = [
            .putPlace(try Self.place("a")), .putPlace(try Self.place("b", name: "two\nlines")),
            .removePlace(kind: "pharmacy", id: "a"), .putPlace(try Self.place("c")),
        ]
        try old.write { db in
            try db.execute(sql: "PRAGMA application_id = \(SQLitePlaceStore.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 4")
            // Two transactions: 1…3 and 4.
            for (offset, change) in before.enumerated() {
                try db.execute(
                    sql: "INSERT INTO change_log (position, tx_end, committed_at, change) VALUES (?, ?, ?, ?)",
                    arguments: [offset + 1, offset < 3 ? 3 : 4, 1_700_000_000.0, ChangeCoding.encode(change)])
            }
            try db.execute(sql: "UPDATE change_log_head SET position = 4, committed_at = 1700000000")
        }
        try old.close()

        let store = try SQLitePlaceStore(path: path)
        #expect(try Self.rows(store) == [[1, 1, 3], [2, 2, 3], [3, 3, 3], [4, 4, 4]])
        let after = try (0..<5).map { DirectoryChange.putPlace(try Self.place("new\($0)")) }
        #expect(try store.commit(after).position == 9)
        #expect(try Self.rows(store).last == [5, 9, 9])
        var log = before.enumerated().map {
            Expected(position: LogPosition($0 + 1), change: $1, transactionEnd: $0 < 3 ? 3 : 4)
        }
        log += after.enumerated().map { Expected(position: LogPosition($0 + 5), change: $1, transactionEnd: 9) }
        for position in 0...9 as ClosedRange<LogPosition> {
            for limit in [1, 2, 100] {
                #expect(
                    try Self.read(store, after: position, limit: limit)
                        == Self.contract(log, after: position, limit: limit), "after \(position), limit \(limit)")
            }
        }
        guard case .changes(let first) = try store.changes(after: 0, limit: 1) else { return }
        #expect(first.first?.committedAt == 1_700_000_000)
        #expect(try store.trimLog(keeping: LogRetention(changes: 6, seconds: 0)) == 3)
        #expect(try store.trimLog(keeping: LogRetention(changes: 4, seconds: 0)) == 1)
        #expect(try store.trimLog(keeping: LogRetention(changes: 1, seconds: 0)) == 0, "the packed row is kept whole")
        #expect(try Self.read(store, after: 7, limit: 1) == Self.contract(log, after: 7, limit: 1))
    }

    /// The v5 table refuses rows that are not runs inside their transaction.
    @Test(arguments: [(5, 4, 9), (5, 9, 8), (0, 1, 1)])
    func theTableRefusesRowsThatAreNotRuns(position: Int, last: Int, transactionEnd: Int) throws {
        let (store, _) = try Self.store([])
        #expect(throws: (any Error).self) {
            try DatabaseQueue(path: store.path).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO change_log (position, last_position, tx_end, committed_at, change)
                        VALUES (?, ?, ?, 0, 'R\tk\ti')
                        """, arguments: [position, last, transactionEnd])
            }
        }
    }

    /// A directory following the store applies another writer's big transaction and what follows
    /// it, position by position.
    @Test(.timeLimit(.minutes(10))) func aFollowerAppliesPackedTransactions() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let writer = try SQLitePlaceStore(path: path)
        let follower = try DurableDirectory(loading: try SQLitePlaceStore(path: path))
        defer { follower.close() }
        follower.follow(pollInterval: 0.05)
        _ = try writer.commit(try (0..<Self.bigCount).map { .putPlace(try Self.place("f\($0)")) })
        _ = try writer.commit([.removePlace(kind: "pharmacy", id: "f0"), .removePlace(kind: "pharmacy", id: "f1")])
        let head = try writer.head().position
        let deadline = Date(timeIntervalSinceNow: 60)
        while follower.appliedPosition < head && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(follower.appliedPosition == head)
        #expect(follower.read { $0.places.count } == Self.bigCount - 2)
        #expect(follower.replication.reloads == 0, "followed, not reloaded")
    }
}
