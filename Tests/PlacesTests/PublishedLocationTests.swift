import Foundation
import Geo
import PlaceQueries
import TestSupport
import Testing

@testable import Places

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}

/// Who sees which location (issue 18): others the published one, in every record, query, answer,
/// watch and key version; the user their exact one; the admin the exact record but the same map
/// as everyone.
@Suite(.timeLimit(.minutes(10))) struct PublishedLocationTests {
    /// The centre of a street cell, and Ada a few meters from it (so that a 10 m move keeps her
    /// in the cell).
    static let centre = LocationPrecision.street.published(at(41.0123, 29.0456))
    static let ada = at(centre.latitude + 0.000_05, centre.longitude - 0.000_04)
    static let query = at(41.02, 29.05)

    let durable: DurableDirectory
    var tokens: [String: String] = [:]

    init() async throws {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        directory.privacy = PrivacySettings(defaultPrecision: .street, locationTTLSeconds: 3_600)
        durable = DurableDirectory(directory, store: MemoryStore())
        let users = [
            User(id: "ada", name: "Ada", location: Self.ada),
            User(id: "bob", name: "Bob", location: at(41.013, 29.047)),
            User(id: "cem", name: "Cem", location: at(41.011, 29.044), precision: .district),
            User(id: "dan", name: "Dan", location: at(41.014, 29.043), precision: .exact),
        ]
        for user in users { tokens[user.id] = try await durable.perform(.addUser(user), by: .admin) }
    }

    /// `body` on a copy of the directory as it is now.
    func read<T>(_ body: (PlaceDirectory) throws -> T) throws -> T { try body(durable.read { $0 }) }

    @Test func othersReadThePublishedRecordTheUserAndTheAdminTheExactOne() throws {
        let published = LocationPrecision.street.published(Self.ada)
        #expect(published == Self.centre)
        for principal in [Principal.anonymous, .user("bob")] {
            let seen = try read { try $0.user("ada", as: principal) }
            #expect(seen.location == published && seen.precision == .street, "\(principal)")
            #expect(seen.locationExpiresAt == nil && seen.privateUntil == nil)
        }
        for principal in [Principal.user("ada"), .admin] {
            let seen = try read { try $0.user("ada", as: principal) }
            #expect(seen.location == Self.ada && seen.locationExpiresAt != nil, "\(principal)")
        }
        // On maps (`GEOPOS`), the admin sees what everyone sees; only Ada sees herself exactly.
        #expect(try read { try $0.userOnMap("ada", as: .admin) }.location == published)
        #expect(try read { try $0.userOnMap("ada", as: .anonymous) }.location == published)
        #expect(try read { try $0.userOnMap("ada", as: .user("ada")) }.location == Self.ada)
        // The admin's list is the exact records.
        #expect(try read { try $0.users(as: .admin) }.first { $0.id == "ada" }?.location == Self.ada)
    }

    @Test func queriesShowOthersAtTheirPublishedLocationsAndTheAskerExactly() throws {
        for principal in [Principal.anonymous, .user("bob"), .admin] {
            let hits = try read { try $0.nearbyUsers(Self.query, radiusMeters: 5_000, as: principal) }
            #expect(Set(hits.map(\.user.id)) == ["ada", "bob", "cem", "dan"])
            for hit in hits where hit.user.id != principal.userID {
                #expect(hit.user.location == hit.user.publishedLocation, "\(principal) sees \(hit.user.id)")
                #expect(hit.distanceStepMeters == hit.user.effectivePrecision.cellMeters)
                #expect(hit.user.locationExpiresAt == nil)
            }
        }
        let own = try read { try $0.nearbyUsers(Self.query, radiusMeters: 5_000, as: .user("ada")) }
        #expect(own.filter { $0.user.id == "ada" }.map(\.user.location) == [Self.ada])
        #expect(own.first { $0.user.id == "ada" }?.distanceStepMeters == 0)
    }

    @Test func theNearestUsersOfAUserOnTheMapStillNumberCount() throws {
        // Ada is the nearest to her own location: her published entry must not take a place.
        for count in 1...4 {
            let hits = try read { try $0.nearestUsers(count, to: Self.ada, as: .user("ada")) }
            #expect(hits.count == count)
            #expect(Set(hits.map(\.user.id)).count == count, "nobody twice")
            #expect(hits.first?.user == (try read { try $0.user("ada", as: .user("ada")) }))
            #expect(hits.first?.distanceMeters == 0)
        }
        let all = try read { try $0.nearestUsers(10, to: Self.ada, as: .user("ada")) }
        #expect(all.map(\.user.id).sorted() == ["ada", "bob", "cem", "dan"])
    }

    @Test func answersRoundDistancesToOthersToTheirPrecision() throws {
        let query = PlaceQuery(
            collection: .users, center: Self.query, reach: .within(radiusMeters: 5_000, limit: nil),
            principal: .anonymous, measures: .exact)
        let answer = try read { try $0.answer(query) }
        #expect(answer.hits.count == 4)
        for hit in answer.hits {
            let user = try read { try $0.user(hit.id, as: .admin) }
            #expect(hit.coordinate == user.publishedLocation)
            let step = user.effectivePrecision.cellMeters
            let truth = try DistanceModel.geodesic.distance(Self.query, hit.coordinate)
            #expect(hit.precision == user.effectivePrecision, "every user seen by others names their precision")
            if step > 0 {
                #expect(hit.distanceMeters == (truth / step).rounded() * step, "\(hit.id)")
            } else {
                #expect(abs(hit.distanceMeters - truth) < 1e-6, "an exact user's distance is not rounded")
            }
        }
        var own = query
        own.principal = .user("ada")
        let mine = try #require(try read { try $0.answer(own) }.hits.first { $0.id == "ada" })
        #expect(mine.precision == nil && mine.coordinate == Self.ada)
        #expect(abs(mine.distanceMeters - (try DistanceModel.geodesic.distance(Self.query, Self.ada))) < 1e-6)
    }

    @Test func aMoveInsideACellShowsToTheUserAlone() async throws {
        let spec = WatchSpec(kind: PlaceDirectory.userKind, center: .point(Self.query), radiusMeters: 3_000)
        let others = WatchSubscriber {}
        let mine = WatchSubscriber {}
        let roaming = WatchSubscriber {}
        _ = try durable.watch(spec, presenting: tokens["bob"], for: others)
        _ = try durable.watch(spec, by: .admin, for: others)
        _ = try durable.watch(spec, presenting: tokens["ada"], for: mine)
        let follows = WatchSpec(kind: PlaceDirectory.userKind, center: .user("ada"), radiusMeters: 3_000)
        _ = try durable.watch(follows, presenting: tokens["ada"], for: roaming)
        let start = others.take()
        #expect(
            start.filter { $0.kind == .inside && $0.object?.id == "ada" }.allSatisfy {
                $0.object?.coordinate == Self.centre
            })
        _ = mine.take()
        _ = roaming.take()
        let version = durable.version(ofKey: PlaceDirectory.userKind)

        let nearby = at(Self.ada.latitude + 0.000_09, Self.ada.longitude)  // 10 m north
        #expect(LocationPrecision.street.published(nearby) == Self.centre, "the move stays in the cell")
        try await durable.perform(.moveUser("ada", to: nearby), presenting: tokens["ada"])
        #expect(others.take().isEmpty, "nobody else is told of a move inside a cell")
        #expect(durable.version(ofKey: PlaceDirectory.userKind) == version, "nor sees the user key change")
        let own = mine.take()
        #expect(own.map(\.kind) == [.move])
        #expect(own.first?.object?.coordinate == nearby && own.first?.object?.distanceStepMeters == 0)
        let followed = roaming.take()
        #expect(followed.contains { $0.kind == .center && $0.center == nearby }, "\(followed.map(\.kind))")
        #expect(followed.contains { $0.kind == .move && $0.object?.id == "ada" }, "\(followed.map(\.kind))")
    }

    @Test func theAdminFollowsAUserFromThePublishedLocation() async throws {
        // The admin reads Ada's exact record, but their queries and maps show her published
        // location; a watch of theirs that follows her is one of those queries.
        let follows = WatchSpec(kind: "pharmacy", center: .user("ada"), radiusMeters: 3_000)
        let admins = WatchSubscriber {}
        let own = WatchSubscriber {}
        _ = try durable.watch(follows, by: .admin, for: admins)
        _ = try durable.watch(follows, presenting: tokens["ada"], for: own)
        _ = admins.take()
        _ = own.take()

        let nearby = at(Self.ada.latitude + 0.000_09, Self.ada.longitude)  // 10 m north
        #expect(LocationPrecision.street.published(nearby) == Self.centre, "the move stays in the cell")
        try await durable.perform(.moveUser("ada", to: nearby), presenting: tokens["ada"])
        #expect(admins.take().isEmpty, "the admin's watch does not move with her inside the cell")
        #expect(own.take().contains { $0.kind == .center && $0.center == nearby }, "hers does")

        let across = at(Self.ada.latitude + 0.003, Self.ada.longitude)  // 333 m north
        try await durable.perform(.moveUser("ada", to: across), presenting: tokens["ada"])
        let moved = admins.take()
        #expect(moved.map(\.kind) == [.center], "\(moved.map(\.kind))")
        #expect(moved.first?.center == LocationPrecision.street.published(across), "at the new cell's centre")
    }

    @Test func aMoveAcrossCellsShowsToEveryoneAtTheNewCentre() async throws {
        let spec = WatchSpec(kind: PlaceDirectory.userKind, center: .point(Self.query), radiusMeters: 3_000)
        let others = WatchSubscriber {}
        _ = try durable.watch(spec, presenting: tokens["bob"], for: others)
        _ = others.take()
        let version = durable.version(ofKey: PlaceDirectory.userKind)

        let across = at(Self.ada.latitude + 0.003, Self.ada.longitude)  // 333 m north
        let published = LocationPrecision.street.published(across)
        #expect(published != Self.centre)
        try await durable.perform(.moveUser("ada", to: across), presenting: tokens["ada"])
        let moved = others.take()
        #expect(moved.map(\.kind) == [.move])
        #expect(moved.first?.object?.coordinate == published && moved.first?.object?.distanceStepMeters == 100)
        if let measured = moved.first?.measure() {
            #expect(measured.distanceMeters.truncatingRemainder(dividingBy: 100) == 0, "rounded to the cell")
        }
        #expect(durable.version(ofKey: PlaceDirectory.userKind) > version)

        try await durable.perform(.moveUser("ada", to: at(41.2, 29.05)), presenting: tokens["ada"])
        #expect(others.take().map(\.kind) == [.exit])
        try await durable.perform(.moveUser("ada", to: Self.ada), presenting: tokens["ada"])
        let back = others.take()
        #expect(back.map(\.kind) == [.enter])
        #expect(back.first?.object?.coordinate == Self.centre)
    }
}

extension Principal {
    /// The id of the user this principal is, if a user.
    fileprivate var userID: String? { if case .user(let id) = self { id } else { nil } }
}
