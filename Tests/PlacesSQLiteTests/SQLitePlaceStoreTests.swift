import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import PlacesSQLite

/// The SQLite store: durable settings, round trips, all-or-nothing writes, no token in clear.
@Suite struct SQLitePlaceStoreTests {
    /// A fresh database path in its own temporary folder.
    static func temporaryDatabase() throws -> String {
        try TemporaryDirectory(prefix: "vicinity-store").file("test.sqlite")
    }

    static func place(_ id: String, kind: String = "pharmacy", _ latitude: Double, _ longitude: Double) throws -> Place
    {
        Place(
            id: id, kind: kind, name: "Name \(id)",
            coordinate: try Coordinate(latitude: latitude, longitude: longitude),
            attributes: ["city": "Istanbul", "phone": "1"], attributeNames: ["phone", "city"])
    }

    @Test func writesAreDurableInWALWithFullSync() throws {
        let store = try SQLitePlaceStore(path: try Self.temporaryDatabase())
        #expect(store.journalMode == "wal")
        #expect(store.synchronous == 2)
    }

    @Test func placesRoundTripAndUpsert() throws {
        let path = try Self.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        try store.upsert([try Self.place("b", 41.1, 29.0), try Self.place("a", -90, 180)])
        try store.upsert([try Self.place("b", 41.2, 29.1)])
        let reopened = try SQLitePlaceStore(path: path).places()
        #expect(reopened.map(\.id) == ["a", "b"])
        #expect(reopened[1].coordinate == (try Coordinate(latitude: 41.2, longitude: 29.1)))
        #expect(reopened[1].orderedAttributes.map(\.name) == ["phone", "city"])
        #expect(reopened[0].coordinate.longitude == 180)
    }

    /// Must show (issue 4): a failed import with a bad row in the middle of 10k leaves every table
    /// exactly as before.
    @Test func aFailedWriteInTheMiddleOfTenThousandStoresNothing() throws {
        let store = try SQLitePlaceStore(path: try Self.temporaryDatabase())
        try store.upsert([try Self.place("kept", 1, 1)])
        let before = try store.places()
        var batch = try (0..<10_000).map { try Self.place("p\($0)", Double($0 % 90), Double($0 % 180)) }
        batch[5_000] = try Self.place("bad", kind: "", 10, 10)  // violates CHECK (kind <> '')
        #expect(throws: SQLiteStoreError.self) { try store.upsert(batch) }
        #expect(try store.places() == before)
    }

