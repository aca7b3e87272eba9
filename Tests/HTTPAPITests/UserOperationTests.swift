import Places
import Testing

@testable import HTTPAPI

/// The user operations: registration, records, moves, visibility and removal, and above all that
/// a private user is never visible to anyone but themselves and the admin.
@Suite(.timeLimit(.minutes(10))) struct UserOperationTests {
    static func nearbyUsers(radius: Double = 500) -> Operations.FindNearbyUsers.Input {
        .init(query: .init(lat: APIFixture.here.lat, lon: APIFixture.here.lon, radius: radius))
    }

    static func getUser(_ id: String) -> Operations.GetUser.Input { .init(path: .init(id: id)) }

    @Test func theAdminRegistersAUserWhoseTokenIsShownOnceAndWorks() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let output = try await fixture.callAs(fixture.admin) {
            try await api.registerUser(
                .init(body: .json(.init(id: "can", name: "Can", location: .init(lat: 41.0882, lon: 29.0157)))))
        }
        let created = try output.created
        #expect(created.headers.location == "/v1/users/can" && created.headers.cacheControl == .noStore)
        let registered = try created.body.json
        #expect(registered.token.count == 43 && !registered.token.hasPrefix("-"))
        #expect(
            registered.user
                == .init(
                    id: "can", name: "Can", visibility: ._public, precision: .exact,
                    location: .init(lat: 41.0882, lon: 29.0157)))
        // The token is theirs: they may make themselves private.
        let changed = try await fixture.callAs(registered.token) {
            try await api.setUserVisibility(
                .init(path: .init(id: "can"), body: .json(._private(.init(visibility: ._private)))))
        }
        #expect(try changed.ok.body.json.visibility == ._private)
    }

    @Test func registrationNeedsTheAdminAndAFreeValidID() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let body = Operations.RegisterUser.Input(body: .json(.init(id: "new")))
        await #expect(throws: HTTPAPIError.missingToken) {
            try await fixture.callAs(nil) { try await api.registerUser(body) }
        }
        await #expect(throws: HTTPAPIError.places(.invalidToken)) {
            try await fixture.callAs(APIFixture.strangerToken) { try await api.registerUser(body) }
        }
        let forbidden = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.ayse) { try await api.registerUser(body) }
        }
        #expect(forbidden?.httpStatus == .forbidden)
        // Taken, also when the holder is private: ids are unique.
        let taken = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.admin) {
                try await api.registerUser(.init(body: .json(.init(id: "mehmet"))))
            }
        }
        #expect(taken?.httpStatus == .conflict)
        for id in ["", "nearby", "a\u{0}b", String(repeating: "x", count: 129), "a%41b"] {
            let invalid = await #expect(throws: HTTPAPIError.self) {
                try await fixture.callAs(fixture.admin) {
                    try await api.registerUser(.init(body: .json(.init(id: id))))
                }
            }
            #expect(invalid?.httpStatus == .unprocessableContent, "id \(id.debugDescription)")
        }
        let badLocation = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.admin) {
                try await api.registerUser(.init(body: .json(.init(id: "far", location: .init(lat: 0, lon: 181)))))
            }
        }
        guard case .invalidBody(let pointer, _, _) = badLocation else {
            Issue.record("expected invalidBody, got \(String(describing: badLocation))")
            return
        }
        #expect(pointer == "/location/lon")
    }

    @Test func aPrivateUserLooksExactlyLikeAMissingOneToEveryoneElse() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        await #expect(throws: HTTPAPIError.places(.noSuchUser("ghost"))) {
            try await fixture.callAs(nil) { try await api.getUser(Self.getUser("ghost")) }
        }
        for token in [nil, fixture.ayse, fixture.zeynep] {
            let hidden = await #expect(throws: HTTPAPIError.self) {
                try await fixture.callAs(token) { try await api.getUser(Self.getUser("mehmet")) }
            }
            // The same error as for an id that was never registered: status, detail, headers.
            #expect(hidden == .places(.noSuchUser("mehmet")))
            #expect(hidden?.httpStatus == .notFound)
            #expect(hidden?.description == #"no user "mehmet" that you can see"#)
        }
        for token in [fixture.mehmet, fixture.admin] {
            let record = try await fixture.callAs(token) { try await api.getUser(Self.getUser("mehmet")) }
            #expect(try record.ok.body.json.visibility == ._private)
        }
        let ayse = try await fixture.callAs(nil) { try await api.getUser(Self.getUser("ayse")) }.ok.body.json
        #expect(
            ayse
                == .init(
                    id: "ayse", name: "Ayşe", visibility: ._public, precision: .exact,
                    location: .init(lat: 41.0885, lon: 29.0158)))
        let zeynep = try await fixture.callAs(nil) { try await api.getUser(Self.getUser("zeynep")) }.ok.body.json
        #expect(zeynep.location == nil, "a user without a location has none: never 0, 0")
    }

    @Test func nearbyUsersNeverShowsAPrivateUserToAnyoneElse() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        for token in [nil, fixture.ayse, fixture.zeynep] {
            let result = try await fixture.callAs(token) { try await api.findNearbyUsers(Self.nearbyUsers()) }.ok.body
                .json
            #expect(result.results.map(\.id) == ["ayse"] && result.total == 1)
            let asPlaces = try await fixture.callAs(token) {
                try await api.findNearby(QueryOperationTests.nearby(kind: "user"))
            }
            #expect(try asPlaces.ok.body.json.results.map(\.id) == ["ayse"])
            let nearest = try await fixture.callAs(token) {
                try await api.findNearest(
                    .init(query: .init(lat: APIFixture.here.lat, lon: APIFixture.here.lon, count: 10, kind: "user")))
            }
            #expect(try nearest.ok.body.json.results.map(\.id) == ["ayse"])
        }
        // Mehmet sees himself, marked private; no one else does.
        let own = try await fixture.callAs(fixture.mehmet) { try await api.findNearbyUsers(Self.nearbyUsers()) }.ok.body
            .json
        #expect(own.results.map(\.id) == ["mehmet", "ayse"])
        #expect(own.results.map(\.visibility) == [._private, ._public])
        #expect(own.results[1].distanceM == 41.45)
        #expect(own.results[1].bearingDeg == 22.02)
    }

    @Test func goingPrivateTakesAUserOffEveryMapAtOnce() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        _ = try await fixture.callAs(fixture.ayse) {
            try await api.setUserVisibility(
                .init(path: .init(id: "ayse"), body: .json(._private(.init(visibility: ._private)))))
        }
        let others = try await fixture.callAs(fixture.zeynep) { try await api.findNearbyUsers(Self.nearbyUsers()) }
        #expect(try others.ok.body.json.results.isEmpty && others.ok.body.json.total == 0)
        _ = try await fixture.callAs(fixture.ayse) {
            try await api.setUserVisibility(
                .init(path: .init(id: "ayse"), body: .json(._public(.init(visibility: ._public)))))
        }
        let back = try await fixture.callAs(nil) { try await api.findNearbyUsers(Self.nearbyUsers()) }
        #expect(try back.ok.body.json.results.map(\.id) == ["ayse"])
    }

    @Test func anotherUsersTokenIsForbiddenForAPublicUserAndNotFoundForAPrivateOne() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let move = Operations.MoveUser.Input(path: .init(id: "ayse"), body: .json(.init(lat: 41, lon: 29)))
        let forbidden = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.zeynep) { try await api.moveUser(move) }
        }
        #expect(forbidden?.httpStatus == .forbidden)
        let moveMehmet = Operations.MoveUser.Input(path: .init(id: "mehmet"), body: .json(.init(lat: 41, lon: 29)))
        let hidden = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.zeynep) { try await api.moveUser(moveMehmet) }
        }
        #expect(hidden == .places(.noSuchUser("mehmet")))
        for request in [
            { try await api.deleteUser(.init(path: .init(id: "mehmet"))) },
            { try await api.forgetUserLocation(.init(path: .init(id: "mehmet"))) },
            {
                try await api.setUserVisibility(
                    .init(path: .init(id: "mehmet"), body: .json(._public(.init(visibility: ._public)))))
            },
        ] as [@Sendable () async throws -> any Sendable] {
            let error = await #expect(throws: HTTPAPIError.self) {
                try await fixture.callAs(fixture.ayse) { try await request() }
            }
            #expect(error == .places(.noSuchUser("mehmet")))
            await #expect(throws: HTTPAPIError.missingToken) { try await fixture.callAs(nil) { try await request() } }
        }
        // Still private, still there.
        let record = try await fixture.callAs(fixture.admin) { try await api.getUser(Self.getUser("mehmet")) }
        #expect(try record.ok.body.json.visibility == ._private)
    }

    @Test func aUserMovesForgetsTheirLocationAndLeaves() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let moved = try await fixture.callAs(fixture.ayse) {
            try await api.moveUser(.init(path: .init(id: "ayse"), body: .json(.init(lat: 41.0862, lon: 29.0107))))
        }
        #expect(try moved.ok.body.json.location == .init(lat: 41.0862, lon: 29.0107))
        let badMove = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.ayse) {
                try await api.moveUser(.init(path: .init(id: "ayse"), body: .json(.init(lat: -91, lon: 29))))
            }
        }
        #expect(badMove?.httpStatus == .unprocessableContent)

        let forgotten = try await fixture.callAs(fixture.ayse) {
            try await api.forgetUserLocation(.init(path: .init(id: "ayse")))
        }
        #expect(try forgotten.ok.body.json.location == nil)
        let map = try await api.findNearbyUsers(.init(query: .init(lat: 41.0862, lon: 29.0107, radius: 20_000_000)))
        #expect(try map.ok.body.json.results.isEmpty, "without a location she is on no map")

        _ = try await fixture.callAs(fixture.admin) { try await api.deleteUser(.init(path: .init(id: "ayse"))) }
            .noContent
        await #expect(throws: HTTPAPIError.places(.noSuchUser("ayse"))) {
            try await fixture.callAs(nil) { try await api.getUser(Self.getUser("ayse")) }
        }
        await #expect(throws: HTTPAPIError.places(.invalidToken), "a removed user's token no longer works") {
            try await fixture.callAs(fixture.ayse) { try await api.getUser(Self.getUser("zeynep")) }
        }
    }
}
