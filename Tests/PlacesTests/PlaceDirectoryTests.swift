import Geo
import Testing

@testable import Places

/// A valid coordinate in degrees (test values only).
private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}

/// Users, visibility and authorization through the façade.
@Suite struct PlaceDirectoryTests {
    let here = at(41.088154, 29.015615)

    func directory() throws -> PlaceDirectory { PlaceDirectory(places: try PlaceCatalog()) }

    static let adminOnly = PlacesError.forbidden(
        action: "adding a user needs the admin token (this server does not allow open registration)")

    @Test func onlyTheAdminAddsUsers() throws {
        var directory = try directory()
        #expect(throws: Self.adminOnly) {
            try directory.addUser(User(id: "ayse", name: "Ayşe"), by: .anonymous)
        }
        #expect(throws: Self.adminOnly) {
            try directory.addUser(User(id: "ayse", name: "Ayşe"), by: .user("ayse"))
        }
        try directory.addUser(User(id: "ayse", name: "Ayşe"), by: .admin)
        #expect(throws: PlacesError.userExists("ayse")) {
            try directory.addUser(User(id: "ayse", name: "x"), by: .admin)
        }
        #expect(throws: PlacesError.invalidUserID("")) { try directory.addUser(User(id: "", name: "x"), by: .admin) }
        // `%` would not survive clients that decode a path parameter before encoding it.
        for id in ["%", "a%41b", "100%"] {
            #expect(throws: PlacesError.invalidUserID(id)) {
                try directory.addUser(User(id: id, name: "x"), by: .admin)
            }
        }
        #expect(PlacesError.invalidUserID("a%41b").description.contains(#"no control characters or "%""#))
    }

    /// Kinds and ids are stored in Unicode NFC: Swift takes `café` and `cafe` + U+0301 as one
    /// string and SQLite as two, which once made two rows of one place (and a database the server
    /// refused to load).
    @Test func kindsAndIdsAreStoredComposed() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "Swift compares by canonical equivalence")
        #expect(Array(PlaceDirectory.composed(decomposed).utf8) == Array(composed.utf8))
        var directory = try directory()
        let place = Place(id: decomposed, kind: "pharmacy\u{301}", name: "x", coordinate: here)
        guard case .putPlace(let stored) = try directory.plan(.setPlace(place), by: .admin).change else {
            throw PlacesError.noSuchPlace(kind: "pharmacy", id: decomposed)
        }
        #expect(Array(stored.id.utf8) == Array(composed.utf8))
        #expect(Array(stored.kind.utf8) == Array("pharmac\u{FD}".utf8))
        try directory.perform(.setPlace(place), by: .admin)
        let removal = try directory.plan(.removePlace(kind: "pharmacy\u{301}", id: decomposed), by: .admin)
        guard case .removePlace(_, let removed) = removal.change else {
            throw PlacesError.noSuchPlace(kind: "", id: "")
        }
        #expect(Array(removed.utf8) == Array(composed.utf8))
        // Users too, and a change to a user names the stored id byte for byte.
        try directory.addUser(User(id: decomposed, name: "Café", location: here), by: .admin)
        #expect(throws: PlacesError.userExists(composed)) {
            try directory.addUser(User(id: composed, name: "x"), by: .admin)
        }
        let planned = try directory.plan(.moveUser(decomposed, to: nil), by: .admin)
        guard case .moveUser(let id, _, _) = planned.change else { throw PlacesError.noSuchUser(decomposed) }
        #expect(Array(id.utf8) == Array(composed.utf8))
    }

    /// With open registration anyone adds a user and receives its token, which then works for that
    /// user only; everything else is as before (the same id twice, other users' records).
    @Test func openRegistrationLetsAnyoneAddAUser() throws {
        var directory = try directory()
        directory.openRegistration = true
        let token = try directory.addUser(User(id: "ayse", name: "Ayşe", location: here), by: .anonymous)
        #expect(try directory.principal(presenting: token) == .user("ayse"))
        let other = try directory.addUser(
            User(id: "mehmet", name: "Mehmet", location: here, visibility: .private), by: .user("ayse"))
        #expect(try directory.principal(presenting: other) == .user("mehmet"))
        #expect(throws: PlacesError.userExists("ayse")) {
            try directory.addUser(User(id: "ayse", name: "x"), by: .anonymous)
        }
        // Registering someone gives no right over them afterwards, nor a sight of them when private.
        #expect(throws: PlacesError.noSuchUser("mehmet")) {
            try directory.perform(.moveUser("mehmet", to: here), by: .user("ayse"))
        }
        #expect(try directory.nearbyUsers(here, radiusMeters: 100, as: .anonymous).map(\.user.id) == ["ayse"])
        directory.openRegistration = false
        #expect(throws: Self.adminOnly) { try directory.addUser(User(id: "zeynep", name: "Z"), by: .anonymous) }
    }

    @Test func aPrivateUserIsInvisibleToOthersAndVisibleToThemselves() throws {
        var directory = try directory()
        try directory.addUser(User(id: "ayse", name: "Ayşe", location: here, visibility: .private), by: .admin)
        try directory.addUser(User(id: "mehmet", name: "Mehmet", location: here), by: .admin)
        for observer in [Principal.anonymous, .user("mehmet")] {
            let ids = try directory.nearbyUsers(here, radiusMeters: 1_000, as: observer).map(\.user.id)
            #expect(ids == ["mehmet"])
            #expect(try directory.countUsers(here, radiusMeters: 1_000, as: observer) == 1)
            #expect(throws: PlacesError.noSuchUser("ayse")) { try directory.user("ayse", as: observer) }
        }
        #expect(
            try directory.nearbyUsers(here, radiusMeters: 1_000, as: .user("ayse")).map(\.user.id) == [
                "ayse", "mehmet",
            ])
        #expect(try directory.user("ayse", as: .admin).location == here)
    }

    @Test func someoneElsesPrivateRecordLooksMissingAndAPublicOneIsForbidden() throws {
        var directory = try directory()
        try directory.addUser(User(id: "ayse", name: "Ayşe", location: here, visibility: .private), by: .admin)
        try directory.addUser(User(id: "mehmet", name: "Mehmet", location: here), by: .admin)
        #expect(throws: PlacesError.noSuchUser("ayse")) { try directory.moveUser("ayse", to: nil, by: .user("mehmet")) }
        #expect(throws: PlacesError.noSuchUser("nobody")) { try directory.moveUser("nobody", to: nil, by: .admin) }
        #expect(
            throws: PlacesError.forbidden(action: "moving a user needs that user's token or the admin token")
        ) { try directory.moveUser("mehmet", to: nil, by: .user("ayse")) }
        #expect(try directory.user("mehmet", as: .anonymous).location == here, "nothing changed")
    }

    @Test func aUserWithoutALocationIsOnNoMap() throws {
        var directory = try directory()
        try directory.addUser(User(id: "ayse", name: "Ayşe"), by: .admin)
        let origin = at(0, 0)
        #expect(try directory.nearbyUsers(origin, radiusMeters: 21_000_000, as: .admin).isEmpty)
        #expect(try directory.nearestUsers(5, to: origin, as: .user("ayse")).isEmpty)
        #expect(try directory.user("ayse", as: .anonymous).location == nil)
    }

    /// Must show: random sequences of add / move / visibility / remove by several users, with
    /// queries by everybody after every step. Nobody else ever gets a private user (not in a list,
    /// not in a count, not by id), a user always sees themselves, nobody is at 0°, 0° without
    /// having been put there, and refused actions change nothing.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func privateUsersNeverLeak(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var directory = try directory()
        var shadow: [String: User] = [:]
        let ids = (0..<6).map { "u\($0)" }
        let observers: [Principal] = [.anonymous, .admin] + ids.map { .user($0) }
        func randomLocation() -> Coordinate? {
            switch random.next() % 10 {
            case 0: return nil
            case 1: return at(0, 0)
            case 2, 3:
                return at(90 - Double(random.next() % 3) * 1e-6, Double(random.next() % 360) - 180)
            default:
                return at(41.08 + Double(random.next() % 1000) * 1e-5, 29.01 + Double(random.next() % 1000) * 1e-5)
            }
        }
        for step in 0..<300 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            let actor = observers[Int(random.next() % UInt64(observers.count))]
            let before = shadow
            do {
                switch random.next() % 4 {
                case 0:
                    let user = User(
                        id: id, name: id, location: randomLocation(),
                        visibility: random.next() % 2 == 0 ? .public : .private)
                    try directory.addUser(user, by: actor)
                    shadow[id] = user
                case 1:
                    let location = randomLocation()
                    try directory.moveUser(id, to: location, by: actor)
                    shadow[id]?.location = location
                case 2:
                    let visibility: Visibility = random.next() % 2 == 0 ? .public : .private
                    try directory.setVisibility(id, to: visibility, by: actor)
                    shadow[id]?.visibility = visibility
                default:
                    try directory.removeUser(id, by: actor)
                    shadow[id] = nil
                }
            } catch {
                #expect(shadow == before, "a refused action changed nothing (step \(step))")
            }
            try check(directory, against: shadow, observers: observers, random: &random, step: step)
        }
    }

    private func check(
        _ directory: PlaceDirectory, against shadow: [String: User], observers: [Principal],
        random: inout SplitMix64, step: Int
    ) throws {
        let center = at(41.085, 29.012)
        for observer in observers {
            func visible(_ user: User) -> Bool { user.visibility == .public || observer == .user(user.id) }
            for radius in [0.0, 800, 3_000, 21_000_000] {
                let hits = try directory.nearbyUsers(center, radiusMeters: radius, as: observer)
                let expected = shadow.values.filter { user in
                    guard visible(user), let location = user.location else { return false }
                    return Geodesic.wgs84.distance(center, location) <= radius
                }
                #expect(Set(hits.map(\.user.id)) == Set(expected.map(\.id)), "step \(step) \(observer) r=\(radius)")
                #expect(try directory.countUsers(center, radiusMeters: radius, as: observer) == expected.count)
                for hit in hits {
                    #expect(visible(hit.user), "step \(step): \(observer) got private \(hit.user.id)")
                    #expect(hit.user.location != nil)
                    if hit.user.location == at(0, 0) {
                        #expect(
                            shadow[hit.user.id]?.location == at(0, 0), "nobody at 0,0 by default")
                    }
                }
            }
            let nearest = try directory.nearestUsers(50, to: center, as: observer)
            #expect(nearest.allSatisfy { visible($0.user) })
            if case .user(let own) = observer, shadow[own]?.location != nil {
                #expect(nearest.contains { $0.user.id == own }, "a user always sees themselves")
            }
            for (id, user) in shadow {
                let record = try? directory.user(id, as: observer)
                #expect(
                    (record != nil) == (visible(user) || observer == .admin), "step \(step) \(observer) reads \(id)")
                if let record {
                    var expected = user
                    expected.precision = expected.precision ?? .exact
                    #expect(record == expected)
                }
            }
        }
    }
}
