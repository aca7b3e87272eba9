import Geo
import TestSupport
import Testing

@testable import Places

/// Issue 15: a lost user token could be replaced only by removing the user. `replaceUserToken`
/// through the façade, and `users(as:)`, the admin's list.
@Suite struct UserTokenReplacementTests {
    func directory() throws -> (DurableDirectory, admin: String, ayse: String, mehmet: String) {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        let admin = directory.rotateAdminToken()
        let ayse = try directory.addUser(
            User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41, longitude: 29)), by: .admin)
        let mehmet = try directory.addUser(User(id: "mehmet", name: "Mehmet", visibility: .private), by: .admin)
        return (DurableDirectory(directory, store: MemoryStore()), admin, ayse, mehmet)
    }

    @Test func theNewTokenWorksAndTheOldOneNoLonger() throws {
        let (durable, _, ayse, _) = try directory()
        defer { durable.close() }
        let fresh = try #require(try durable.performAndWait(.replaceUserToken("ayse"), presenting: ayse))
        #expect(fresh != ayse && fresh.count == 43)
        #expect(throws: PlacesError.invalidToken) { try durable.read { try $0.principal(presenting: ayse) } }
        #expect(try durable.read { try $0.principal(presenting: fresh) } == .user("ayse"))
        let user = try durable.read { try $0.user("ayse", as: .user("ayse")) }
        #expect(
            user
                == User(
                    id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41, longitude: 29), precision: .exact))
    }

    @Test func onlyTheUserOrTheAdminReplacesAToken() throws {
        let (durable, admin, ayse, mehmet) = try directory()
        defer { durable.close() }
        #expect(
            throws: PlacesError.forbidden(action: "replacing a user's token needs that user's token or the admin token")
        ) {
            try durable.performAndWait(.replaceUserToken("ayse"), presenting: mehmet)
        }
        #expect(throws: PlacesError.noSuchUser("mehmet"), "a private user looks missing") {
            try durable.performAndWait(.replaceUserToken("mehmet"), presenting: ayse)
        }
        #expect(throws: PlacesError.noSuchUser("nobody")) {
            try durable.performAndWait(.replaceUserToken("nobody"), presenting: admin)
        }
        let fresh = try #require(try durable.performAndWait(.replaceUserToken("mehmet"), presenting: admin))
        #expect(try durable.read { try $0.principal(presenting: fresh) } == .user("mehmet"))
        #expect(throws: PlacesError.invalidToken) { try durable.read { try $0.principal(presenting: mehmet) } }
    }

    @Test func onlyTheAdminListsUsers() throws {
        let (durable, _, _, _) = try directory()
        defer { durable.close() }
        #expect(try durable.read { try $0.users(as: .admin) }.map(\.id) == ["ayse", "mehmet"])
        for principal in [Principal.anonymous, .user("ayse"), .user("mehmet")] {
            #expect(throws: PlacesError.forbidden(action: "listing users needs the admin token")) {
                try durable.read { try $0.users(as: principal) }
            }
        }
    }
}
