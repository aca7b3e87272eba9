import Foundation
import Geo
import Places
import Testing

@testable import PlacesSQLite

/// Must show (issue 4), through the durable path: random adds, moves, visibility changes and
/// removals by several users, presenting real tokens (stale ones too), stored in SQLite and
/// reloaded from disk now and then; after every step nobody else sees a private user — not in a
/// list, a count or a record — a user always sees themselves, and nobody is at 0°, 0° unless put
/// there.
@Suite struct DurablePrivacyTests {
    @Test(arguments: [21, 22, 23] as [UInt64])
    func privacySurvivesTheStoreAndRestarts(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        var store = try SQLitePlaceStore(path: path)
        var durable = DurableDirectory(try store.loadDirectory(), store: store)
        let admin = try #require(try durable.performAndWait(.rotateAdminToken, by: .admin))
        var shadow: [String: User] = [:]
        var tokens: [String: String] = [:]  // the latest token of each id, kept after removal
        let ids = (0..<5).map { "u\($0)" }
        let center = try Coordinate(latitude: 41.085, longitude: 29.012)
        func location() throws -> Coordinate? {
            switch random.next() % 8 {
            case 0: return nil
            case 1: return try Coordinate(latitude: 0, longitude: 0)
            default:
                return try Coordinate(
                    latitude: 41.08 + Double(random.next() % 1000) * 1e-5,
                    longitude: 29.01 + Double(random.next() % 1000) * 1e-5)
            }
        }
        var storedWrites = 0
        var sawPrivateWithLocation = false
        for step in 0..<240 {
            let id = ids[Int(random.next() % 5)]
            let actorID = ids[Int(random.next() % 5)]
            // Anyone, the admin, the subject themselves, or another user (often refused).
            let token: String? = [nil, admin, admin, tokens[id], tokens[id], tokens[actorID]][Int(random.next() % 6)]
            let before = shadow
            do {
                switch random.next() % 4 {
                case 0:
                    let user = User(
                        id: id, name: id, location: try location(),
                        visibility: random.next() % 2 == 0 ? .public : .private
                    )
                    tokens[id] = try durable.performAndWait(.addUser(user), presenting: token)
                    shadow[id] = user
                case 1:
                    let moved = try location()
                    try durable.performAndWait(.moveUser(id, to: moved), presenting: token)
                    shadow[id]?.location = moved
                case 2:
                    let visibility: Visibility = random.next() % 2 == 0 ? .public : .private
                    try durable.performAndWait(.setVisibility(id, visibility), presenting: token)
                    shadow[id]?.visibility = visibility
                default:
                    try durable.performAndWait(.removeUser(id), presenting: token)
                    shadow[id] = nil
                }
                storedWrites += 1
            } catch {
                #expect(shadow == before, "a refused write changed nothing (step \(step))")
            }
            sawPrivateWithLocation =
                sawPrivateWithLocation || shadow.values.contains { $0.visibility == .private && $0.location != nil }
            if step % 30 == 29 {
                // A restart: everything from disk.
                durable.close()
                store = try SQLitePlaceStore(path: path)
                durable = DurableDirectory(try store.loadDirectory(), store: store)
            }
            for observerID in ids + ["nobody"] {
                // A removed user's token names no one any more: they look on as anyone does.
                let observer =
                    durable.read { directory in
                        try? directory.principal(presenting: observerID == "nobody" ? nil : tokens[observerID])
                    } ?? .anonymous
                let visible = shadow.values.filter { $0.visibility == .public || observer == .user($0.id) }
                let expected = Set(visible.filter { $0.location != nil }.map(\.id))
                let hits = try durable.read { directory throws(PlacesError) in
                    try directory.nearbyUsers(center, radiusMeters: 21_000_000, as: observer)
                }
                #expect(Set(hits.map(\.user.id)) == expected, "step \(step): \(observer)")
                #expect(hits.allSatisfy { $0.user.location != nil })
                for hit in hits where hit.user.location == (try Coordinate(latitude: 0, longitude: 0)) {
                    #expect(shadow[hit.user.id]?.location == hit.user.location, "nobody at 0°, 0° by default")
                }
                let count = try durable.read { directory throws(PlacesError) in
                    try directory.countUsers(center, radiusMeters: 21_000_000, as: observer)
                }
                #expect(count == expected.count)
                for (id, user) in shadow {
                    let record = try? durable.read { directory throws(PlacesError) in
                        try directory.user(id, as: observer)
                    }
                    var expected = user
                    expected.precision = expected.precision ?? .exact
                    #expect(
                        record == (visible.contains(user) ? expected : nil), "step \(step): \(observer) reads \(id)")
                }
            }
        }
        durable.close()
        #expect(
            storedWrites >= 30 && sawPrivateWithLocation, "the sequence exercised the store: \(storedWrites) writes")
    }
}
