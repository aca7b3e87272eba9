import Foundation
import HTTPTypes
import Testing

/// The app developer's scenario through the Swift client that swift-openapi-generator makes from
/// openapi.yaml (client mode, `Generated/`), against a real server on a loopback port: every
/// answer is read as the generated type of its status, as an app would read it (issue 15: a
/// spec that generators turn into working clients).
@Suite struct GeneratedClientTests {
    static let here = ServerFixture.here
    static let minimumPosition = HTTPField.Name("Vicinity-Min-Position")!
    static let waitMilliseconds = HTTPField.Name("Vicinity-Wait-Ms")!

    @Test func queriesAsJSONAndGeoJSONAndMap() async throws {
        try await ServerFixture.run { fixture in
            let client = fixture.client()
            let nearby = try await client.findNearby(query: .init(lat: Self.here.lat, lon: Self.here.lon, radius: 700))
                .ok.body.json
            #expect(nearby.results.map(\.id) == ["omur", "emre", "arzu"])
            #expect(nearby.total == 3)

            let collection = try await client.findNearbyGeoJSON(
                query: .init(lat: Self.here.lat, lon: Self.here.lon, radius: 500)
            ).ok.body.applicationGeoJson
            #expect(collection.features.map(\.id) == ["omur"])
            #expect(collection.features.first?.geometry.coordinates == [29.014096, 41.087853])
            #expect(collection.total == 1)

            let nearest = try await client.findNearest(query: .init(lat: Self.here.lat, lon: Self.here.lon, count: 2))
                .ok.body.json
            #expect(nearest.results.map(\.id) == ["omur", "emre"])
            let nearestCollection = try await client.findNearestGeoJSON(
                query: .init(lat: Self.here.lat, lon: Self.here.lon, count: 1)
            ).ok.body.applicationGeoJson
            #expect(nearestCollection.features.map(\.id) == ["omur"])

            let map = try await client.renderMap(
                query: .init(lat: Self.here.lat, lon: Self.here.lon, radius: 500, width: 60, height: 20)
            ).ok.body.plainText
            let text = try await String(collecting: map, upTo: 1 << 20)
            #expect(text.contains("Omur"))
        }
    }

    @Test func registerMovePrivatePublicRemove() async throws {
        try await ServerFixture.run { fixture in
            let anyone = fixture.client()
            let admin = fixture.client(token: fixture.admin)
            let registered = try await admin.registerUser(
                body: .json(.init(id: "ayse", name: "Ayşe", location: .init(lat: 41.0885, lon: 29.0158)))
            ).created.body.json
            #expect(registered.user.visibility == ._public)
            #expect(registered.token.count == 43)
            let ayse = fixture.client(token: registered.token)
            let near = { () async throws -> [String] in
                try await anyone.findNearbyUsers(query: .init(lat: Self.here.lat, lon: Self.here.lon)).ok.body.json
                    .results.map(\.id)
            }
            #expect(try await near() == ["ayse"])

            let moved = try await ayse.moveUser(path: .init(id: "ayse"), body: .json(.init(lat: 41.0882, lon: 29.0157)))
                .ok.body.json
            #expect(moved.location?.lat == 41.0882)

            let hidden = try await ayse.setUserVisibility(
                path: .init(id: "ayse"), body: .json(._private(.init(visibility: ._private)))
            )
            .ok.body.json
            #expect(hidden.visibility == ._private)
            #expect(try await near() == [])
            let unseen = try await anyone.getUser(path: .init(id: "ayse")).notFound.body.applicationProblemJson
            #expect(unseen.detail == "no user \"ayse\" that you can see")
            #expect(try await ayse.getUser(path: .init(id: "ayse")).ok.body.json.visibility == ._private)

            let shown = try await ayse.setUserVisibility(
                path: .init(id: "ayse"), body: .json(._public(.init(visibility: ._public)))
            )
            .ok.body.json
            #expect(shown.visibility == ._public)
            #expect(try await near() == ["ayse"])

            _ = try await ayse.deleteUser(path: .init(id: "ayse")).noContent
            _ = try await admin.getUser(path: .init(id: "ayse")).notFound
        }
    }

    @Test func eachErrorIsTheProblemTheContractLists() async throws {
        try await ServerFixture.run { fixture in
            let anyone = fixture.client()
            let admin = fixture.client(token: fixture.admin)
            let token = try await admin.registerUser(body: .json(.init(id: "ayse"))).created.body.json.token
            let ayse = fixture.client(token: token)

            let latitude = try await anyone.findNearby(query: .init(lat: 95, lon: Self.here.lon)).badRequest.body
                .applicationProblemJson
            #expect(latitude.detail == "invalid latitude \"95.0\": expected a number of degrees from -90 to 90")
            #expect(latitude.invalidParams?.first?.name == "lat")

            let visibility = try await fixture.client(token: token, replacingBodyWith: #"{"visibility":"PRIVATE"}"#)
                .setUserVisibility(path: .init(id: "ayse"), body: .json(._private(.init(visibility: ._private))))
                .badRequest.body.applicationProblemJson
            #expect(visibility.detail == "invalid visibility \"PRIVATE\" at /visibility: expected public or private")

            let malformed = try await fixture.client(token: token, replacingBodyWith: "{\n \"visibility\": }")
                .setUserVisibility(path: .init(id: "ayse"), body: .json(._private(.init(visibility: ._private))))
                .badRequest.body.applicationProblemJson
            #expect(
                malformed.detail
                    == "the body is not valid JSON: unexpected '}', expected a value at line 2, column 16 (byte 17)")

            let noToken = try await anyone.deleteUser(path: .init(id: "ayse")).unauthorized.body.applicationProblemJson
            #expect(noToken.detail == "this needs a token: send Authorization: Bearer <token>")
            _ = try await fixture.client(token: String(repeating: "A", count: 43)).deleteUser(path: .init(id: "ayse"))
                .unauthorized
            _ = try await ayse.deletePlace(path: .init(kind: "pharmacy", id: "omur")).forbidden
            _ = try await anyone.getUser(path: .init(id: "nobody")).notFound
            let taken = try await admin.registerUser(body: .json(.init(id: "ayse"))).conflict.body
                .applicationProblemJson
            #expect(taken.detail == "user \"ayse\" already exists")
        }
    }

