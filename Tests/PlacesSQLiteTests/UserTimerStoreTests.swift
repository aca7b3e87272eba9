import Foundation
import GRDB
import Geo
import Places
import TestSupport
import Testing

@testable import PlacesSQLite

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}

/// Users' timers in SQLite (issue 18): they survive a restart and run on the first pass after it;
/// two nodes running one timer change the record once; a database of the previous schema opens
/// with its users at `street` and no timers.
@Suite(.timeLimit(.minutes(10))) struct UserTimerStoreTests {
    let clock = ManualClock()
    let here = at(41, 29)

    /// A node over the database at `path`, on the test's clock, locations lasting an hour.
    func node(_ path: String) throws -> DurableDirectory {
        let clock = clock
        return try DurableDirectory(loading: try SQLitePlaceStore(path: path)) { directory in
            directory.privacy = clock.privacy(.street, locationTTLSeconds: 3_600)
        }
    }

    func record(_ node: DurableDirectory, _ id: String) throws -> User {
        try node.read { directory throws(PlacesError) in try directory.user(id, as: .admin) }
    }

    func stored(_ path: String, _ id: String) throws -> User? {
        try SQLitePlaceStore(path: path).users().first { $0.user.id == id }?.user
    }

    @Test func timersSurviveARestartAndRunOnTheFirstPassAfterIt() async throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let start = clock.now
        var durable = try node(path)
        try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        let bob = try await durable.perform(.addUser(User(id: "bob", name: "Bob")), by: .admin)
        try await durable.perform(.setVisibility("bob", .private, forSeconds: 3 * 3_600), presenting: bob)
        durable.close()

        #expect(try stored(path, "ada")?.locationExpiresAt == start.addingTimeInterval(3_600))
        #expect(try stored(path, "bob")?.privateUntil == start.addingTimeInterval(10_800))

        // Down for more than an hour: Ada's location expired meanwhile.
        clock.advance(4_000)
        durable = try node(path)
        #expect(durable.nextUserTimer == start.addingTimeInterval(3_600))
        #expect(try record(durable, "ada").location == here, "nothing runs before the first pass")
        #expect(await durable.runDueUserTimers() == 1)
        #expect(try record(durable, "ada").location == nil)
        #expect(durable.nextUserTimer == start.addingTimeInterval(10_800))
        durable.close()
        #expect(try stored(path, "ada")?.location == nil)
        #expect(try stored(path, "ada")?.locationExpiresAt == nil)

        clock.advance(10_800 - 4_000 - 1)
        durable = try node(path)
        #expect(await durable.runDueUserTimers() == 0)
        #expect(try record(durable, "bob").visibility == .private)
        clock.advance(1)
        #expect(await durable.runDueUserTimers() == 1)
        durable.close()
        let ended = try #require(try stored(path, "bob"))
        #expect(ended.visibility == .public && ended.privateUntil == nil)
        durable = try node(path)
        defer { durable.close() }
        #expect(durable.nextUserTimer == nil)
        #expect(await durable.runDueUserTimers() == 0)
    }

    @Test func twoNodesRunningOneTimerChangeTheRecordOnce() async throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let setup = try node(path)
        let token = try await setup.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        setup.close()
        let a = try node(path)
        let b = try node(path)
        defer {
            a.close()
            b.close()
        }
        clock.advance(3_600)
        // A runs the timer; Ada comes back before B, which has not heard of either, runs it too.
        #expect(await a.runDueUserTimers() == 1)
        let moved = at(41.001, 29)
        try await a.perform(.moveUser("ada", to: moved), presenting: token)
        let current = try record(a, "ada")
        #expect(current.location == moved && current.locationExpiresAt == clock.inSeconds(3_600))
        #expect(try record(b, "ada").location == here, "B's memory is stale")
        #expect(await b.runDueUserTimers() == 1, "B stores its run, which changes nothing")
        #expect(try stored(path, "ada") == current, "the late run did not forget the new location")
        #expect(try record(b, "ada") == current, "B's memory took the stored record")
        #expect(try record(a, "ada") == current)
        #expect(await b.runDueUserTimers() == 0)
    }

    @Test func aStaleTimerChangeStoresNothing() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        let digest = TokenDigest(of: "t")
        let expiry = clock.inSeconds(3_600)
        let until = clock.inSeconds(60)
        let user = User(
            id: "ada", name: "Ada", location: here, visibility: .private, precision: .street,
            locationExpiresAt: expiry, privateUntil: until)
        _ = try store.commit([.putUser(user, tokenDigest: digest)])
        let stale = try store.commit([
            .forgetLocation("ada", expiresAt: expiry.addingTimeInterval(-1)),
            .endPrivacy("ada", privateUntil: until.addingTimeInterval(1)),
        ])
        #expect(stale.changes == [.putUser(user, tokenDigest: digest), .putUser(user, tokenDigest: digest)])
        #expect(try stored(path, "ada") == user)
        let due = try store.commit([.forgetLocation("ada", expiresAt: expiry), .endPrivacy("ada", privateUntil: until)])
        var expected = user
        expected.location = nil
        expected.locationExpiresAt = nil
        expected.visibility = .public
        expected.privateUntil = nil
        #expect(due.changes.last == .putUser(expected, tokenDigest: digest))
        #expect(try stored(path, "ada") == expected)
        // Run again (another node): nothing changes.
        _ = try store.commit([.forgetLocation("ada", expiresAt: expiry), .endPrivacy("ada", privateUntil: until)])
        #expect(try stored(path, "ada") == expected)
    }

    /// A database the previous version made (schema v3: no precision, no timers) opens: its users
    /// read as `street`, keep their location and visibility, and a stored location lasts the
    /// default 12 hours from the upgrade (a stale one must not stay on maps for ever).
    @Test func aDatabaseOfThePreviousSchemaOpensWithUsersAtStreet() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let old = try DatabaseQueue(path: path)
        try SQLitePlaceStore.migrator.migrate(old, upTo: "v3: change log")
        let digest = TokenDigest(of: "token")
        try old.write { db in
            try db.execute(sql: "PRAGMA application_id = \(SQLitePlaceStore.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 3")
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES (?, CAST(? AS BLOB))",
                arguments: [SQLitePlaceStore.writtenByKey, "0.17.0"])
            try db.execute(
                sql: "INSERT INTO user (id, name, lat, lon, visibility, token_sha256) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: ["ada", "Ada", 41.0, 29.0, "public", Data(digest.bytes)])
            try db.execute(
                sql: "INSERT INTO user (id, name, lat, lon, visibility, token_sha256) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: ["bob", "Bob", nil, nil, "private", Data(TokenDigest(of: "other").bytes)])
        }
        try old.close()
        let columns = try DatabaseQueue(path: path).read { db in try db.columns(in: "user").map(\.name) }
        #expect(!columns.contains("precision"), "the database is of the old schema")

        let upgraded = Date().timeIntervalSince1970.rounded(.down)
        let store = try SQLitePlaceStore(path: path)
        var users = try store.users().sorted { $0.user.id < $1.user.id }
        let expiry = try #require(users.first?.user.locationExpiresAt)
        #expect(abs(expiry.timeIntervalSince1970 - upgraded - 43_200) <= 2, "\(expiry)")
        users[0].user.locationExpiresAt = nil
        #expect(
            users.map(\.user) == [
                User(id: "ada", name: "Ada", location: here, visibility: .public, precision: .street),
                User(id: "bob", name: "Bob", visibility: .private, precision: .street),
            ])
        #expect(users.first?.tokenDigest == digest)
        let directory = try store.loadDirectory()
        #expect(directory.nextUserTimer == expiry)
        #expect(try directory.user("ada", as: .anonymous).location == LocationPrecision.street.published(here))
        #expect(try directory.principal(presenting: "token") == .user("ada"))
    }
}
