import Foundation
import Geo
import TestSupport
import Testing

@testable import Places

/// A file that must not load, and the exact message it must give. `FILE` in `message` stands for
/// the path the file was written to.
struct BadFile: CustomTestStringConvertible, Sendable {
    var name: String
    var fileName: String
    var bytes: [UInt8]
    var message: String

    init(_ name: String, csv text: String, _ message: String) {
        self.init(name, file: "bad.csv", bytes: Array(text.utf8), message)
    }

    init(_ name: String, geoJSON text: String, _ message: String) {
        self.init(name, file: "bad.geojson", bytes: Array(text.utf8), message)
    }

    init(_ name: String, file: String, bytes: [UInt8], _ message: String) {
        self.name = name
        self.fileName = file
        self.bytes = bytes
        self.message = message
    }

    var testDescription: String { "\(fileName): \(name)" }
}

/// A GeoJSON FeatureCollection holding `features` (JSON text of the array's elements).
private func collection(_ features: String...) -> String {
    #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ", ") + "]}"
}

/// A Point feature with an id and `coordinates` as JSON text.
private func point(_ id: String, _ coordinates: String) -> String {
    #"{"type": "Feature", "id": "\#(id)", "geometry": {"type": "Point", "coordinates": \#(coordinates)}, "#
        + #""properties": {}}"#
}

private let header = "id,name,lat,lon\n"
private let latitudeRange = "expected a number of degrees from -90 to 90"
private let longitudeRange = "expected a number of degrees from -180 to 180"

