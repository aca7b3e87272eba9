import Foundation
import Geo
import Places
import PostgresNIO
import Testing

@testable import PlacesPostgres

/// The PostgreSQL store against a real server (`$VICINITY_TEST_POSTGRES`), each test in a new
/// database. Serialized: the fault tests stop the server everyone shares.
@Suite(.serialized, .enabled(if: TestDatabase.enabled, "set VICINITY_TEST_POSTGRES (scripts/postgres-tests.sh)"))
struct PostgresPlaceStoreTests {
    static func place(_ id: String, kind: String = "pharmacy", _ latitude: Double, _ longitude: Double) throws -> Place
    {
        Place(
            id: id, kind: kind, name: "Name \(id)",
            coordinate: try Coordinate(latitude: latitude, longitude: longitude),
            attributes: ["city": "Istanbul", "phone": "1"], attributeNames: ["phone", "city"])
    }

    static func open(_ database: TestDatabase, sequencing: LogSequencing = .headRow) async throws -> PostgresPlaceStore
    {
        try await onThread { try PostgresPlaceStore(settings: database.settings, sequencing: sequencing) }
    }

    @Test func migrateThenReopen() async throws {
        let database = try await TestDatabase.create(migrated: false)
        defer { Task { await database.drop() } }
        await #expect {
            _ = try await Self.open(database)
        } throws: { error in
            "\(error)".contains("run vicinity migrate --postgres URL")
        }
        let settings = database.settings
        let first = try await onThread { try PostgresPlaceStore.migrate(settings) }
        #expect(first == (0, PostgresPlaceStore.schemaVersion))
        let again = try await onThread { try PostgresPlaceStore.migrate(settings) }
        #expect(again == (PostgresPlaceStore.schemaVersion, PostgresPlaceStore.schemaVersion))

        let store = try await Self.open(database)
        _ = try await onThread { try store.commit([.putPlace(try Self.place("a", 41, 29))]) }
        store.close()
        let reopened = try await Self.open(database)
        #expect(try await onThread { try reopened.places() }.map(\.id) == ["a"])
        #expect(try await onThread { try reopened.head() }.position == 1)
        reopened.close()

