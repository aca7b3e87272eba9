import Foundation
import Geo
import Places
import Testing

@testable import HTTPAPI

/// Issue 18 over HTTP: what others learn of a user is their published cell and nothing more, on
/// every operation that answers about users (records, JSON and GeoJSON queries, maps); the user
/// and the admin read the exact record with its timers; precision and ghost mode with a timer are
/// set over the API.
@Suite(.timeLimit(.minutes(10))) struct UserPrivacyTests {
    static let here = "lat=\(PrivacyFixture.here.lat)&lon=\(PrivacyFixture.here.lon)"

    /// Every request about kerem that anyone else may send: his record, the user queries as JSON
    /// and GeoJSON, and the map of users.
    static let aboutKerem = [
        "/v1/users/kerem",
        "/v1/users/nearby?\(here)&radius=2000",
        "/v1/nearby?\(here)&radius=2000&kind=user",
        "/v1/nearby.geojson?\(here)&radius=2000&kind=user",
        "/v1/nearby?\(here)&radius=2000&kind=user&model=haversine",
        "/v1/nearest?\(here)&count=3&kind=user",
        "/v1/nearest.geojson?\(here)&count=3&kind=user&model=projected",
        "/v1/map?\(here)&radius=2000&kind=user&width=60&height=20",
    ]

    /// The bodies answered to `token` for `aboutKerem` with kerem at each of the two positions
    /// inside one cell (moved by the admin, an hour apart: a new location expiry each time).
    static func answers(_ fixture: PrivacyFixture, _ token: String?) async throws -> [[String: String]] {
        var answers: [[String: String]] = []
        for position in PrivacyFixture.insideCell {
            fixture.clock.advance(seconds: 3_600)
            try await fixture.moveKerem(to: position)
            var bodies: [String: String] = [:]
            for target in aboutKerem {
                let reply = try await fixture.send(token, target)
                #expect(reply.status == 200, "\(target): \(reply.body)")
                bodies[target] = reply.body
            }
            answers.append(bodies)
        }
        return answers
    }

    @Test func aStreetUserLooksTheSameFromAnywhereInTheirCellToEveryoneElse() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        #expect(
            PrivacyFixture.insideCell.map(LocationPrecision.street.published)
                == [PrivacyFixture.cellCentre, PrivacyFixture.cellCentre])
        for (asker, token) in [("anonymous", nil), ("another user", fixture.ozan), ("the admin", fixture.admin)]
            as [(String, String?)]
        {
            let answers = try await Self.answers(fixture, token)
            for target in Self.aboutKerem {
                // The admin reads the record whole (exact location, expiry): only the queries are
                // the map everyone sees.
                if token == fixture.admin && target == "/v1/users/kerem" {
                    #expect(answers[0][target] != answers[1][target], "the admin reads the exact record")
                    continue
                }
                #expect(answers[0][target] == answers[1][target], "\(asker): \(target)")
            }
        }
        // What they all see: the cell's centre, the precision, a distance rounded to 100 m, no timer.
        let record = try await fixture.send(nil, "/v1/users/kerem").json
        let location = record["location"] as? [String: Double]
        #expect(location == ["lat": PrivacyFixture.cellCentre.latitude, "lon": PrivacyFixture.cellCentre.longitude])
        #expect(record["precision"] as? String == "street")
        #expect(record["location_expires_at"] == nil && record["private_until"] == nil)
        let nearby = try await fixture.send(nil, "/v1/users/nearby?\(Self.here)&radius=2000").json
        let hit = try #require((nearby["results"] as? [[String: Any]])?.first)
        let distance = try #require(hit["distance_m"] as? Double)
        #expect(distance > 0 && distance.truncatingRemainder(dividingBy: 100) == 0, "\(distance)")
        #expect(hit["precision"] as? String == "street" && hit["lat"] as? Double == PrivacyFixture.cellCentre.latitude)
        let geo = try await fixture.send(nil, "/v1/nearby.geojson?\(Self.here)&radius=2000&kind=user").json
        let feature = try #require((geo["features"] as? [[String: Any]])?.first)
        let properties = feature["properties"] as? [String: Any]
        #expect(properties?["precision"] as? String == "street" && properties?["distance_m"] as? Double == distance)
    }

    @Test func anExactUserIsSeenWhereTheyAre() async throws {
        // The control: the same requests tell the two positions apart when kerem chose `exact`.
        let fixture = try await PrivacyFixture(precision: .exact)
        defer { fixture.close() }
        let answers = try await Self.answers(fixture, nil)
        for target in Self.aboutKerem {
            #expect(answers[0][target] != answers[1][target], "\(target)")
        }
        let hit = try #require(
            (try await fixture.send(nil, "/v1/users/nearby?\(Self.here)&radius=2000").json["results"]
                as? [[String: Any]])?.first)
        #expect(
            hit["precision"] as? String == "exact" && hit["lat"] as? Double == PrivacyFixture.insideCell[1].latitude)
    }

    @Test func theUserAndTheAdminReadTheExactRecordWithItsTimers() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let exact = PrivacyFixture.insideCell[0]
        let expiry = fixture.clock.now.addingTimeInterval(43_200)
        for token in [fixture.kerem, fixture.admin] {
            let record = try await fixture.callAs(token) {
                try await fixture.api.getUser(.init(path: .init(id: "kerem")))
            }.ok.body.json
            #expect(record.location == .init(lat: exact.latitude, lon: exact.longitude))
            #expect(record.precision == .street && record.locationExpiresAt == expiry && record.privateUntil == nil)
        }
        // As JSON: RFC 3339 in UTC, whole seconds.
        let text = try await fixture.send(fixture.kerem, "/v1/users/kerem").body
        #expect(text.contains(#""location_expires_at":"2026-11-18T23:06:40Z""#), "\(text)")
        // Kerem's own hit is exact, without a precision; his distance is not rounded.
        let own = try await fixture.callAs(fixture.kerem) {
            try await fixture.api.findNearbyUsers(
                .init(query: .init(lat: PrivacyFixture.here.lat, lon: PrivacyFixture.here.lon, radius: 2000)))
        }.ok.body.json
        let hit = try #require(own.results.first)
        #expect(hit.id == "kerem" && hit.precision == nil && hit.lat == exact.latitude)
        #expect(hit.distanceM.truncatingRemainder(dividingBy: 100) != 0)
    }

    @Test func registrationTakesAPrecisionOrTheServersDefault() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let chosen = try await fixture.callAs(fixture.admin) {
            try await fixture.api.registerUser(
                .init(body: .json(.init(id: "deniz", location: .init(lat: 41.09, lon: 29.02), precision: .district))))
        }.created.body.json.user
        #expect(chosen.precision == .district && chosen.location == .init(lat: 41.09, lon: 29.02))
        #expect(chosen.locationExpiresAt == fixture.clock.now.addingTimeInterval(43_200))
        let byDefault = try await fixture.send(fixture.admin, .post, "/v1/users", body: #"{"id":"can"}"#)
        #expect(byDefault.status == 201, "\(byDefault.body)")
        let user = byDefault.json["user"] as? [String: Any]
        #expect(user?["precision"] as? String == "street" && user?["location_expires_at"] == nil)
        let bad = try await fixture.send(fixture.admin, .post, "/v1/users", body: #"{"id":"ece","precision":"fine"}"#)
        #expect(bad.status == 400)
        #expect(bad.detail == #"invalid precision "fine" at /precision: expected exact, street, district or city"#)
    }

    @Test func aUserSetsTheirPrecision() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let set = try await fixture.send(
            fixture.kerem, .put, "/v1/users/kerem/precision", body: #"{"precision":"district"}"#)
        #expect(set.status == 200 && set.json["precision"] as? String == "district", "\(set.body)")
        #expect(set.response.headerFields[.init("Vicinity-Position")!] != nil)
        // Others see the district cell's centre from now on.
        let district = LocationPrecision.district.published(PrivacyFixture.insideCell[0])
        let seen = try await fixture.send(nil, "/v1/users/kerem").json
        #expect(seen["location"] as? [String: Double] == ["lat": district.latitude, "lon": district.longitude])
        let hits = try await fixture.send(nil, "/v1/users/nearby?\(Self.here)&radius=3000").json["results"]
        let distance = try #require((hits as? [[String: Any]])?.first?["distance_m"] as? Double)
        #expect(distance.truncatingRemainder(dividingBy: 1000) == 0, "\(distance)")
        // The admin may; a bad value is a 400 naming the valid ones.
        let byAdmin = try await fixture.send(
            fixture.admin, .put, "/v1/users/kerem/precision", body: #"{"precision":"exact"}"#)
        #expect(byAdmin.status == 200 && byAdmin.json["precision"] as? String == "exact")
        let bad = try await fixture.send(
            fixture.kerem, .put, "/v1/users/kerem/precision", body: #"{"precision":"PRECISE"}"#)
        #expect(bad.status == 400 && bad.response.headerFields[.contentType] == "application/problem+json")
        #expect(bad.detail == #"invalid precision "PRECISE" at /precision: expected exact, street, district or city"#)
        let missing = try await fixture.send(fixture.kerem, .put, "/v1/users/kerem/precision", body: "{}")
        #expect(missing.status == 422, "\(missing.body)")
        // Another user's token: 403 for a public user, 404 for a private one; none: 401.
        let other = try await fixture.send(
            fixture.ozan, .put, "/v1/users/kerem/precision", body: #"{"precision":"city"}"#)
        #expect(other.status == 403, "\(other.body)")
        let hidden = try await fixture.send(
            fixture.ozan, .put, "/v1/users/gizem/precision", body: #"{"precision":"city"}"#)
        #expect(hidden.status == 404 && hidden.detail == #"no user "gizem" that you can see"#)
        let anonymous = try await fixture.send(nil, .put, "/v1/users/kerem/precision", body: #"{"precision":"city"}"#)
        #expect(anonymous.status == 401)
    }

    @Test func ghostModeWithATimerEndsByItself() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let until = fixture.clock.now.addingTimeInterval(10_800)
        let ghost = try await fixture.callAs(fixture.kerem) {
            try await fixture.api.setUserVisibility(
                .init(
                    path: .init(id: "kerem"), body: .json(._private(.init(visibility: ._private, forSeconds: 10_800)))))
        }.ok.body.json
        #expect(ghost.visibility == ._private && ghost.privateUntil == until)
        let text = try await fixture.send(fixture.admin, "/v1/users/kerem").body
        #expect(text.contains(#""private_until":"2026-11-18T14:06:40Z""#), "\(text)")
        #expect(try await fixture.send(nil, "/v1/users/kerem").status == 404)
        // Public again on time, with no request (the server's timer runner, here called directly).
        fixture.clock.advance(seconds: 10_800)
        #expect(await fixture.api.directory.runDueUserTimers() == 1)
        let back = try await fixture.send(nil, "/v1/users/kerem")
        #expect(back.status == 200 && back.json["visibility"] as? String == "public")
        #expect(try await fixture.send(fixture.kerem, "/v1/users/kerem").json["private_until"] == nil)
    }

    @Test(arguments: [
        (
            #"{"visibility":"private","for_seconds":0}"#,
            "invalid duration 0 at /for_seconds: expected \(Vocabulary.privateSpell.expected)"
        ),
        (
            #"{"visibility":"private","for_seconds":315360001}"#,
            "invalid duration 315360001 at /for_seconds: expected \(Vocabulary.privateSpell.expected)"
        ),
        (
            #"{"visibility":"public","for_seconds":60}"#,
            // The contract's oneOf: a public change has no time limit.
            #"unknown field "for_seconds" at /: a time limit goes only with visibility private"#
        ),
    ])
    func aTimerOutOfRangeOrWithPublicIsRefused(body: String, detail: String) async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let reply = try await fixture.send(fixture.kerem, .put, "/v1/users/kerem/visibility", body: body)
        #expect(reply.status == 422 && reply.detail == detail, "\(reply.body)")
        let invalid = reply.json["invalid_params"] as? [[String: String]]
        #expect(invalid?.first?["name"] == "/for_seconds" && invalid?.first?["in"] == "body")
        // Nothing changed.
        #expect(try await fixture.send(nil, "/v1/users/kerem").json["visibility"] as? String == "public")
    }
}
