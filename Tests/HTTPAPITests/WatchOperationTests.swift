import Foundation
import Geo
import HTTPTypes
import OpenAPIRuntime
import Places
import Testing

@testable import HTTPAPI

/// The watch operations without a socket: their parameters checked as `/v1/nearby`'s are, who may
/// watch whom, the limits, and the text of the events.
@Suite(.timeLimit(.minutes(10))) struct WatchOperationTests {
    static let here = "lat=41.088154&lon=29.015615"

    @Test(arguments: [
        ("lat=95&lon=29", "lat"), ("lat=abc&lon=29", "lat"), ("lon=29", "lat"), ("lat=41", "lon"),
        ("lat=41&lon=29&radius=1e9", "radius"), ("lat=41&lon=29&radius=-1", "radius"),
        ("lat=41&lon=29&kind=a%20b", "kind"), ("lat=41&lon=29&lat=42", "lat"),
    ])
    func badParametersAreRefusedAsNearbyRefusesThem(query: String, parameter: String) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let nearby = try await transport.send(.get, "/v1/nearby?" + query)
        // The users' watch takes no kind (an unknown parameter, ignored).
        let paths = query.contains("kind") ? ["/v1/nearby/watch?"] : ["/v1/nearby/watch?", "/v1/users/nearby/watch?"]
        for path in paths {
            let watch = try await transport.send(.get, path + query)
            #expect(watch.status == 400 && nearby.status == 400, "\(path)\(query)")
            #expect(watch.detail == nearby.detail, "\(path)\(query)")
            let invalid = watch.json["invalid_params"] as? [[String: String]]
            #expect(invalid?.first?["name"] == parameter && invalid?.first?["in"] == "query")
        }
    }

    @Test(arguments: [
        (
            "lat=41&lon=29&model=projected", "model",
            #"invalid model "projected": expected geodesic or haversine"#
        ),
        (
            "user=ayse&lat=41&lon=29", "user",
            "a watch that follows a user is GET /v1/users/ID/nearby/watch; this path watches a fixed point (lat and lon)"
        ),
        (
            "user=ayse", "user",
            "a watch that follows a user is GET /v1/users/ID/nearby/watch; this path watches a fixed point (lat and lon)"
        ),
        (
            "lat=41&lon=29&last_event_id=abc", "last_event_id",
            #"invalid last event id "abc": expected a whole number from 0 to 9223372036854775807 (the id: of the last event received)"#
        ),
        (
            "lat=41&lon=29&last_event_id=9223372036854775808", "last_event_id",
            #"invalid last event id "9223372036854775808": expected a whole number from 0 to 9223372036854775807 (the id: of the last event received)"#
        ),
    ])
    func watchParametersAreRefusedNamingThemselves(query: String, parameter: String, detail: String) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let reply = try await RecordingTransport.serving(fixture).send(.get, "/v1/nearby/watch?" + query)
        #expect(reply.status == 400 && reply.detail == detail, "\(reply.body)")
        let invalid = reply.json["invalid_params"] as? [[String: String]]
        #expect(invalid?.first?["name"] == parameter && invalid?.first?["in"] == "query")
    }

    @Test func aLastEventIdHeaderThatIsNoPositionIsA400NamingIt() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        for text in ["abc", "-1", "1.5", ""] {
            let reply = try await transport.send(
                .get, "/v1/nearby/watch?\(Self.here)", headers: [HTTPField.Name("Last-Event-ID")!: text])
            #expect(reply.status == 400, "\(text): \(reply.body)")
            let invalid = reply.json["invalid_params"] as? [[String: String]]
            #expect(invalid?.first?["name"] == "Last-Event-ID" && invalid?.first?["in"] == "header", "\(text)")
        }
    }

    @Test func aRoamingWatchNeedsTheUsersTokenOrTheAdmins() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        func status(_ query: String, _ token: String?) async throws -> Int {
            var headers: HTTPFields = [:]
            if let token { headers[.authorization] = "Bearer \(token)" }
            return try await transport.send(
                .get, "/v1/users/\(query)/nearby/watch?kind=user&radius=1000", headers: headers
            )
            .status
        }
        #expect(try await status("ayse", nil) == 403)
        #expect(try await status("ayse", fixture.zeynep) == 403)
        #expect(try await status("ayse", APIFixture.strangerToken) == 401)
        // A private user is one that does not exist, to everybody else.
        #expect(try await status("mehmet", nil) == 404)
        #expect(try await status("mehmet", fixture.ayse) == 404)
        #expect(try await status("nobody", fixture.admin) == 404)
        // The first version's `user=` on the fixed-point paths names the new one.
        let old = try await transport.send(.get, "/v1/users/nearby/watch?user=ayse&radius=1000")
        #expect(
            old.status == 400
                && old.detail?.hasPrefix("a watch that follows a user is GET /v1/users/ID/nearby/watch?kind=user")
                    == true
        )
        // Allowed: the watch starts (the stream is dropped unread, and the watch with it).
        let directory = fixture.api.directory
        for token in [fixture.ayse, fixture.admin] {
            let output = try await fixture.callAs(token) {
                try await fixture.api.watchAroundUser(
                    .init(path: .init(id: "ayse"), query: .init(kind: "user", radius: 1000)))
            }
            guard case .ok(let ok) = output else {
                Issue.record("\(output)")
                continue
            }
            #expect(directory.watchStatistics.watches == 1)
            _ = ok
        }
        #expect(directory.watchStatistics.watches == 0, "a stream dropped unread ends its watch")
    }

    @Test func aWatchBeyondTheLimitIsA429() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        fixture.api.directory.watchLimits.maximumWatches = 1
        let held = try await fixture.api.watchNearby(
            .init(query: .init(lat: 41.088154, lon: 29.015615)))
        let reply = try await RecordingTransport.serving(fixture).send(.get, "/v1/nearby/watch?\(Self.here)")
        #expect(reply.status == 429 && reply.detail?.hasPrefix("too many watches: ") == true, "\(reply.body)")
        #expect(reply.response.headerFields[.contentType] == "application/problem+json")
        _ = held
    }

    @Test func aMinimumPositionNotAppliedInTimeIsA503AndAnAcceptWithoutEventStreamA406() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let waited = try await transport.send(
            .get, "/v1/nearby/watch?\(Self.here)",
            headers: [HTTPField.Name("Vicinity-Min-Position")!: "1000", HTTPField.Name("Vicinity-Wait-Ms")!: "50"])
        #expect(waited.status == 503 && waited.detail?.hasPrefix("position 1000 was not applied") == true)
        let json = try await transport.send(
            .get, "/v1/nearby/watch?\(Self.here)", headers: [.accept: "application/json"])
        #expect(json.status == 406)
        #expect(fixture.api.directory.watchStatistics.watches == 0)
    }

    @Test func eventsAreWrittenWithTheirIdOnTheLastOfEachPosition() throws {
        let omur = WatchedObject(
            id: "omur", name: "Omur", coordinate: try Coordinate(latitude: 41.087853, longitude: 29.014096))
        let center = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let events = [
            WatchEvent(watch: 4, kind: .inside, position: 7, object: omur, center: center),
            WatchEvent(watch: 4, kind: .ready, position: 7),
            WatchEvent(watch: 4, kind: .exit, position: 9, object: omur, center: center),
            WatchEvent(watch: 4, kind: .center, position: 9, center: try Coordinate(latitude: 41, longitude: 29)),
            WatchEvent(watch: 4, kind: .closed, position: 9, message: "the user was removed"),
        ]
        let text = String(decoding: WatchEventText.stream(events, kind: "pharmacy"), as: UTF8.self)
        let omurJSON =
            #""bearing_deg":255.32,"distance_m":131.936,"#
        #expect(
            text == """
                event: inside
                data: {\(omurJSON)"event":"inside","id":"omur","kind":"pharmacy","lat":41.087853,"lon":29.014096,"name":"Omur","position":7,"watch":4}

                id: 7
                event: ready
                data: {"event":"ready","position":7,"watch":4}

                event: exit
                data: {\(omurJSON)"event":"exit","id":"omur","kind":"pharmacy","lat":41.087853,"lon":29.014096,"name":"Omur","position":9,"watch":4}

                id: 9
                event: center
                data: {"center":{"lat":41,"lon":29},"event":"center","position":9,"watch":4}

                event: closed
                data: {"event":"closed","message":"the user was removed","position":9,"watch":4}


                """)
    }
}
