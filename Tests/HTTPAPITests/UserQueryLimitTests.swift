import Foundation
import Places
import Testing

@testable import HTTPAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The scraping limit over HTTP (`UserQueryLimit`): every operation that answers about other users
/// takes one query from the asker's budget and answers 429 with `Retry-After` beyond it; place
/// queries, a user's own record and the admin are not counted.
@Suite(.timeLimit(.minutes(10))) struct UserQueryLimitTests {
    static let here = UserPrivacyTests.here
    /// One query a second in bursts of two: the third at once is refused.
    /// A stopped clock: no budget refills while a loaded machine stalls.
    static func limit() -> UserQueryLimit {
        UserQueryLimit(perSecond: 1, burst: 2, now: { UserQueryLimitTests.stopped })
    }
    static let stopped = ContinuousClock.now

    /// Every operation that answers about other users but the watches (a stream is never read whole
    /// by the recording transport; they are checked by calling the handler).
    @Test(arguments: [
        "/v1/users/nearby?\(here)", "/v1/nearby?\(here)&kind=user", "/v1/nearby.geojson?\(here)&kind=user",
        "/v1/nearest?\(here)&kind=user", "/v1/nearest.geojson?\(here)&kind=user", "/v1/map?\(here)&kind=user",
        "/v1/users/kerem",
    ])
    func theThirdQueryAboutUsersIsA429WithRetryAfter(target: String) async throws {
        let fixture = try await PrivacyFixture(userQueryLimit: Self.limit())
        defer { fixture.close() }
        for token in [nil, fixture.ozan] {
            let statuses = try await (0..<2).asyncMap { _ in try await fixture.send(token, target).status }
            #expect(statuses == [200, 200], "\(target)")
            let refused = try await fixture.send(token, target)
            #expect(refused.status == 429, "\(target): \(refused.body)")
            #expect(refused.response.headerFields[.retryAfter] == "1")
            #expect(refused.response.headerFields[.contentType] == "application/problem+json")
            let error = PlacesError.tooManyQueries(perSecond: 1, burst: 2, retryAfterSeconds: 1)
            #expect(refused.detail == error.description && refused.json["title"] as? String == "Too Many Requests")
        }
        // The admin is never limited.
        for _ in 0..<5 { #expect(try await fixture.send(fixture.admin, target).status == 200) }
    }

    @Test func placeQueriesAndOnesOwnRecordAreNotCounted() async throws {
        let fixture = try await PrivacyFixture(userQueryLimit: Self.limit())
        defer { fixture.close() }
        for _ in 0..<5 {
            for target in [
                "/v1/nearby?\(Self.here)", "/v1/nearest.geojson?\(Self.here)", "/v1/map?\(Self.here)",
                "/v1/places/pharmacy/omur", "/v1/distance?from_lat=0&from_lon=0&to_lat=0&to_lon=1",
            ] {
                #expect(try await fixture.send(nil, target).status == 200, "\(target)")
            }
            #expect(try await fixture.send(fixture.kerem, "/v1/users/kerem").status == 200)
        }
        // Kerem's budget is still whole: two queries about others, then a 429.
        let statuses = try await (0..<3).asyncMap { _ in
            try await fixture.send(fixture.kerem, "/v1/users/nearby?\(Self.here)").status
        }
        #expect(statuses == [200, 200, 429])
        // Each asker has a budget of their own: ozan's is untouched.
        #expect(try await fixture.send(fixture.ozan, "/v1/users/ozan").status == 200)
        #expect(try await fixture.send(fixture.ozan, "/v1/users/kerem").status == 200)
    }

    @Test func aWatchOfUsersIsOneQueryWhenItStarts() async throws {
        let fixture = try await PrivacyFixture(userQueryLimit: Self.limit())
        defer { fixture.close() }
        let api = fixture.api
        let point = (lat: PrivacyFixture.here.lat, lon: PrivacyFixture.here.lon)
        let first = try await api.watchNearbyUsers(.init(query: .init(lat: point.lat, lon: point.lon)))
        let second = try await api.watchNearby(.init(query: .init(kind: "user", lat: point.lat, lon: point.lon)))
        await #expect(throws: HTTPAPIError.places(.tooManyQueries(perSecond: 1, burst: 2, retryAfterSeconds: 1))) {
            try await api.watchNearbyUsers(.init(query: .init(lat: point.lat, lon: point.lon)))
        }
        // A watch of places is not a query about users.
        let places = try await api.watchNearby(.init(query: .init(lat: point.lat, lon: point.lon)))
        _ = (first, second, places)
    }

    @Test func theServerSharesTheLimitItIsGivenAndCountsTheAnonymousByAddress() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let limit = Self.limit()
        let server = HTTPServer(directory: fixture.api.directory, host: "127.0.0.1", port: 0, userQueryLimit: limit)
        let port = try await server.start()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let users = try #require(URL(string: "/v1/users/nearby?\(Self.here)", relativeTo: base))
        let places = try #require(URL(string: "/v1/nearby?\(Self.here)", relativeTo: base))
        // The budget refills by one a second: on a loaded machine a few requests may pass before
        // the burst is spent, but not ten in a row.
        var refused: (status: Int, headers: [String: String], body: String)?
        for _ in 0..<10 {
            let reply = try await HTTPServerTests.request("GET", users)
            if reply.status != 200 {
                refused = reply
                break
            }
        }
        #expect(refused?.status == 429 && refused?.headers["retry-after"] == "1", "\(String(describing: refused))")
        // The 429 can only come from the instance it was given (a server's own default is no
        // limit). That the address is the key is checked by the line protocol's and `serve`'s
        // tests, which share one budget across protocols; re-reading the bucket here would race
        // its refill on a loaded machine (a 73 s stall in CI once refilled it).
        #expect(try await HTTPServerTests.request("GET", places).status == 200)
        await server.shutdown()
    }
}

extension Sequence {
    /// The results of `transform` on each element, one after the other.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
