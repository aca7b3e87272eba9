import Foundation
import Geo
import HTTPTypes
import Places
import TestSupport
import Testing

@testable import HTTPAPI

/// `open=` and `where=` on `/v1/nearby`, `/v1/nearest`, their GeoJSON forms and `/v1/map`: which
/// places pass, what each hit says of its hours (in the hand-written JSON too), and the 400s.
@Suite(.timeLimit(.minutes(10))) struct OpenFilterOperationTests {
    /// Thursday 2026-11-26, 21:00 in Turin.
    static let evening = "2026-11-26T21:00+01:00"
    /// `evening` in a query string (`+` is a space there).
    static let eveningQuery = "2026-11-26T21:00%2B01:00"
    static let here = (lat: 45.0703, lon: 7.6869)

    /// Five pharmacies due north of `here` in Turin's zone (as in `OpenFilterCommandTests`), a
    /// user, and the handler over them with the server's middlewares.
    struct Fixture {
        let api: VicinityAPI
        let transport: RecordingTransport

        init() async throws {
            var catalog = try PlaceCatalog()
            let rome = ["tz": "Europe/Rome"]
            let places: [(String, Double, [String: String])] = [
                ("centro", 0.001, rome.merging(["opening_hours": "Mo-Fr 08:30-19:30", "dispensing": "yes"]) { $1 }),
                ("ignoto", 0.0015, ["dispensing": "yes"]),
                ("sera", 0.002, rome.merging(["opening_hours": "Mo-Su 08:00-22:00", "dispensing": "no"]) { $1 }),
                (
                    "turno", 0.003,
                    rome.merging([
                        "opening_hours": "Mo-Fr 08:30-19:30", "duty": "2026-11-26T19:30/2026-11-27T08:30",
                        "dispensing": "yes", "wheelchair": "yes",
                    ]) { $1 }
                ),
                ("lontano", 0.05, rome.merging(["opening_hours": "24/7"]) { $1 }),
            ]
            for (id, offset, attributes) in places {
                try catalog.upsert(
                    Place(
                        id: id, kind: "pharmacy", name: id.capitalized,
                        coordinate: try Coordinate(latitude: 45.0703 + offset, longitude: 7.6869),
                        attributes: attributes))
            }
            let durable = DurableDirectory(PlaceDirectory(places: catalog), store: MemoryStore())
            _ = try await durable.perform(
                .addUser(
                    User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 45.0704, longitude: 7.6869))),
                by: .admin)
            api = VicinityAPI(directory: durable)
            transport = RecordingTransport()
            try api.registerHandlers(
                on: transport, configuration: HTTPServer.configuration, middlewares: HTTPServer.middlewares(for: api))
        }

        func close() { api.directory.close() }

        func get(_ target: String) async throws -> RecordingTransport.Reply {
            try await transport.send(.get, target)
        }
    }

    static func nearby(open: String? = nil, where filters: [String]? = nil, radius: Double = 1000)
        -> Operations.FindNearby.Input
    {
        .init(query: .init(lat: here.lat, lon: here.lon, radius: radius, open: open, _where: filters))
    }

    static func nearest(count: Int, open: String? = nil, where filters: [String]? = nil, maxDistance: Double? = nil)
        -> Operations.FindNearest.Input
    {
        .init(
            query: .init(
                lat: here.lat, lon: here.lon, count: count, maxDistance: maxDistance, open: open, _where: filters))
    }

    @Test func openKeepsThePlacesOpenThenEachSayingUntilWhen() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let result = try await fixture.api.findNearby(Self.nearby(open: Self.evening)).ok.body.json
        #expect(result.results.map(\.id) == ["sera", "turno"])
        #expect(result.total == 2)
        let sera = result.results[0]
        #expect(sera.open == .open && sera.openUntil == "2026-11-26T22:00+01:00")
        #expect(sera.opensAt == nil && sera.onDuty == nil)
        let turno = result.results[1]
        #expect(turno.open == .open && turno.openUntil == "2026-11-27T19:30+01:00" && turno.onDuty == true)
        #expect(result.query.open == Self.evening && result.query._where == nil)
        // The same wall-clock time read in each place's zone.
        let local = try await fixture.api.findNearby(Self.nearby(open: "2026-11-26T21:00")).ok.body.json
        #expect(local.results.map(\.id) == ["sera", "turno"])
        // Without `open` no hit says anything of its hours.
        let plain = try await fixture.api.findNearby(Self.nearby()).ok.body.json
        #expect(plain.results.map(\.id) == ["centro", "ignoto", "sera", "turno"])
        #expect(plain.results.allSatisfy { $0.open == nil && $0.openUntil == nil && $0.onDuty == nil })
        #expect(plain.query.open == nil)
    }

    @Test func whereKeepsThePlacesWithEveryAttribute() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let api = fixture.api
        let dispensing = try await api.findNearby(Self.nearby(where: ["dispensing=yes"])).ok.body.json
        #expect(dispensing.results.map(\.id) == ["centro", "ignoto", "turno"])
        #expect(dispensing.results.allSatisfy { $0.open == nil })
        #expect(dispensing.query._where == ["dispensing=yes"])
        let both = try await api.findNearby(Self.nearby(where: ["dispensing=yes", "wheelchair=yes"])).ok.body.json
        #expect(both.results.map(\.id) == ["turno"])
        let openToo = try await api.findNearby(Self.nearby(open: Self.evening, where: ["dispensing=yes"])).ok.body.json
        #expect(openToo.results.map(\.id) == ["turno"])
        let caseMatters = try await api.findNearby(Self.nearby(where: ["dispensing=YES"])).ok.body.json
        #expect(caseMatters.results.isEmpty && caseMatters.total == 0)
    }

    @Test func nearestOpenFindsTheCountNearestOpenHoweverFar() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let api = fixture.api
        let three = try await api.findNearest(Self.nearest(count: 3, open: Self.evening)).ok.body.json
        #expect(three.results.map(\.id) == ["sera", "turno", "lontano"])
        // Open around the clock: no next change to tell.
        #expect(three.results[2].open == .open && three.results[2].openUntil == nil)
        #expect(three.query.open == Self.evening)
        let within = try await api.findNearest(Self.nearest(count: 3, open: Self.evening, maxDistance: 1000))
            .ok.body.json
        #expect(within.results.map(\.id) == ["sera", "turno"])
        let filtered = try await api.findNearest(
            Self.nearest(count: 1, open: Self.evening, where: ["wheelchair=yes", "dispensing=yes"])
        ).ok.body.json
        #expect(
            filtered.results.map(\.id) == ["turno"] && filtered.query._where == ["wheelchair=yes", "dispensing=yes"])
    }

    @Test func geoJSONFeaturesCarryTheStateAsProperties() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let collection = try await fixture.api.findNearestGeoJSON(
            .init(query: .init(lat: Self.here.lat, lon: Self.here.lon, count: 2, open: Self.evening))
        ).ok.body.applicationGeoJson
        #expect(collection.features.map(\.id) == ["sera", "turno"])
        let properties = collection.features[1].properties
        #expect(properties.open == .open && properties.onDuty == true)
        #expect(properties.openUntil == "2026-11-27T19:30+01:00")
        let nearby = try await fixture.get(
            "/v1/nearby.geojson?lat=45.0703&lon=7.6869&radius=1000&open=\(Self.eveningQuery)&where=dispensing=yes")
        #expect(nearby.status == 200, "\(nearby.body)")
        let features = nearby.json["features"] as? [[String: Any]]
        #expect(features?.compactMap { $0["id"] as? String } == ["turno"])
        let first = features?.first?["properties"] as? [String: Any]
        #expect(first?["open"] as? String == "open" && first?["on_duty"] as? Bool == true)
    }

    @Test func theHandWrittenListHasTheFieldsInKeyOrder() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let reply = try await fixture.get(
            "/v1/nearby?lat=45.0703&lon=7.6869&radius=1000&open=\(Self.eveningQuery)&where=dispensing%3Dyes"
                + "&where=wheelchair=yes")
        #expect(reply.status == 200, "\(reply.body)")
        #expect(
            reply.body.contains(
                #""name":"Turno","on_duty":true,"open":"open","open_until":"2026-11-27T19:30+01:00"}"#),
            "\(reply.body)")
        #expect(
            reply.body.contains(
                #""model":"geodesic","open":"2026-11-26T21:00+01:00","radius_m":1000,"#
                    + #""where":["dispensing=yes","wheelchair=yes"]}"#),
            "\(reply.body)")
        // The same document as the generated encoder's, read back.
        let expected = try await fixture.api.findNearby(
            Self.nearby(open: Self.evening, where: ["dispensing=yes", "wheelchair=yes"])
        ).ok.body.json
        let decoded = try JSONDecoder().decode(Components.Schemas.NearbyResult.self, from: Data(reply.body.utf8))
        #expect(decoded == expected)
        // Byte for byte what the generated encoder writes (keys sorted).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(expected), as: UTF8.self) == reply.body)

        let nearest = try await fixture.get("/v1/nearest?lat=45.0703&lon=7.6869&count=2&open=2026-11-26T20:00Z")
        #expect(nearest.status == 200, "\(nearest.body)")
        #expect(nearest.body.contains(#""model":"geodesic","open":"2026-11-26T20:00Z"}"#), "\(nearest.body)")
        #expect(nearest.body.contains(#""name":"Sera","open":"open","open_until":"2026-11-26T22:00+01:00"}"#))
    }

    @Test func theGeoJSONRedirectKeepsTheFilters() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let reply = try await fixture.get(
            "/v1/nearest?lat=45.0703&lon=7.6869&open=\(Self.eveningQuery)&where=a=b%3Dc&where=wheelchair=yes"
                + "&format=geojson")
        #expect(reply.status == 303)
        #expect(
            reply.response.headerFields[.location]
                == "/v1/nearest.geojson?lat=45.0703&lon=7.6869&open=2026-11-26T21%3A00%2B01%3A00&where=a%3Db%3Dc"
                + "&where=wheelchair%3Dyes")
    }

    /// What an open time must be, as `Vocabulary.openingMoment` says it.
    static let momentExpected =
        "expected now, a time with its UTC offset (2026-12-24T22:00+01:00, 2026-12-24T21:00Z) or a local time "
        + "in each place's zone (2026-12-24T22:00): years 1900-9999, hours 00-23, offsets up to ±23:59, seconds "
        + "only with an offset"
    static let filterExpected =
        "expected NAME=VALUE, an attribute name and the value it must have (e.g. dispensing=yes)"
    static let usersExpected = "expected a place kind: users have no opening hours or attributes to filter on"
    static let tooMany = Array(repeating: "where=a=b", count: 33).joined(separator: "&")

    static let refusals: [(query: String, parameter: String, detail: String)] = [
        ("open=tonight", "open", #"invalid open time "tonight": "# + momentExpected),
        // A `+` not percent-encoded is a space in a query string.
        ("open=2026-11-26T21:00+01:00", "open", #"invalid open time "2026-11-26T21:00 01:00": "# + momentExpected),
        ("open=now&open=now", "open", #"query parameter "open" is given 2 times: give it once"#),
        ("where=dispensing", "where", #"invalid attribute filter "dispensing": "# + filterExpected),
        ("where=dispensing=yes&where=id=x", "where", #"invalid attribute filter "id=x": "# + filterExpected),
        (tooMany, "where", #"query parameter "where" is given 33 times: give it at most 32 times"#),
        ("kind=user&open=now", "open", #"invalid open filter "user": "# + usersExpected),
        ("kind=user&where=a=b", "where", #"invalid attribute filter "user": "# + usersExpected),
    ]

    @Test(arguments: refusals)
    func badFiltersAreA400NamingTheParameter(query: String, parameter: String, detail: String) async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        for path in ["/v1/nearby", "/v1/nearest", "/v1/nearby.geojson", "/v1/nearest.geojson", "/v1/map"] {
            // The map takes `open` on users as a filter too, and refuses it the same way.
            let reply = try await fixture.get("\(path)?lat=45.0703&lon=7.6869&\(query)")
            #expect(reply.status == 400, "\(path) \(reply.body)")
            #expect(reply.detail == detail, "\(path)")
            let invalid = reply.json["invalid_params"] as? [[String: String]]
            #expect(invalid?.first?["name"] == parameter, "\(path)")
        }
    }

    /// A watch follows every place of its circle: `open` and `where`, which it cannot apply, are
    /// refused rather than silently dropped.
    @Test func watchesRefuseTheFiltersTheyCannotApply() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        for (path, query) in [
            ("/v1/nearby/watch", "kind=pharmacy&lat=45.0703&lon=7.6869&radius=500&open=now"),
            ("/v1/nearby/watch", "kind=pharmacy&lat=45.0703&lon=7.6869&radius=500&where=dispensing=yes"),
        ] {
            let reply = try await fixture.get("\(path)?\(query)")
            #expect(reply.status == 400, "\(path)?\(query) \(reply.body)")
            #expect(reply.detail?.contains("does not apply to a watch") == true, "\(reply.body)")
        }
    }

    @Test func theMapKeepsWhatWhereKeepsAndMarksRatherThanDropsWithOpen() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let filtered = try await fixture.get("/v1/map?lat=45.0703&lon=7.6869&radius=1000&where=wheelchair=yes")
        #expect(filtered.status == 200, "\(filtered.body)")
        #expect(filtered.body.contains("Turno") && !filtered.body.contains("Centro"), "\(filtered.body)")
        let marked = try await fixture.get(
            "/v1/map?lat=45.0703&lon=7.6869&radius=1000&height=40&open=\(Self.eveningQuery)")
        #expect(marked.status == 200, "\(marked.body)")
        for name in ["Centro", "Ignoto", "Sera", "Turno"] { #expect(marked.body.contains(name), "\(name)") }
    }
}