    @Test func precisionAndGhostModeWithATimer() async throws {
        try await ServerFixture.run { fixture in
            let anyone = fixture.client()
            let admin = fixture.client(token: fixture.admin)
            let registered = try await admin.registerUser(
                body: .json(.init(id: "ayse", location: .init(lat: 41.0885, lon: 29.0158), precision: .street))
            ).created.body.json
            #expect(registered.user.precision == .street && registered.user.location?.lat == 41.0885)
            let ayse = fixture.client(token: registered.token)
            // Others read the centre of her 100 m cell and no timer.
            let published = try await anyone.getUser(path: .init(id: "ayse")).ok.body.json
            #expect(published.location == .init(lat: 41.0884615, lon: 29.0152368))
            #expect(published.precision == .street && published.privateUntil == nil)
            let hit = try await anyone.findNearbyUsers(query: .init(lat: Self.here.lat, lon: Self.here.lon)).ok
                .body.json.results.first
            #expect(hit?.precision == .street && hit?.distanceM == 0)

            let district = try await ayse.setUserPrecision(
                path: .init(id: "ayse"), body: .json(.init(precision: .district))
            ).ok.body.json
            #expect(district.precision == .district && district.location?.lat == 41.0885)
            let ghost = try await ayse.setUserVisibility(
                path: .init(id: "ayse"), body: .json(._private(.init(visibility: ._private, forSeconds: 3600)))
            ).ok.body.json
            let until = try #require(ghost.privateUntil)
            #expect(abs(until.timeIntervalSinceNow - 3600) < 60)

            let badPrecision = try await fixture.client(
                token: registered.token, replacingBodyWith: #"{"precision":"x"}"#
            )
            .setUserPrecision(path: .init(id: "ayse"), body: .json(.init(precision: .city)))
            .badRequest.body.applicationProblemJson
            #expect(
                badPrecision.detail == #"invalid precision "x" at /precision: expected exact, street, district or city"#
            )
            // The contract's oneOf has no public change with a time limit: sent anyway, the field
            // is unknown there.
            let timedPublic = try await fixture.client(
                token: registered.token, replacingBodyWith: #"{"visibility":"public","for_seconds":60}"#
            )
            .setUserVisibility(path: .init(id: "ayse"), body: .json(._public(.init(visibility: ._public))))
            .unprocessableContent.body.applicationProblemJson
            #expect(timedPublic.invalidParams?.first?.name == "/for_seconds")
            #expect(
                timedPublic.detail
                    == #"unknown field "for_seconds" at /: a time limit goes only with visibility private"#)
        }
    }

    @Test func readYourWritesThroughThePositionHeaders() async throws {
        try await ServerFixture.run { fixture in
            let anyone = fixture.client()
            let admin = fixture.client(token: fixture.admin)
            let created = try await admin.registerUser(body: .json(.init(id: "ayse"))).created
            let position = created.headers.vicinityPosition
            #expect(position >= 1)
            let location = Components.Schemas.Location(lat: 41.0885, lon: 29.0158)
            let moved = try await admin.moveUser(path: .init(id: "ayse"), body: .json(location)).ok
            #expect(moved.headers.vicinityPosition == position + 1)

            // What this server has applied is answered at once; what it has not, a 503 after the wait.
            let user = try await fixture.client(headers: [Self.minimumPosition: "\(moved.headers.vicinityPosition)"])
                .getUser(path: .init(id: "ayse")).ok.body.json
            #expect(user.location?.lat == 41.0885)
            let beyond = try await fixture.client(
                headers: [Self.minimumPosition: "\(position + 100)", Self.waitMilliseconds: "50"]
            )
            .findNearbyUsers(query: .init(lat: Self.here.lat, lon: Self.here.lon)).serviceUnavailable
            #expect(beyond.headers.retryAfter == 1)
            #expect(
                try beyond.body.applicationProblemJson.detail.hasPrefix("position \(position + 100) was not applied"))

            let health = try await anyone.getHealth().ok.body.json
            #expect(health.status == .ok && health.replication.applied == position + 1)
            #expect(health.replication.storeReachable && health.replication.staleSince == nil)
        }
    }
}