    /// Must show (issue 4): the database file holds no token in clear text.
    @Test func noTokenIsStoredInClearText() throws {
        let path = try Self.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        let (userToken, userDigest) = Token.issue()
        let (adminToken, adminDigest) = Token.issue()
        try store.commit([
            .putUser(
                User(
                    id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41, longitude: 29),
                    visibility: .private), tokenDigest: userDigest),
            .setAdminToken(adminDigest),
        ])
        var bytes = Data()
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { bytes.append(data) }
        }
        #expect(bytes.range(of: Data(userToken.utf8)) == nil)
        #expect(bytes.range(of: Data(adminToken.utf8)) == nil)
        #expect(bytes.range(of: Data(userDigest.bytes)) != nil, "the digest is what is stored")
        let users = try SQLitePlaceStore(path: path).users()
        #expect(users.map(\.user.id) == ["ayse"])
        #expect(users.first?.tokenDigest.matches(userToken) == true)
        #expect(users.first?.user.visibility == .private)
        #expect(try SQLitePlaceStore(path: path).adminTokenDigest()?.matches(adminToken) == true)
    }

    @Test func aUserWithoutALocationStaysWithoutOne() throws {
        let path = try Self.temporaryDatabase()
        try SQLitePlaceStore(path: path).commit([
            .putUser(User(id: "nowhere", name: "N"), tokenDigest: Token.issue().digest)
        ])
        #expect(try SQLitePlaceStore(path: path).users().first?.user.location == nil)
    }

    /// A large store loads in two key ranges at once: the same places as one ordered read.
    @Test func loadingInTwoHalvesReadsEveryPlaceOnce() throws {
        let path = try Self.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        var random = SplitMix64(seed: 7)
        var places: [Place] = []
        for number in 0..<200_003 {
            let kind = number % 3 == 0 ? "atm" : "pharmacy"
            places.append(
                Place(
                    id: "id\(random.next() % 1_000_000_000)-\(number)", kind: kind, name: "N\(number)",
                    coordinate: try Coordinate(
                        latitude: Double(random.next() % 180_000) / 1000 - 90,
                        longitude: Double(random.next() % 360_000) / 1000 - 180),
                    attributes: number % 5 == 0 ? ["a": "\"quoted\"\n"] : [:]))
        }
        var batch = PlaceImport(reservingCapacity: places.count)
        for place in places { try batch.add(place) }
        try batch.store(into: store)
        let loaded = try store.loadPlaces()
        #expect(loaded.count == places.count)
        #expect(loaded == (try store.places()), "same places, same (kind, id) order")
        #expect(Set(loaded) == Set(places))
        let directory = try store.loadDirectory()
        #expect(directory.places.count(kind: "atm") == 66_668)
        #expect(directory.places.place(kind: "pharmacy", id: places[1].id) == places[1])
    }

    @Test func aDirectoryIsNotADatabase() throws {
        try TemporaryDirectory.with(prefix: "vicinity-store") { folder in
            #expect(throws: SQLiteStoreError.self) { try SQLitePlaceStore(path: folder.path) }
        }
    }
}

/// Two processes (here: two stores and two directories) on one database: a write from a stale
/// copy changes only its own field, never undoes the other's change, and memory follows the
/// database.
@Suite struct SQLiteStaleWriterTests {
    @Test func aStaleMoveKeepsAnotherWritersPrivacy() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let setup = DurableDirectory(
            try SQLitePlaceStore(path: path).loadDirectory(), store: try SQLitePlaceStore(path: path))
        let here = try Coordinate(latitude: 41, longitude: 29)
        try setup.performAndWait(.addUser(User(id: "bob", name: "Bob", location: here)), by: .admin)
        setup.close()

        let storeA = try SQLitePlaceStore(path: path)
        let a = DurableDirectory(try storeA.loadDirectory(), store: storeA)
        let storeB = try SQLitePlaceStore(path: path)
        let b = DurableDirectory(try storeB.loadDirectory(), store: storeB)
        defer {
            a.close()
            b.close()
        }
        try b.performAndWait(.setVisibility("bob", .private), by: .admin)
        // A still thinks Bob is public, and moves him.
        try a.performAndWait(.moveUser("bob", to: try Coordinate(latitude: 41.001, longitude: 29)), by: .admin)
        let stored = try SQLitePlaceStore(path: path).users().first?.user
        #expect(stored?.visibility == .private, "the stale move did not make Bob public again")
        #expect(stored?.location?.latitude == 41.001)
        // A's memory followed the database: Bob is on no map there either.
        let seen = try a.read { directory throws(PlacesError) in
            try directory.nearbyUsers(here, radiusMeters: 10_000, as: .anonymous)
        }
        #expect(seen.isEmpty)

        try b.performAndWait(.removeUser("bob"), by: .admin)
        #expect(throws: PlacesError.noSuchUser("bob")) {
            try a.performAndWait(.setVisibility("bob", .public), by: .admin)
        }
        #expect(try SQLitePlaceStore(path: path).users().isEmpty, "a stale write does not bring Bob back")
        try b.performAndWait(.addUser(User(id: "carl", name: "Carl")), by: .admin)
        #expect(throws: PlacesError.userExists("carl")) {
            try a.performAndWait(.addUser(User(id: "carl", name: "Other Carl")), by: .admin)
        }
    }
}
