import Foundation
import HTTPTypes
import Places
import Testing

@testable import HTTPAPI

/// The GeoJSON answers (`/v1/nearby.geojson`, `/v1/nearest.geojson`) checked against RFC 7946 as served
/// (through the generated encoder), and read back by Vicinity's own importer.
@Suite(.timeLimit(.minutes(10))) struct GeoJSONConformanceTests {
    static let targets = [
        "/v1/nearby.geojson?lat=41.088154&lon=29.015615&radius=700",
        "/v1/nearest.geojson?lat=41.088154&lon=29.015615&count=3",
        "/v1/nearby.geojson?lat=41.088154&lon=29.015615&radius=500&kind=user",
    ]

    /// RFC 7946: §3.3 a FeatureCollection has "type" and a "features" array; §3.2 each Feature has
    /// "type", a "geometry" and a "properties" object, and an "id" that is a string or a number;
    /// §3.1.2 a Point's "coordinates" is one position; §3.1.1 a position is [longitude, latitude]
    /// in WGS84 degrees (§4), two finite numbers; §4 there is no "crs" member; §6.1 other members
    /// (`query`, `total`) are foreign members and allowed.
    static func violations(in json: Any) -> [String] {
        guard let collection = json as? [String: Any] else { return ["not a JSON object"] }
        var found: [String] = []
        if collection["type"] as? String != "FeatureCollection" { found.append("type is not FeatureCollection") }
        if collection["crs"] != nil { found.append("crs member (removed by RFC 7946 §4)") }
        guard let features = collection["features"] as? [Any] else { return found + ["features is not an array"] }
        for (index, element) in features.enumerated() {
            guard let feature = element as? [String: Any] else {
                found.append("features[\(index)] is not an object")
                continue
            }
            if feature["type"] as? String != "Feature" { found.append("features[\(index)].type") }
            if !(feature["id"] is String || feature["id"] is NSNumber) { found.append("features[\(index)].id") }
            if !(feature["properties"] is [String: Any]) { found.append("features[\(index)].properties") }
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                let position = geometry["coordinates"] as? [Double], position.count == 2,
                position.allSatisfy(\.isFinite), abs(position[0]) <= 180, abs(position[1]) <= 90
            else {
                found.append("features[\(index)].geometry is not a Point at [longitude, latitude]")
                continue
            }
        }
        return found
    }

    @Test(arguments: targets)
    func answersAreRFC7946FeatureCollections(target: String) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(
            .get, target, headers: [.authorization: "Bearer " + fixture.mehmet])
        #expect(
            reply.status == 200 && reply.response.headerFields[.contentType]?.hasPrefix("application/geo+json") == true)
        let json = try JSONSerialization.jsonObject(with: Data(reply.body.utf8))
        #expect(Self.violations(in: json) == [])
        #expect((json as? [String: Any]).map { ($0["features"] as? [Any])?.isEmpty == false } == true)
    }

    @Test func theImporterReadsTheAnswerBackToTheSamePlaces() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let transport = try RecordingTransport.serving(fixture)
        let reply = try await transport.send(.get, Self.targets[0])
        let file = try GeoJSONReader(defaultKind: "pharmacy").parse(Array(reply.body.utf8), file: "answer.geojson")
        let read = file.places.map { ($0.id, $0.coordinate.latitude, $0.coordinate.longitude) }
        #expect(read.map(\.0) == ["omur", "emre", "arzu"])
        #expect(read.first.map { $0.1 == 41.087853 && $0.2 == 29.014096 } == true, "longitude first in the file")
    }

    @Test func aSwappedPositionIsCaught() {
        let swapped: [String: Any] = [
            "type": "FeatureCollection",
            "features": [
                [
                    "type": "Feature", "id": "x", "properties": [String: Any](),
                    "geometry": ["type": "Point", "coordinates": [41.0, 129.0]],
                ]
            ],
        ]
        #expect(Self.violations(in: swapped) == ["features[0].geometry is not a Point at [longitude, latitude]"])
    }
}