let badFiles: [BadFile] = [
    // CSV: header
    BadFile("empty file", csv: "", "FILE: no header line (the header needs id,name,lat,lon)"),
    BadFile("only blank lines", csv: "\n\r\n\n", "FILE: no header line (the header needs id,name,lat,lon)"),
    BadFile(
        "missing lat", csv: "id,name,latitude,lon\n",
        "FILE: missing required column \"lat\" (the header needs id,name,lat,lon)"),
    BadFile(
        "column names are case-sensitive", csv: "ID,name,lat,lon\n",
        "FILE: missing required column \"id\" (the header needs id,name,lat,lon)"),
    BadFile("duplicate column", csv: "id,name,lat,lon,city,city\n", "FILE:1: duplicate column \"city\" in the header"),
    BadFile("empty column name", csv: "\nid,name,lat,lon,\n", "FILE:2: empty name for column 5 in the header"),
    // CSV: structure
    BadFile("too few fields", csv: header + "a,A,1\n", "FILE:2: expected 4 fields as in the header, found 3"),
    BadFile("too many fields", csv: header + "a,A,1,2,3\n", "FILE:2: expected 4 fields as in the header, found 5"),
    BadFile(
        "blank-looking line of spaces", csv: header + "a,A,1,2\n  \n",
        "FILE:3: expected 4 fields as in the header, found 1"),
    BadFile("unterminated quote", csv: header + "a,A,1,2\nb,\"B,1,2\n", "FILE:3: unterminated quoted field"),
    BadFile(
        "text after closing quote", csv: header + "a,\"A\"x,1,2\n",
        "FILE:2: text after the closing quote of field 2: expected a comma or the end of the line"),
    BadFile(
        "invalid UTF-8", file: "bad.csv", bytes: Array((header + "a,").utf8) + [0xE9] + Array(",1,2\n".utf8),
        "FILE:2: field 2 is not valid UTF-8"),
    // CSV: ids
    BadFile("empty id", csv: header + "a,A,1,2\n\n,B,1,2\n", "FILE:4: empty id"),
    BadFile(
        "duplicate id", csv: header + "a,A,1,2\nb,B,1,2\na,C,3,4\n", "FILE:4: duplicate id \"a\" (first at line 2)"),
    BadFile(
        "duplicate id after a multi-line record, CRLF",
        csv: "id,name,lat,lon\r\na,\"A\r\nA\",1,2\r\nb,B,3,4\r\na,C,5,6\r\n",
        "FILE:5: duplicate id \"a\" (first at line 2)"),
    // CSV: coordinates
    BadFile("latitude not a number", csv: header + "a,A,abc,2\n", "FILE:2: invalid latitude \"abc\": \(latitudeRange)"),
    BadFile(
        "longitude out of range", csv: header + "a,A,1,200\n", "FILE:2: invalid longitude \"200\": \(longitudeRange)"),
    BadFile(
        "latitude just over 90", csv: header + "a,A,90.000001,2\n",
        "FILE:2: invalid latitude \"90.000001\": \(latitudeRange)"),
    BadFile("latitude -91", csv: header + "a,A,-91,2\n", "FILE:2: invalid latitude \"-91\": \(latitudeRange)"),
    BadFile("latitude NaN", csv: header + "a,A,NaN,2\n", "FILE:2: invalid latitude \"NaN\": \(latitudeRange)"),
    BadFile("latitude nan", csv: header + "a,A,nan,2\n", "FILE:2: invalid latitude \"nan\": \(latitudeRange)"),
    BadFile("longitude inf", csv: header + "a,A,1,inf\n", "FILE:2: invalid longitude \"inf\": \(longitudeRange)"),
    BadFile("longitude -inf", csv: header + "a,A,1,-inf\n", "FILE:2: invalid longitude \"-inf\": \(longitudeRange)"),
    BadFile(
        "latitude infinity", csv: header + "a,A,infinity,2\n", "FILE:2: invalid latitude \"infinity\": \(latitudeRange)"
    ),
    BadFile(
        "longitude overflows to infinity", csv: header + "a,A,1,1e999\n",
        "FILE:2: invalid longitude \"1e999\": \(longitudeRange)"),
    BadFile("latitude empty", csv: header + "a,A,,2\n", "FILE:2: invalid latitude \"\": \(latitudeRange)"),
    BadFile("latitude only spaces", csv: header + "a,A,  ,2\n", "FILE:2: invalid latitude \"  \": \(latitudeRange)"),
    BadFile(
        "latitude hex float", csv: header + "a,A,0x1p3,2\n", "FILE:2: invalid latitude \"0x1p3\": \(latitudeRange)"),
    BadFile(
        "latitude trailing garbage", csv: header + "a,A,12abc,2\n",
        "FILE:2: invalid latitude \"12abc\": \(latitudeRange)"),
    BadFile(
        "latitude decimal comma", csv: header + "a,A,\"41,5\",2\n",
        "FILE:2: invalid latitude \"41,5\": \(latitudeRange)"),
    BadFile(
        "latitude exponent without digits", csv: header + "a,A,1e,2\n",
        "FILE:2: invalid latitude \"1e\": \(latitudeRange)"),
    BadFile(
        "latitude with quotes and a line break is escaped", csv: header + "a,A,\"4\"\"1\n\",2\n",
        "FILE:2: invalid latitude \"4\\\"1\\n\": \(latitudeRange)"),
    BadFile(
        "long value is cut short", csv: header + "a,A,\(String(repeating: "9", count: 100)),2\n",
        "FILE:2: invalid latitude \"\(String(repeating: "9", count: 79))…\": \(latitudeRange)"),
    BadFile(
        "latitude is checked before longitude", csv: header + "a,A,x,y\n",
        "FILE:2: invalid latitude \"x\": \(latitudeRange)"),
    // GeoJSON
    BadFile("invalid JSON", geoJSON: #"{"type": "#, "FILE: invalid JSON: Unexpected end of file during JSON parse."),
    BadFile(
        "number too large for JSON", geoJSON: "[1e999]",
        "FILE: invalid JSON: Number 1e999 is not representable in Swift."),
    BadFile("single Feature", geoJSON: #"{"type": "Feature"}"#, "FILE: not a GeoJSON FeatureCollection"),
    BadFile("array", geoJSON: "[]", "FILE: not a GeoJSON FeatureCollection"),
    BadFile("no features", geoJSON: #"{"type": "FeatureCollection"}"#, "FILE: not a GeoJSON FeatureCollection"),
    BadFile(
        "feature not an object", geoJSON: collection(point("a", "[1, 2]"), "7"),
        "FILE: feature 1: not a GeoJSON Feature"),
    BadFile(
        "properties not an object", geoJSON: collection(#"{"type": "Feature", "properties": [1]}"#),
        "FILE: feature 0: not a GeoJSON Feature"),
    BadFile(
        "LineString",
        geoJSON: collection(
            point("a", "[1, 2]"), point("b", "[1, 2]"), point("c", "[1, 2]"),
            #"{"type": "Feature", "id": "d", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}"#),
        "FILE: feature 3: geometry is LineString, expected Point"),
    BadFile(
        "null geometry", geoJSON: collection(#"{"type": "Feature", "id": "a", "geometry": null, "properties": {}}"#),
        "FILE: feature 0: no geometry, expected Point"),
    BadFile(
        "missing geometry", geoJSON: collection(#"{"type": "Feature", "id": "a", "properties": {}}"#),
        "FILE: feature 0: no geometry, expected Point"),
    BadFile(
        "geometry without a type", geoJSON: collection(#"{"type": "Feature", "id": "a", "geometry": {}}"#),
        "FILE: feature 0: geometry is without a type, expected Point"),
    BadFile(
        "missing id",
        geoJSON: collection(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}"#),
        "FILE: feature 0: no id (expected \"id\" on the feature or in its properties)"),
    BadFile(
        "boolean id",
        geoJSON: collection(#"{"type": "Feature", "id": true, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#),
        "FILE: feature 0: invalid id true: expected a string or a number"),
    BadFile("empty id", geoJSON: collection(point("", "[1, 2]")), "FILE: feature 0: empty id"),
    BadFile(
        "duplicate id", geoJSON: collection(point("a", "[1, 2]"), point("b", "[1, 2]"), point("a", "[3, 4]")),
        "FILE: feature 2: duplicate id \"a\" (first at feature 0)"),
    BadFile(
        "longitude out of range", geoJSON: collection(point("a", "[200, 41]")),
        "FILE: feature 0: invalid longitude 200: \(longitudeRange)"),
    BadFile(
        "latitude out of range", geoJSON: collection(point("a", "[29, -90.5]")),
        "FILE: feature 0: invalid latitude -90.5: \(latitudeRange)"),
    BadFile(
        "latitude as a string", geoJSON: collection(point("a", #"[29, "41"]"#)),
        "FILE: feature 0: invalid latitude \"41\": \(latitudeRange)"),
    BadFile(
        "longitude null", geoJSON: collection(point("a", "[null, 41]")),
        "FILE: feature 0: invalid longitude null: \(longitudeRange)"),
    BadFile(
        "longitude boolean", geoJSON: collection(point("a", "[true, 41]")),
        "FILE: feature 0: invalid longitude true: \(longitudeRange)"),
    BadFile(
        "one coordinate", geoJSON: collection(point("a", "[29]")),
        "FILE: feature 0: invalid coordinates [29]: expected [longitude, latitude] in degrees"),
    BadFile(
        "coordinates missing",
        geoJSON: collection(#"{"type": "Feature", "id": "a", "geometry": {"type": "Point"}}"#),
        "FILE: feature 0: invalid coordinates (missing): expected [longitude, latitude] in degrees"),
    BadFile(
        "sniffed as GeoJSON", file: "places.txt", bytes: Array(" {\"type\": \"Topology\"}".utf8),
        "FILE: not a GeoJSON FeatureCollection"),
]

@Suite struct PlacesErrorTests {
    @Test(arguments: badFiles)
    func badFileGivesExactMessage(_ bad: BadFile) throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write(bad.fileName, bytes: bad.bytes)
            let expected = bad.message.replacingOccurrences(of: "FILE", with: path)
            #expect {
                try PlaceLoader.load(path: path, defaultKind: "pharmacy")
            } throws: { error in
                guard let error = error as? PlacesError else { return false }
                #expect(error.description == expected)
                return error.description == expected
            }
        }
    }

    @Test func badFileTableIsLarge() {
        #expect(badFiles.count >= 15)
    }

    @Test func missingFileNamesTheSystemReason() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.path + "/absent.csv"
            #expect(throws: PlacesError.cannotRead(file: path, reason: "No such file or directory")) {
                try PlaceLoader.load(path: path, defaultKind: "pharmacy")
            }
            #expect(
                PlacesError.cannotRead(file: path, reason: "No such file or directory").description
                    == "\(path): cannot read: No such file or directory")
            #expect(throws: PlacesError.cannotRead(file: directory.path, reason: "Is a directory")) {
                try PlaceLoader.load(path: directory.path, defaultKind: "pharmacy")
            }
        }
    }

    @Test func errorsCarryTheValueAsWritten() throws {
        #expect(
            throws: PlacesError.invalidLatitude(SourceLocation(file: "t.csv", position: .line(2)), value: " 1e999 ")
        ) {
            try PlaceCSVReader(defaultKind: "k").parse(Array((header + "a,A, 1e999 ,2\n").utf8), file: "t.csv")
        }
    }

    @Test(arguments: [
        (PlacesError.duplicateID("a", at: nil, firstAt: nil), "duplicate id \"a\" (already present)"),
        (
            .duplicateID("a", at: SourceLocation(file: "b.csv", position: .line(3)), firstAt: nil),
            "b.csv:3: duplicate id \"a\" (already present)"
        ),
        (
            .duplicateID(
                "a", at: SourceLocation(file: "b.csv", position: .line(3)),
                firstAt: SourceLocation(file: "a.geojson", position: .feature(0))),
            "b.csv:3: duplicate id \"a\" (first at a.geojson: feature 0)"
        ),
    ])
    func messagesWithoutAFile(error: PlacesError, message: String) {
        #expect(error.description == message)
    }

    @Test func quotedValuesStayOneLineWhateverTheyHold() {
        #expect(PlacesError.quoted("a\"b\\c\n\r\t") == #""a\"b\\c\n\r\t""#)
        // C0, DEL and C1 controls (U+0085 is a line break to some readers) as escapes; other
        // text, line and paragraph separators aside, as it is.
        #expect(
            PlacesError.quoted("\u{1}\u{1B}\u{7F}\u{85}\u{9F}\u{A0}Şifa")
                == #""\u{1}\u{1b}\u{7f}\u{85}\u{9f}\#u{A0}Şifa""#)
        let long = String(repeating: "x", count: 100)
        #expect(PlacesError.quoted(long) == "\"" + String(repeating: "x", count: 79) + "…\"")
    }

    @Test func geoErrorsKeepGeoMessages() {
        #expect(PlacesError.geo(.invalidRadius(-1)).description == GeoError.invalidRadius(-1).description)
    }
}
