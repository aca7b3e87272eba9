import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// Requests through the generated server and the middlewares (no socket): the text of
/// parameters, tokens, bodies, and the problem documents every error becomes.
@Suite(.timeLimit(.minutes(10))) struct RouteTests {
    static let nearby = "/v1/nearby?lat=41.088154&lon=29.015615"

    @Test(arguments: [
        ("lat=abc&lon=29", #"invalid latitude "abc": expected a number of degrees from -90 to 90"#, "lat"),
        ("lat=nan&lon=29", #"invalid latitude "nan": expected a number of degrees from -90 to 90"#, "lat"),
        ("lat=0x10&lon=29", #"invalid latitude "0x10": expected a number of degrees from -90 to 90"#, "lat"),
        ("lat=95&lon=29", #"invalid latitude "95": expected a number of degrees from -90 to 90"#, "lat"),
        ("lat=41&lon=%2B181", #"invalid longitude "+181": expected a number of degrees from -180 to 180"#, "lon"),
        ("lat=41", #"missing query parameter "lon": expected a number of degrees from -180 to 180"#, "lon"),
        ("lat=41&lon=29&limit=2.5", #"invalid limit "2.5": expected a whole number from 1 to 10000"#, "limit"),
        ("lat=41&lon=29&radius=1e9", #"invalid radius "1e9": expected 0 to 20000000 meters"#, "radius"),
        ("lat=41&lon=29&model=flat", #"invalid model "flat": expected geodesic, haversine or projected"#, "model"),
        ("lat=41&lat=0x10&lon=29", #"invalid latitude "0x10": expected a number of degrees from -90 to 90"#, "lat"),
    ])
    func badQueryTextIsA400ProblemNamingTheParameter(query: String, detail: String, parameter: String) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let reply = try await RecordingTransport.serving(fixture).send(.get, "/v1/nearby?" + query)
        #expect(reply.status == 400)
        #expect(reply.response.headerFields[.contentType] == "application/problem+json")
        #expect(reply.detail == detail)
        #expect(reply.json["title"] as? String == "Bad Request" && reply.json["type"] as? String == "about:blank")
        let invalid = reply.json["invalid_params"] as? [[String: String]]
        #expect(invalid?.first?["name"] == parameter && invalid?.first?["in"] == "query")
    }

    @Test func jsonOrGeoJSONAsTheClientAsks() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let json = try await transport.send(.get, Self.nearby)
        #expect(json.status == 200 && json.response.headerFields[.contentType] == "application/json; charset=utf-8")
        #expect((json.json["results"] as? [[String: Any]])?.first?["distance_m"] is Double)
        #expect(!json.body.contains("\n") && json.body.hasPrefix(#"{"query":{"#), "one line, keys sorted")
        let geo = try await transport.send(
            .get, Self.nearby.replacingOccurrences(of: "nearby?", with: "nearby.geojson?"))
        #expect(geo.status == 200 && geo.response.headerFields[.contentType] == "application/geo+json; charset=utf-8")
        let feature = (geo.json["features"] as? [[String: Any]])?.first
        #expect((feature?["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [29.014096, 41.087853])
        let byAccept = try await transport.send(.get, Self.nearby, headers: [.accept: "application/geo+json"])
        #expect(
            byAccept.status == 303
                && byAccept.response.headerFields[.location]?.hasPrefix("/v1/nearby.geojson?") == true)
        let byFormat = try await transport.send(.get, Self.nearby + "&format=geojson")
        #expect(
            byFormat.status == 303
                && byFormat.response.headerFields[.location]?.hasPrefix("/v1/nearby.geojson?") == true)
    }

    @Test func anAcceptHeaderThatAllowsNoAnswerIs406AndAMalformedOne400() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let html = try await transport.send(.get, Self.nearby, headers: [.accept: "text/html"])
        #expect(html.status == 406 && html.response.headerFields[.contentType] == "application/problem+json")
        #expect(html.detail?.contains("text/html") == true && html.json["title"] as? String == "Not Acceptable")
        let malformed = try await transport.send(.get, Self.nearby, headers: [.accept: "garbage;;q=x"])
        #expect(malformed.status == 400)
        let any = try await transport.send(.get, Self.nearby, headers: [.accept: "*/*"])
        #expect(any.status == 200)
    }

    @Test func writesWithoutAGoodTokenAre401WithTheScheme() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let body = HTTPBody(#"{"lat":41,"lon":29}"#)
        let none = try await transport.send(
            .put, "/v1/places/pharmacy/x", headers: [.contentType: "application/json"], body: body)
        #expect(none.status == 401)
        #expect(none.response.headerFields[.wwwAuthenticate] == #"Bearer realm="vicinity""#)
        #expect(none.detail == "this needs a token: send Authorization: Bearer <token>")
        let basic = try await transport.send(.delete, "/v1/users/ayse", headers: [.authorization: "Basic eDp5"])
        #expect(basic.status == 401)
        // Operations that take no token do not look at the header.
        let distance = try await transport.send(
            .get, "/v1/distance?from_lat=0&from_lon=0&to_lat=0&to_lon=1", headers: [.authorization: "Basic eDp5"])
        #expect(distance.status == 200)
        let stranger = try await transport.send(
            .get, "/v1/users/ayse", headers: [.authorization: "Bearer " + APIFixture.strangerToken])
        #expect(stranger.status == 401)
        #expect(stranger.response.headerFields[.wwwAuthenticate] == #"Bearer realm="vicinity", error="invalid_token""#)
    }

    /// `serve --open-registration`: POST /v1/users without a token creates the user and returns its
    /// token, which then works for that user only; without the flag it is a 401.
    @Test(arguments: [false, true])
    func registrationWithoutATokenNeedsOpenRegistration(open: Bool) async throws {
        let fixture = try await APIFixture(openRegistration: open)
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(
            .post, "/v1/users", headers: [.contentType: "application/json"],
            body: HTTPBody(#"{"id":"deniz","name":"Deniz","location":{"lat":41.0886,"lon":29.0157}}"#))
        guard open else {
            #expect(reply.status == 401)
            #expect(reply.detail == "this needs a token: send Authorization: Bearer <token>")
            return
        }
        #expect(reply.status == 201, "\(reply.body)")
        let token = try #require(reply.json["token"] as? String)
        let own = try await transport.send(.get, "/v1/users/deniz", headers: [.authorization: "Bearer " + token])
        #expect(own.status == 200)
        // The new token is Deniz's, not the admin's: it cannot change another user.
        let other = try await transport.send(
            .delete, "/v1/users/ayse", headers: [.authorization: "Bearer " + token])
        #expect(other.status == 403)
        // A taken id is still a 409, with or without a token.
        let again = try await transport.send(
            .post, "/v1/users", headers: [.contentType: "application/json"], body: HTTPBody(#"{"id":"deniz"}"#))
        #expect(again.status == 409)
    }

    @Test func bodiesAreCheckedForTypeSizeSyntaxAndSchema() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let admin: HTTPFields = [.authorization: "Bearer " + fixture.admin, .contentType: "application/json"]
        func put(_ text: String, headers: HTTPFields? = nil) async throws -> RecordingTransport.Reply {
            try await transport.send(.put, "/v1/places/pharmacy/x", headers: headers ?? admin, body: HTTPBody(text))
        }
        let created = try await put(#"{"lat":41,"lon":29,"name":"X"}"#)
        // Not `%2Fv1%2Fplaces…` as the runtime writes it (apple/swift-openapi-generator#857).
        #expect(created.status == 201 && created.response.headerFields[.location] == "/v1/places/pharmacy/x")
        #expect(try await put(#"{"lat":41,"lon":29}"#).status == 200)
        let slash = try await transport.send(
            .put, "/v1/places/pharmacy/a%2Fb", headers: admin, body: HTTPBody(#"{"lat":41,"lon":29}"#))
        #expect(slash.response.headerFields[.location] == "/v1/places/pharmacy/a%2Fb")

        var text = admin
        text[.contentType] = "text/plain"
        let wrongType = try await put(#"{"lat":41,"lon":29}"#, headers: text)
        #expect(wrongType.status == 415 && wrongType.detail == "the body is text/plain: expected application/json")

        let notJSON = try await put(#"{"lat":41,"#)
        #expect(notJSON.status == 400)
        let unknown = try await put(#"{"lat":41,"lon":29,"colour":"red"}"#)
        #expect(unknown.status == 422 && unknown.detail == #"unknown field "colour" at /"#)
        let wrongType2 = try await put(#"{"lat":"north","lon":29}"#)
        #expect(wrongType2.status == 422 && wrongType2.detail == "invalid value at /lat: expected a number")
        // Found by schemathesis: the generated decoder reads null as an absent field.
        let null = try await put(#"{"lat":41,"lon":29,"attributes":null}"#)
        #expect(null.status == 422 && null.detail == "invalid value null at /attributes: leave the field out instead")
        let nested = try await put(#"{"lat":41,"lon":29,"attributes":[{"name":"a","value":null}]}"#)
        #expect(
            nested.status == 422
                && nested.detail == "invalid value null at /attributes/0/value: leave the field out instead")
        let missing = try await put(#"{"lat":41}"#)
        #expect(missing.status == 422 && missing.detail == #"missing field "lon" at /"#)
        let outOfRange = try await put(#"{"lat":95,"lon":29}"#)
        #expect(outOfRange.status == 422)
        #expect(outOfRange.detail == "invalid latitude 95 at /lat: expected a number of degrees from -90 to 90")
    }

    @Test func aBodyOverTheCapIsRefusedWithoutBeingReadWhole() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let headers: HTTPFields = [.authorization: "Bearer " + fixture.admin, .contentType: "application/json"]
        let cap = BodyLimitMiddleware.defaultMaximumBytes
        // A token that names no one is refused before the body is looked at.
        var stranger = headers
        stranger[.authorization] = "Bearer " + APIFixture.strangerToken
        let refused = try await transport.send(
            .put, "/v1/places/pharmacy/x", headers: stranger,
            body: HTTPBody(Array(repeating: UInt8(ascii: " "), count: cap + 1), length: .known(Int64(cap + 1))))
        #expect(refused.status == 401)
        let stated = try await transport.send(
            .put, "/v1/places/pharmacy/x", headers: headers,
            body: HTTPBody(Array(repeating: UInt8(ascii: " "), count: cap + 1), length: .known(Int64(cap + 1))))
        #expect(stated.status == 413 && stated.detail == "the body is \(cap + 1) bytes: expected at most \(cap)")

        // A body of unknown length that never ends: refused once the cap is passed.
        let chunks = AsyncStream<HTTPBody.ByteChunk> { continuation in
            continuation.onTermination = { _ in }
            Task {
                for _ in 0..<1_000_000 { continuation.yield(ArraySlice(repeating: UInt8(ascii: " "), count: 4096)) }
                continuation.finish()
            }
        }
        let streamed = try await transport.send(
            .put, "/v1/places/pharmacy/x", headers: headers, body: HTTPBody(chunks, length: .unknown))
        #expect(streamed.status == 413 && streamed.detail == "the body is over \(cap) bytes: expected at most \(cap)")
    }

    @Test func privateUsersAre404ThroughTheRoutesAndTheLiteralNearbyWins() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let hidden = try await transport.send(.get, "/v1/users/mehmet")
        let ghost = try await transport.send(.get, "/v1/users/ghost")
        #expect(hidden.status == 404 && ghost.status == 404)
        #expect(hidden.body.replacingOccurrences(of: "mehmet", with: "ghost") == ghost.body)
        let own = try await transport.send(
            .get, "/v1/users/mehmet", headers: [.authorization: "Bearer " + fixture.mehmet])
        #expect(own.status == 200 && own.json["visibility"] as? String == "private")
        let nearby = try await transport.send(.get, "/v1/users/nearby?lat=41.088154&lon=29.015615")
        #expect(nearby.status == 200 && nearby.json["total"] as? Int == 1)
    }

    @Test func healthAndMetrics() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let health = try await transport.send(.get, "/healthz")
        #expect(health.status == 200 && health.json["status"] as? String == "ok" && health.json["places"] as? Int == 3)
        _ = try await transport.send(.get, Self.nearby)
        _ = try await transport.send(.get, "/v1/nearby?lat=95&lon=0")
        let metrics = try await transport.send(.get, "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.response.headerFields[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        let map = try await transport.send(.get, "/v1/map?lat=41.088154&lon=29.015615")
        #expect(map.status == 200 && map.response.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(map.body.contains("1  Omur  132 m  WSW"))
        let lines = Set(metrics.body.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"vicinity_http_requests_total{operation="findNearby",status="200"} 1"#))
        #expect(lines.contains(#"vicinity_http_requests_total{operation="findNearby",status="400"} 1"#))
        #expect(lines.contains(#"vicinity_http_request_duration_seconds_count{operation="findNearby"} 2"#))
        #expect(lines.contains(#"vicinity_index_points{kind="pharmacy"} 3.0"#))
        // Ayşe only: Mehmet is private and Zeynep has no location.
        #expect(lines.contains(#"vicinity_index_points{kind="user"} 1.0"#))
        #expect(lines.contains("vicinity_store_commits 3.0"), "the fixture's three users, one commit each")
        #expect(
            lines.contains(
                "# HELP vicinity_http_requests_total HTTP requests answered, by operation of openapi.yaml and status sent."
            ))
        #expect(lines.filter { $0.hasPrefix("# HELP vicinity_") }.count == 16)
    }

    @Test func aKindLeftEmptyIsShownAsZeroPoints() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let before = try await transport.send(.get, "/metrics").body
        #expect(before.contains(#"vicinity_index_points{kind="pharmacy"} 3.0"#))
        for id in ["omur", "emre", "arzu"] {
            _ = try await fixture.callAs(fixture.admin) {
                try await fixture.api.deletePlace(.init(path: .init(kind: "pharmacy", id: id)))
            }
        }
        let after = try await transport.send(.get, "/metrics").body
        #expect(after.contains(#"vicinity_index_points{kind="pharmacy"} 0.0"#), "\(after)")
    }
}
