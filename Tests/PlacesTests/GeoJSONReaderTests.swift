import Geo
import TestSupport
import Testing

@testable import Places

@Suite struct GeoJSONReaderTests {
    let reader = GeoJSONReader(defaultKind: "pharmacy")

    private func parse(_ text: String) throws -> PlaceFile {
        try reader.parse(Array(text.utf8), file: "test.geojson")
    }

    @Test func readsPointFeatures() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "omur",
               "geometry": {"type": "Point", "coordinates": [29.014096, 41.087853]},
               "properties": {"name": "Omur", "city": "İstanbul"}},
              {"type": "Feature", "id": 42,
               "geometry": {"type": "Point", "coordinates": [29.008232, 41.086059, 57.5]},
               "properties": {"kind": "user"}},
              {"type": "Feature",
               "geometry": {"type": "Point", "coordinates": [-180, -90]},
               "properties": {"id": 7.5, "name": null}}
            ]}
            """
        let file = try parse(text)
        #expect(file.places.map(\.id) == ["omur", "42", "7.5"])
        #expect(file.places.map(\.name) == ["Omur", "", ""])
        #expect(file.places.map(\.kind) == ["pharmacy", "user", "pharmacy"])
        #expect(file.places[0].coordinate == (try Coordinate(latitude: 41.087853, longitude: 29.014096)))
        #expect(file.places[1].coordinate == (try Coordinate(latitude: 41.086059, longitude: 29.008232)))
        #expect(file.places[2].coordinate == (try Coordinate(latitude: -90, longitude: -180)))
        #expect(file.places[0].attributes == ["city": "İstanbul"])
        #expect(file.places[1].attributes.isEmpty)
        #expect(file.places[2].attributes.isEmpty)
        #expect(
            file.origins.map(\.description) == [
                "test.geojson: feature 0", "test.geojson: feature 1",
                "test.geojson: feature 2",
            ])
    }

    @Test func formatsPropertiesAsText() throws {
        let text = """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "id": "a",
              "geometry": {"type": "Point", "coordinates": [1, 2]},
              "properties": {"whole": 3.0, "fraction": 1.5, "big": 12345678901234567890, "yes": true,
                             "no": false, "nothing": null, "list": [1, "x"], "object": {"b": 1, "a": "/"},
                             "id": "ignored-because-the-feature-has-one"}}]}
            """
        let place = try #require(try parse(text).places.first)
        #expect(place.id == "a")
        #expect(
            place.attributes == [
                "whole": "3", "fraction": "1.5", "big": "12345678901234567890", "yes": "true", "no": "false",
                "nothing": "", "list": "[1,\"x\"]", "object": "{\"a\":\"/\",\"b\":1}",
            ])
        #expect(place.attributeNames == ["whole", "fraction", "big", "yes", "no", "nothing", "list", "object"])
    }

    /// Issue 15: attributes came out sorted by name, not in the file's order, so a GeoJSON export
    /// did not read back to the same places.
    @Test func keepsThePropertyOrderOfEachFeature() throws {
        let text = #"""
            {"features": [
              {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [1, 2]},
               "properties": {"z\u00e9": 1, "kind": "k", "a\"b": {"nested": [1, {"x": 2}]}, "m": "}", "\ud83d\ude00": 3}},
              {"properties": {"b": 1, "a": 2, "b": 3},
               "type": "Feature", "id": "b", "geometry": {"type": "Point", "coordinates": [1, 2]}},
              {"type": "Feature", "id": "c", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": null}
            ], "type": "FeatureCollection"}
            """#
        let places = try parse(text).places
        #expect(places[0].attributeNames == ["zé", "a\"b", "m", "😀"])
        #expect(places[0].attribute("a\"b") == #"{"nested":[1,{"x":2}]}"#)
        #expect(places[1].attributeNames == ["b", "a"], "a repeated name keeps its first place")
        #expect(places[2].attributeNames.isEmpty)
        #expect(JSONKeyOrder.featureProperties(in: Array(text.utf8))?.count == 3)
        #expect(JSONKeyOrder.featureProperties(in: Array(#"{"features": 3}"#.utf8)) == nil)
    }

    @Test func numericOneAndZeroAreNotBooleans() throws {
        let text = """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "id": 1,
              "geometry": {"type": "Point", "coordinates": [1, 0]}, "properties": {"n": 1, "z": 0}}]}
            """
        let place = try #require(try parse(text).places.first)
        #expect(place.id == "1")
        #expect(place.attributes == ["n": "1", "z": "0"])
    }

    /// Found 2026-11-22 in review: a numeric id beyond 2^53 came back rounded
    /// ("1.2345678901234568e+29"), so two long ids could collapse into one.
    @Test func numericIDsBeyondTwoToThe53AreRejected() throws {
        let text = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":123456789012345678901234567890,
            "geometry":{"type":"Point","coordinates":[29,41]},"properties":{}}]}
            """
        #expect(
            throws: PlacesError.numericIDTooLong(
                SourceLocation(file: "test.geojson", position: .feature(0)), value: "1.2345678901234568e+29")
        ) { try parse(text) }
        let exact =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":9007199254740991,"#
            + #""geometry":{"type":"Point","coordinates":[29,41]},"properties":{}}]}"#
        #expect(try parse(exact).places.first?.id == "9007199254740991")
    }

    @Test func acceptsByteOrderMarkAndEmptyCollection() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"type": "FeatureCollection", "features": []}"#.utf8)
        #expect(try reader.parse(bytes, file: "empty.geojson").places.isEmpty)
    }
}

@Suite struct PlaceLoaderTests {
    @Test(arguments: [
        ("a.csv", "{", PlaceLoader.Format.csv), ("a.CSV", "", .csv), ("a.geojson", "id", .geoJSON),
        ("a.json", "", .geoJSON), ("a.GeoJSON", "", .geoJSON), ("a.txt", "\u{FEFF} \n\t{", .geoJSON),
        ("places", "id,name,lat,lon", .csv), ("dir.json/places", "id", .csv), ("x", "", .csv),
    ])
    func detectsFormat(path: String, content: String, format: PlaceLoader.Format) {
        #expect(PlaceLoader.detectFormat(path: path, bytes: Array(content.utf8)) == format)
    }

    @Test func loadsEitherFormatByContent() throws {
        try TemporaryDirectory.with { directory in
            let csv = try directory.write("points", "id,name,lat,lon\na,A,1,2\n")
            let json = try directory.write(
                "points.txt",
                #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b","#
                    + #""geometry":{"type":"Point","coordinates":[2,1]},"properties":null}]}"#)
            #expect(try PlaceLoader.load(path: csv, defaultKind: "k").places.map(\.id) == ["a"])
            #expect(try PlaceLoader.load(path: json, defaultKind: "k").places.map(\.id) == ["b"])
            let forced = try PlaceLoader.load(path: json, defaultKind: "k", format: .geoJSON)
            #expect(forced.path == json)
        }
    }
}
