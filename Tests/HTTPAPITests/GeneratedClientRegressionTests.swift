import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// What openapi-python-client 0.29's client met (issue 15), through the generated server and the
/// middlewares: each answer a status the operation lists, with words a person can act on.
@Suite struct GeneratedClientRegressionTests {
    static let query = "lat=41.088154&lon=29.015615&radius=700"

    /// `lat=%2041` was a 422 blaming the body on operations that list no 422: the generated
    /// decoder's `Double(_:)` takes no blank, while the command line's number grammar does.
    @Test(arguments: ["/v1/users/nearby", "/v1/map", "/v1/nearby", "/v1/nearby.geojson", "/v1/nearest"])
    func aNumberWithABlankIsA400NamingTheParameter(path: String) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(.get, path + "?lat=%2041&lon=29")
        #expect(reply.status == 400)
        #expect(reply.detail == #"invalid latitude " 41": expected a number of degrees from -90 to 90"#)
    }

    /// `{"visibility":"PRIVATE"}` was answered in Swift's words ("Cannot initialize Visibility from
    /// invalid String value PRIVATE"), naming no valid value.
    @Test func aValueOutsideABodyEnumNamesTheValidOnes() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(
            .put, "/v1/users/ayse/visibility",
            headers: [.authorization: "Bearer " + fixture.ayse, .contentType: "application/json"],
            body: HTTPBody(#"{"visibility":"PRIVATE"}"#))
        #expect(reply.status == 400)
        #expect(reply.detail == #"invalid visibility "PRIVATE" at /visibility: expected public or private"#)
        let params = reply.json["invalid_params"] as? [[String: Any]]
        #expect(params?.first?["name"] as? String == "/visibility")
    }

    /// Malformed JSON was a 400 without a position.
    /// A body of the wrong JSON type is named in JSON's words, never Swift's (`Dictionary<String, Any>`).
    @Test func aBodyOfTheWrongTypeIsNamedInJSONWords() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(
            .put, "/v1/users/ayse/visibility",
            headers: [.authorization: "Bearer " + fixture.ayse, .contentType: "application/json"],
            body: HTTPBody("[1]"))
        #expect(reply.status == 422)
        #expect(reply.detail == "invalid value at /: expected an object", "\(reply.detail ?? "")")
    }

    @Test func malformedJSONSaysWhere() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(
            .put, "/v1/users/ayse/location",
            headers: [.authorization: "Bearer " + fixture.ayse, .contentType: "application/json"],
            body: HTTPBody("{\"lat\": 41,\n \"lon\": 29,,}"))
        #expect(reply.status == 400)
        #expect(
            reply.detail
                == "the body is not valid JSON: unexpected ',', expected a member name in quotes "
                + "at line 2, column 12 (byte 23)")
    }

    /// Two schemas under one 200 made generators keep one: GeoJSON is its own operation now, and
    /// the first version's `format=geojson` and `Accept` are sent on to it.
    @Test func geoJSONIsItsOwnOperationAndTheOldWaysAreA303ToIt() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let geo = try await transport.send(.get, "/v1/nearby.geojson?" + Self.query)
        #expect(geo.status == 200 && geo.response.headerFields[.contentType] == "application/geo+json; charset=utf-8")
        #expect((geo.json["features"] as? [[String: Any]])?.count == 3)
        let nearest = try await transport.send(.get, "/v1/nearest.geojson?lat=41.088154&lon=29.015615&count=2")
        #expect(nearest.status == 200 && (nearest.json["features"] as? [[String: Any]])?.count == 2)

        let byFormat = try await transport.send(.get, "/v1/nearby?" + Self.query + "&kind=ph%26x&format=geojson")
        #expect(byFormat.status == 303)
        #expect(
            byFormat.response.headerFields[.location]
                == "/v1/nearby.geojson?lat=41.088154&lon=29.015615&radius=700&kind=ph%26x")
        let byAccept = try await transport.send(
            .get, "/v1/nearest?lat=41.088154&lon=29.015615&count=2&model=haversine",
            headers: [.accept: "application/geo+json"])
        #expect(byAccept.status == 303)
        #expect(
            byAccept.response.headerFields[.location]
                == "/v1/nearest.geojson?lat=41.088154&lon=29.015615&count=2&model=haversine")
        #expect(byAccept.response.headerFields[.vary] == "Accept")
    }

    /// schemathesis found a query the GeoJSON operation refuses (a CRS pattern it breaks) sent on
    /// to it with a 303: the parameters are checked before the redirect.
    @Test(arguments: ["/v1/nearby", "/v1/nearest"])
    func aQueryTheGeoJSONOperationWouldRefuseIsRefusedBeforeTheRedirect(path: String) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(
            .get, path + "?lat=8.17&lon=-54.89&model=projected&crs=M53&format=geojson")
        #expect(reply.status == 400)
        #expect(reply.detail?.hasPrefix(#"invalid crs "M53": expected auto or EPSG:<code>"#) == true)
    }
}