        // A schema from a newer Vicinity is refused, by the store and by migrate.
        try await database.sql { connection in
            try await connection.query(
                "INSERT INTO vicinity_schema (version, written_by) VALUES (99, '9.9.9')", logger: TestDatabase.quiet)
        }
        await #expect {
            _ = try await Self.open(database)
        } throws: { error in
            "\(error)".contains("made by a newer Vicinity") && "\(error)".contains("9.9.9")
        }
        await #expect(throws: PostgresStoreError.self) {
            _ = try await onThread { try PostgresPlaceStore.migrate(settings) }
        }
    }

    @Test(arguments: [
        "INSERT INTO vicinity_place VALUES ('pharmacy', 'a', 'A', 91, 0, '[]')",
        "INSERT INTO vicinity_place VALUES ('pharmacy', 'a', 'A', 'NaN', 0, '[]')",
        "INSERT INTO vicinity_place VALUES ('pharmacy', 'a', 'A', 0, -180.5, '[]')",
        "INSERT INTO vicinity_place VALUES ('user', 'a', 'A', 0, 0, '[]')",
        "INSERT INTO vicinity_place VALUES ('', 'a', 'A', 0, 0, '[]')",
        "INSERT INTO vicinity_place VALUES ('pharmacy', '', 'A', 0, 0, '[]')",
        "INSERT INTO vicinity_user VALUES ('u', 'U', 1, NULL, 'public', decode(repeat('ab', 32), 'hex'))",
        "INSERT INTO vicinity_user VALUES ('u', 'U', NULL, NULL, 'friends', decode(repeat('ab', 32), 'hex'))",
        "INSERT INTO vicinity_user VALUES ('u', 'U', NULL, NULL, 'public', decode(repeat('ab', 31), 'hex'))",
        "INSERT INTO vicinity_log_head VALUES (2, 0, NULL)",
        "INSERT INTO vicinity_change_log VALUES (5, 4, 0, 'R\tk\ti')",
    ])
    func constraintsRefuseBadRows(sql: String) async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        await #expect(throws: PSQLError.self) {
            try await database.sql { connection in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.quiet)
            }
        }
    }

    @Test func aRefusedCommitStoresNothingAndLogsNothing() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        let bad = Place(
            id: "b", kind: "user", name: "B", coordinate: try Coordinate(latitude: 1, longitude: 1),
            attributes: [:])
        await #expect(throws: PostgresStoreError.self) {
            _ = try await onThread { try store.commit([.putPlace(try Self.place("a", 1, 1)), .putPlace(bad)]) }
        }
        #expect(try await onThread { try store.places() }.isEmpty)
        #expect(try await onThread { try store.head() }.position == 0)
    }

    @Test func commitHeadAndChangesRoundTripWholeTransactions() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        let a = try Self.place("a", 41, 29)
        let b = try Self.place("b\twith\\odd\nchars", -90, 180)
        let first = try await onThread { try store.commit([.putPlace(a), .putPlace(b)]) }
        #expect(first.position == 2)
        #expect(first.replaced == [false, false])
        let again = try await onThread { try store.commit([.putPlace(a)]) }
        #expect(again.position == 3)
        #expect(again.replaced == [true], "the database decides that it replaced")
        _ = try await onThread { try store.commit([.removePlace(kind: "pharmacy", id: "a")]) }

        let head = try await onThread { try store.head() }
        #expect(head.position == 4)
        #expect(abs((head.committedAt ?? 0) - Date().timeIntervalSince1970) < 60)
        // A limit of 1 still reads the whole first transaction.
        guard case .changes(let entries) = try await onThread({ try store.changes(after: 0, limit: 1) }) else {
            Issue.record("no changes")
            return
        }
        #expect(entries.map(\.position) == [1, 2])
        #expect(entries.map(\.change) == [.putPlace(a), .putPlace(b)])
        guard case .changes(let rest) = try await onThread({ try store.changes(after: 2, limit: 100) }) else {
            Issue.record("no changes")
            return
        }
        #expect(rest.map(\.change) == [.putPlace(a), .removePlace(kind: "pharmacy", id: "a")])
        guard case .changes(let none) = try await onThread({ try store.changes(after: 4, limit: 100) }) else {
            Issue.record("no answer")
            return
        }
        #expect(none.isEmpty)

        // Trimming keeps the newest entry only: reading from before it says so.
        let trimmed = try await onThread { try store.trimLog(keeping: LogRetention(changes: 1, seconds: 0)) }
        #expect(trimmed == 3)
        guard case .trimmed(let oldest) = try await onThread({ try store.changes(after: 0, limit: 100) }) else {
            Issue.record("not trimmed")
            return
        }
        #expect(oldest == 4)
        // A retention by age keeps what is younger.
        #expect(try await onThread { try store.trimLog(keeping: LogRetention(changes: 0, seconds: 3600)) } == 0)
    }

    /// A group commit's places go in one statement; whether each replaced is still its own, and
    /// a key given twice still takes effect twice, in order.
    @Test func aRunOfPlacesInOneCommitIsDecidedPlaceByPlace() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        _ = try await onThread { try store.commit([.putPlace(try Self.place("a", 1, 1))]) }
        let moved = try Self.place("a", 2, 2)
        let stored = try await onThread {
            try store.commit([
                .putPlace(try Self.place("new", 3, 3)), .putPlace(moved), .putPlace(try Self.place("x", 4, 4)),
                .putPlace(try Self.place("x", 5, 5)), .removePlace(kind: "pharmacy", id: "new"),
            ])
        }
        #expect(stored.replaced == [false, true, false, true, nil])
        #expect(stored.position == 6)
        let places = try await onThread { try store.places() }
        #expect(places.map(\.id) == ["a", "x"])
        #expect(places.map(\.coordinate.latitude) == [2, 5])
    }

    @Test func userChangesAnswerWithTheStoredRecordAndRefuseWhatIsNotThere() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        let (token, digest) = Token.issue()
        // A stored user always has a precision (`plan` gives a registration the default's).
        let ayse = User(
            id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41, longitude: 29), precision: .district)
        let added = try await onThread { try store.commit([.addUser(ayse, tokenDigest: digest)]) }
        #expect(added.changes == [.putUser(ayse, tokenDigest: digest)])
        let moved = try await onThread {
            try store.commit([.moveUser("ayse", to: nil), .setVisibility("ayse", .private)])
        }
        var expected = ayse
        expected.location = nil
        expected.visibility = .private
        #expect(moved.changes.last == .putUser(expected, tokenDigest: digest))

        await #expect(throws: PlacesError.userExists("ayse")) {
            _ = try await onThread { try store.commit([.addUser(ayse, tokenDigest: Token.issue().digest)]) }
        }
        await #expect(throws: PlacesError.noSuchUser("nobody")) {
            _ = try await onThread { try store.commit([.moveUser("nobody", to: nil)]) }
        }
        await #expect(throws: PlacesError.noSuchUser("nobody")) {
            _ = try await onThread { try store.commit([.removeUser("nobody")]) }
        }
        await #expect(throws: PlacesError.noSuchPlace(kind: "pharmacy", id: "none")) {
            _ = try await onThread { try store.commit([.removePlace(kind: "pharmacy", id: "none")]) }
        }
        let (admin, adminDigest) = Token.issue()
        _ = try await onThread { try store.commit([.setAdminToken(adminDigest)]) }
        #expect(try await onThread { try store.adminTokenDigest() }?.matches(admin) == true)
        let users = try await onThread { try store.users() }
        #expect(users.map(\.user) == [expected])
        #expect(users.first?.tokenDigest.matches(token) == true)

        // Only digests reach the database.
        let clear = try await database.sql { connection in
            try await connection.query(
                """
                SELECT count(*) FROM vicinity_change_log
                WHERE position(\(token) IN change) > 0 OR position(\(admin) IN change) > 0
                """, logger: TestDatabase.quiet
            ).collect().first?.decode(Int64.self)
        }
        #expect(clear == 0)

        let snapshot = try await onThread { try store.snapshot(cellSizeMeters: nil) }
        #expect(snapshot.position == 4, "the refused commits took no positions")
        #expect(snapshot.directory.userCount == 1)
        #expect(snapshot.directory.hasAdminToken)
    }

    @Test func bulkImportByCopyReplacesKindsAndLogsEveryChange() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        _ = try await onThread {
            try store.commit([
                .putPlace(try Self.place("old", 1, 1)), .putPlace(try Self.place("kept", 2, 2)),
                .putPlace(try Self.place("other", kind: "cafe", 3, 3)),
            ])
        }
        var batch = PlaceImport()
        for index in 0..<2_000 { try batch.add(try Self.place("p\(index)", Double(index % 90), Double(index % 180))) }
        try batch.add(try Self.place("kept", 5, 5))
        try batch.add(
            Place(
                id: "odd\\id", kind: "pharmacy", name: "back\\slash \"quoted\"",
                coordinate: try Coordinate(latitude: 0.1, longitude: -0.2), attributes: ["note": "a\\b \\N"]))
        let progress = ProgressCounter()
        try await onThread { [batch] in
            try store.store(batch, replacingKinds: ["pharmacy"], progress: { progress.record($0) })
        }
        #expect(progress.last == batch.places.count)

        let stored = try await onThread { try store.places() }
        #expect(stored.count == 2_003)
        #expect(!stored.contains { $0.id == "old" })
        #expect(stored.contains { $0.id == "other" && $0.kind == "cafe" })
        #expect(stored.first { $0.id == "kept" }?.coordinate.latitude == 5)
        #expect(stored.first { $0.id == "odd\\id" } == batch.places.last)

        // One log entry per change, the removal first, in one transaction.
        let head = try await onThread { try store.head() }
        #expect(head.position == 3 + 1 + 2_002)
        guard case .changes(let entries) = try await onThread({ try store.changes(after: 3, limit: 10) }) else {
            Issue.record("no changes")
            return
        }
        #expect(entries.count == 2_003)
        #expect(entries.first?.change == .removePlace(kind: "pharmacy", id: "old"))
        #expect(entries.last?.change == .putPlace(batch.places.last!))

        // A failing import stores nothing: a constraint of the test's own refuses one place of many.
        try await database.sql { connection in
            try await connection.query(
                "ALTER TABLE vicinity_place ADD CONSTRAINT test_refuses CHECK (id <> 'refused')",
                logger: TestDatabase.quiet)
        }
        var bad = PlaceImport()
        for index in 0..<1_000 { try bad.add(try Self.place("q\(index)", 1, 1)) }
        try bad.add(try Self.place("refused", 1, 1))
        let before = try await onThread { try store.head() }
        await #expect {
            try await onThread { [bad] in try store.store(bad, replacingKinds: ["pharmacy"], progress: nil) }
        } throws: { error in
            "\(error)".contains("test_refuses")
        }
        #expect(try await onThread { try store.head() } == before)
        #expect(try await onThread { try store.places() }.count == 2_003)
    }

    /// Not an assertion: how fast 100,000 places go in by COPY, for the report.
    @Test func importRateOfAHundredThousandPlaces() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        let store = try await Self.open(database)
        defer { store.close() }
        var batch = PlaceImport(reservingCapacity: 100_000)
        for index in 0..<100_000 {
            try batch.add(try Self.place("p\(index)", Double(index % 180) - 89.5, Double(index % 360) - 179.5))
        }
        let start = Date()
        try await onThread { [batch] in try store.store(batch, replacingKinds: [], progress: nil) }
        let seconds = Date().timeIntervalSince(start)
        let loadStart = Date()
        let snapshot = try await onThread { try store.snapshot(cellSizeMeters: nil) }
        let loadSeconds = Date().timeIntervalSince(loadStart)
        #expect(snapshot.directory.places.count == 100_000)
        let commitStart = Date()
        for index in 0..<200 {
            _ = try await onThread { try store.commit([.putPlace(try Self.place("c\(index)", 1, 1))]) }
        }
        let commitSeconds = Date().timeIntervalSince(commitStart) / 200
        let batch1000 = try (0..<1_000).map { DirectoryChange.putPlace(try Self.place("b\($0)", 2, 2)) }
        let batchStart = Date()
        _ = try await onThread { try store.commit(batch1000) }
        let batchSeconds = Date().timeIntervalSince(batchStart)
        print("PostgreSQL: one commit of 1000 places \(batchSeconds * 1000) ms")
        print(
            "PostgreSQL: imported 100000 places in \(seconds) s (\(Int(100_000 / seconds))/s); snapshot of them in "
                + "\(loadSeconds) s; one-place commit \(commitSeconds * 1000) ms")
    }
}

/// The last progress count reported.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func record(_ count: Int) { lock.withLock { value = count } }
    var last: Int { lock.withLock { value } }
}
