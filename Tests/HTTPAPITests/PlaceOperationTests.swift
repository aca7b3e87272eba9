import HTTPTypes
import OpenAPIRuntime
import Places
import Testing

@testable import HTTPAPI

/// `getPlace`, `putPlace` and `deletePlace`: reading is public, writing needs the admin token.
@Suite(.timeLimit(.minutes(10))) struct PlaceOperationTests {
    static func put(
        _ id: String, kind: String = "pharmacy", _ body: Components.Schemas.PlaceInput
    ) -> Operations.PutPlace.Input {
        .init(path: .init(kind: kind, id: id), body: .json(body))
    }

    @Test func anyoneReadsAPlaceWithItsAttributes() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let place = try await fixture.api.getPlace(.init(path: .init(kind: "pharmacy", id: "omur"))).ok.body.json
        #expect(place.name == "Omur" && place.lat == 41.087853 && place.lon == 29.014096)
        #expect(place.attributes == [.init(name: "note", value: "illustrative")])
    }

    @Test func missingAndMalformedPlacesAreRefused() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        await #expect(throws: HTTPAPIError.places(.noSuchPlace(kind: "pharmacy", id: "nope"))) {
            try await fixture.api.getPlace(.init(path: .init(kind: "pharmacy", id: "nope")))
        }
        let reserved = await #expect(throws: HTTPAPIError.self) {
            try await fixture.api.getPlace(.init(path: .init(kind: "user", id: "ayse")))
        }
        #expect(reserved?.httpStatus == .badRequest)
        let control = await #expect(throws: HTTPAPIError.self) {
            try await fixture.api.getPlace(.init(path: .init(kind: "pharmacy", id: "a\u{7}b")))
        }
        #expect(
            control?.description == #"invalid place id "a\u{7}b": expected 1 to 128 characters, no control characters"#)
    }

    @Test func writesNeedTheAdminToken() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let input = Self.put("new", .init(lat: 41.08, lon: 29.01))
        await #expect(throws: HTTPAPIError.missingToken) {
            try await fixture.callAs(nil) { try await api.putPlace(input) }
        }
        await #expect(throws: HTTPAPIError.places(.invalidToken)) {
            try await fixture.callAs(APIFixture.strangerToken) { try await api.putPlace(input) }
        }
        await #expect(throws: HTTPAPIError.places(.forbidden(action: "changing a place needs the admin token"))) {
            try await fixture.callAs(fixture.ayse) { try await api.putPlace(input) }
        }
        await #expect(throws: HTTPAPIError.places(.forbidden(action: "removing a place needs the admin token"))) {
            try await fixture.callAs(fixture.ayse) {
                try await api.deletePlace(.init(path: .init(kind: "pharmacy", id: "omur")))
            }
        }
        // Nothing changed.
        await #expect(throws: HTTPAPIError.self) {
            try await api.getPlace(.init(path: .init(kind: "pharmacy", id: "new")))
        }
        _ = try await api.getPlace(.init(path: .init(kind: "pharmacy", id: "omur")))
    }

    @Test func theAdminCreatesReplacesAndRemovesAPlace() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let created = try await fixture.callAs(fixture.admin) {
            try await api.putPlace(Self.put("new/1", .init(lat: 41.08, lon: 29.01)))
        }
        let record = try created.created
        #expect(record.headers.location == "/v1/places/pharmacy/new%2F1")
        #expect(try record.body.json.name == "new/1" && record.body.json.attributes.isEmpty)

        let replaced = try await fixture.callAs(fixture.admin) {
            try await api.putPlace(
                Self.put(
                    "new/1",
                    .init(
                        name: "New", lat: 41.081, lon: 29.011,
                        attributes: [.init(name: "b", value: "2"), .init(name: "a", value: "1")])))
        }
        #expect(try replaced.ok.body.json.attributes.map(\.name) == ["b", "a"], "attributes keep the given order")
        let read = try await api.getPlace(.init(path: .init(kind: "pharmacy", id: "new/1"))).ok.body.json
        #expect(read.name == "New" && read.lat == 41.081)
        let nearby = try await api.findNearby(QueryOperationTests.nearby(lat: 41.081, lon: 29.011))
        #expect(try nearby.ok.body.json.results.first?.id == "new/1", "queries see a write at once")

        let removed = try await fixture.callAs(fixture.admin) {
            try await api.deletePlace(.init(path: .init(kind: "pharmacy", id: "new/1")))
        }
        _ = try removed.noContent
        await #expect(throws: HTTPAPIError.places(.noSuchPlace(kind: "pharmacy", id: "new/1"))) {
            try await fixture.callAs(fixture.admin) {
                try await api.deletePlace(.init(path: .init(kind: "pharmacy", id: "new/1")))
            }
        }
    }

    @Test func anIdInAnotherSpellingIsTheSamePlaceStoredComposed() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let headers: HTTPFields = [.authorization: "Bearer \(fixture.admin)", .contentType: "application/json"]
        let body = #"{"lat":41.08,"lon":29.01}"#
        let created = try await transport.send(
            .put, "/v1/places/pharmacy/cafe%CC%81", headers: headers, body: HTTPBody(body))
        #expect(created.status == 201, "\(created.body)")
        #expect(created.json["id"] as? String == "caf\u{E9}")
        #expect(created.response.headerFields[.location] == "/v1/places/pharmacy/caf%C3%A9")
        let replaced = try await transport.send(
            .put, "/v1/places/pharmacy/caf%C3%A9", headers: headers, body: HTTPBody(body))
        #expect(replaced.status == 200, "the same place, replaced: \(replaced.body)")
        let read = try await transport.send(.get, "/v1/places/pharmacy/cafe%CC%81")
        #expect(read.status == 200)
    }

    @Test func ofAdminsRacingToCreateOnePlaceExactlyOneHears201() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        let admin = fixture.admin
        let created = try await withThrowingTaskGroup(of: Bool.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let output = try await fixture.callAs(admin) {
                        try await api.putPlace(Self.put("raced", .init(lat: 41.08 + Double(writer) / 1000, lon: 29.01)))
                    }
                    if case .created = output { return true }
                    _ = try output.ok
                    return false
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(created == 1)
    }

    @Test(arguments: [
        (Components.Schemas.PlaceInput(lat: 95, lon: 29), "/lat"),
        (.init(lat: .nan, lon: 29), "/lat"),
        (.init(lat: 41, lon: -180.25), "/lon"),
        (.init(name: "bad\nname", lat: 41, lon: 29), "/name"),
        (.init(name: String(repeating: "n", count: 257), lat: 41, lon: 29), "/name"),
        (.init(lat: 41, lon: 29, attributes: [.init(name: "lat", value: "1")]), "/attributes/0/name"),
        (
            .init(lat: 41, lon: 29, attributes: [.init(name: "x", value: String(repeating: "v", count: 513))]),
            "/attributes/0/value"
        ),
        (.init(lat: 41, lon: 29, attributes: Array(repeating: .init(name: "x", value: "y"), count: 33)), "/attributes"),
    ])
    func aBodyThatBreaksItsRulesIsA422NamingTheField(body: Components.Schemas.PlaceInput, pointer: String) async throws
    {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let error = await #expect(throws: HTTPAPIError.self) {
            try await fixture.callAs(fixture.admin) { try await fixture.api.putPlace(Self.put("x", body)) }
        }
        guard case .invalidBody(let at, _, _) = error else {
            Issue.record("expected invalidBody, got \(String(describing: error))")
            return
        }
        #expect(at == pointer)
        #expect(error?.httpStatus == .unprocessableContent)
    }

    @Test func theLatitudeOfABodyIsWordedAsInTheContract() {
        #expect(
            (try? BodyValues.coordinate(95, 0)) == nil
                && HTTPAPIError.field("/lat", isString: false, Vocabulary.latitude.invalid("95")).description
                    == "invalid latitude 95 at /lat: expected a number of degrees from -90 to 90"
        )
        #expect(throws: HTTPAPIError.field("/lat", isString: false, Vocabulary.latitude.invalid("95"))) {
            try BodyValues.coordinate(95, 0)
        }
    }
}
