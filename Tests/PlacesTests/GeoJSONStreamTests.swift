import Foundation
import Geo
import TestSupport
import Testing

@testable import Places

/// A FeatureCollection read feature by feature must give exactly the places, origins and errors of
/// the whole-file read, whatever the size of the reads and pieces, and must refuse what the whole
/// read refuses without holding the file.
@Suite struct GeoJSONStreamTests {
    static let readSizes = [1, 2, 3, 7, 64, 4_096, 1 << 20]

    /// The places, origins and skipped features of a streamed read and how many pieces it gave,
    /// or its error.
    static func streamed(
        _ text: String, readBytes: Int, featuresPerPiece: Int = 3, skipInvalid: Bool = false
    ) -> (Result<PlaceFile, PlacesError>, pieces: Int) {
        var source = PlaceByteSource(bytes: Array(text.utf8), name: "f.geojson")
        var places: [Place] = []
        var origins: [Places.SourceLocation] = []
        var skipped: [PlacesError] = []
        var pieces = 0
        do {
            try GeoJSONReader(defaultKind: "pharmacy", skipInvalid: skipInvalid).stream(
                &source, file: "f.geojson", featuresPerPiece: featuresPerPiece, readBytes: readBytes
            ) { piece in
                #expect(piece.places.count + piece.skipped.count <= featuresPerPiece)
                places += piece.places
                origins += piece.origins
                skipped += piece.skipped
                pieces += 1
            }
        } catch let error as PlacesError {
            return (.failure(error), pieces)
        } catch {
            Issue.record("unexpected \(error)")
        }
        return (.success(PlaceFile(path: "f.geojson", places: places, origins: origins, skipped: skipped)), pieces)
    }

    static func whole(_ text: String, skipInvalid: Bool = false) -> Result<PlaceFile, PlacesError> {
        Result { () throws(PlacesError) in
            try GeoJSONReader(defaultKind: "pharmacy", skipInvalid: skipInvalid).parse(
                Array(text.utf8), file: "f.geojson")
        }
    }

    /// A random JSON value whose strings hold the characters a scanner could trip on.
    static func value(_ random: inout SplitMix64, depth: Int = 0) -> String {
        switch random.next() % (depth > 2 ? 4 : 6) {
        case 0: return text(&random)
        case 1: return ["0", "-1.5", "3.0", "1e3", "12345678901"][Int(random.next() % 5)]
        case 2: return ["true", "false", "null"][Int(random.next() % 3)]
        case 3: return text(&random)
        case 4:
            let count = Int(random.next() % 4)
            return "["
                + (0..<count).map { _ in value(&random, depth: depth + 1) }.joined(separator: space(&random) + ",")
                + "]"
        default:
            let count = Int(random.next() % 4)
            let members = (0..<count).map { index in
                "\"k\(index)\"" + space(&random) + ":" + space(&random) + value(&random, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func text(_ random: inout SplitMix64) -> String {
        let pieces = [
            "a", "]", "}", "[", "{", ",", ":", "\\\"", "\\\\", "\\/", "\\n", "\\u00e9", "\\ud83d\\ude00", "é", " ",
        ]
        let count = Int(random.next() % 6)
        return "\"" + (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() + "\""
    }

    static func space(_ random: inout SplitMix64) -> String {
        ["", " ", "\n", "\t ", "\r\n  "][Int(random.next() % 5)]
    }

    /// A random collection: features with random properties and ids (strings and numbers, some
    /// missing or bad when `withBad`), extra root members before and after `features`.
    static func collection(_ random: inout SplitMix64, features count: Int, withBad: Bool) -> String {
        var features: [String] = []
        for index in 0..<count {
            var properties: [String] = []
            for name in ["name", "ref", "x]", "id"].shuffled(using: &random) where random.next() % 3 != 0 {
                properties.append("\"\(name)\":" + space(&random) + value(&random))
            }
            let bad = withBad && random.next() % 5 == 0
            let latitude = bad && random.next() % 2 == 0 ? "91" : String(Double(random.next() % 1_000) / 10 - 50)
            let geometryType = bad && random.next() % 3 == 0 ? "Polygon" : "Point"
            let id = random.next() % 2 == 0 ? "\"f\(index)\"" : "\(index)"
            var members = [
                "\"type\":\"Feature\"", "\"id\":\(id)",
                "\"geometry\":{\"type\":\"\(geometryType)\",\"coordinates\":[\(Double(index % 360) - 179.5),\(latitude)]}",
                "\"properties\":{" + properties.joined(separator: ",") + "}",
            ]
            members.shuffle(using: &random)
            features.append(space(&random) + "{" + members.joined(separator: "," + space(&random)) + "}")
        }
        var root = [
            "\"type\"" + space(&random) + ":" + space(&random) + "\"FeatureCollection\"",
            "\"features\":[" + features.joined(separator: ",") + space(&random) + "]",
            "\"bbox\":[-180,-90,180,90]", "\"name\":" + text(&random), "\"crs\":" + value(&random),
        ]
        root.shuffle(using: &random)
        return space(&random) + "{" + root.joined(separator: "," + space(&random)) + "}" + space(&random)
    }

    @Test func streamedReadsGiveTheWholeReadsPlaces() {
        var random = SplitMix64(seed: 20_261_127)
        for round in 0..<60 {
            let text =
                (round % 3 == 0 ? "\u{FEFF}" : "")
                + Self.collection(&random, features: Int(random.next() % 9), withBad: false)
            let expected = Self.whole(text)
            guard case .success(let file) = expected else {
                Issue.record("round \(round): the whole read refused \(text): \(expected)")
                continue
            }
            for size in Self.readSizes {
                let (result, _) = Self.streamed(text, readBytes: size, featuresPerPiece: 1 + Int(random.next() % 4))
                guard case .success(let got) = result else {
                    Issue.record("round \(round), reads of \(size): \(result) for \(text)")
                    continue
                }
                #expect(got.places == file.places, "round \(round), reads of \(size)")
                #expect(got.origins == file.origins, "round \(round), reads of \(size)")
            }
        }
    }

    @Test func skippedFeaturesAreTheWholeReadsAndTheFirstErrorIsTheSame() {
        var random = SplitMix64(seed: 7)
        for round in 0..<40 {
            let text = Self.collection(&random, features: 1 + Int(random.next() % 8), withBad: true)
            let size = Self.readSizes[round % Self.readSizes.count]
            let (skipping, _) = Self.streamed(text, readBytes: size, skipInvalid: true)
            let wholeSkipping = Self.whole(text, skipInvalid: true)
            switch (skipping, wholeSkipping) {
            case (.success(let got), .success(let file)):
                #expect(got.places == file.places, "round \(round)")
                #expect(got.skipped == file.skipped, "round \(round)")
            default:
                Issue.record("round \(round): \(skipping) against \(wholeSkipping)")
            }
            let (stopping, _) = Self.streamed(text, readBytes: size)
            switch (stopping, Self.whole(text)) {
            case (.failure(let got), .failure(let expected)): #expect(got == expected, "round \(round)")
            case (.success, .success): break
            case (let got, let expected): Issue.record("round \(round): \(got) against \(expected)")
            }
        }
    }

    @Test(arguments: [
        ("{\"type\":\"Feature\",\"features\":[]}", "not a GeoJSON FeatureCollection"),
        ("{\"features\":[],\"type\":\"Topology\"}", "not a GeoJSON FeatureCollection"),
        ("{\"type\":\"FeatureCollection\"}", "not a GeoJSON FeatureCollection"),
        ("{\"type\":\"FeatureCollection\",\"features\":{}}", "not a GeoJSON FeatureCollection"),
        ("[1,2]", "not a GeoJSON FeatureCollection"),
        ("", "invalid JSON: the document"),
        ("nul", "invalid JSON: the document"),
        ("{\"type\":\"FeatureCollection\",\"features\":[]} x", "expected the end of the file at byte 43, found 'x'"),
        (
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"a\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}} {}]}",
            "expected ',' or ']' at byte 116, found '{'"
        ),
        ("{\"type\":\"FeatureCollection\",\"features\":[{\"a\":}]}", "invalid JSON: feature 0"),
        ("{\"type\":\"FeatureCollection\",\"features\":[", "invalid JSON: feature 0"),
        ("{\"type\":\"FeatureCollection\" \"features\":[]}", "expected ',' or '}' at byte 28, found '\"'"),
        ("{\"type\":\"FeatureCollection\",\"features\":[],\"bbox\":[1 2]}", "member \"bbox\":"),
        ("123 x", "expected the end of the file at byte 4, found 'x'"),
        ("{\"type\":\"FeatureCollection\",\"features\":[\u{FEFF}{}]}", "invalid JSON: feature 0"),
        ("{\"type\":\"FeatureCollection\",\"features\":[\"\u{0}\"]}", "invalid JSON: feature 0"),
        ("{\"type\":\"FeatureCollection\",\"features\":[],\"features\":[]}", "\"features\" is given twice"),
        ("{\"type\"\"FeatureCollection\"}", "expected ':' at byte 7"),
        ("{type:1}", "expected a member name at byte 1, found 't'"),
    ])
    func refusals(text: String, message: String) {
        for size in [1, 5, 1 << 20] {
            let (result, _) = Self.streamed(text, readBytes: size)
            guard case .failure(let error) = result else {
                Issue.record("\(text) was read: \(result)")
                continue
            }
            #expect(error.description.contains(message), "\(text): \(error.description)")
            // The whole read refuses it too (but JSONSerialization takes a repeated member).
            if message.contains("twice") { continue }
            guard case .failure = Self.whole(text) else {
                Issue.record("the whole read takes \(text)")
                continue
            }
        }
    }

    @Test func aWrongTypeBeforeTheFeaturesStopsTheReadBeforeAnyPiece() {
        let feature = "{\"type\":\"Feature\",\"id\":\"a\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
        let before = "{\"type\":\"GeometryCollection\",\"features\":[\(feature)]}"
        let (early, earlyPieces) = Self.streamed(before, readBytes: 1 << 20, featuresPerPiece: 1)
        #expect(early.failure == .notFeatureCollection(file: "f.geojson"))
        #expect(earlyPieces == 0)
        let after = "{\"features\":[\(feature)],\"type\":\"GeometryCollection\"}"
        let (late, latePieces) = Self.streamed(after, readBytes: 1 << 20, featuresPerPiece: 1)
        #expect(late.failure == .notFeatureCollection(file: "f.geojson"))
        #expect(latePieces == 1)
    }

    /// A string that never closes is refused after `longestStreamedValueBytes`, not read to the
    /// end of the file.
    @Test func aFeatureThatNeverEndsStopsTheReadEarly() throws {
        let head =
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"a\","
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}},{\"id\":\""
        let pipe = FilledPipe(
            head: Array(head.utf8), filler: [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16),
            total: 3 * GeoJSONReader.longestStreamedValueBytes)
        var source = PlaceByteSource(descriptor: pipe.readEnd, name: "f.geojson")
        var places = 0
        let outcome = Result { () throws in
            try GeoJSONReader(defaultKind: "pharmacy").stream(&source, file: "f.geojson", featuresPerPiece: 1) {
                places += $0.places.count
            }
        }
        let writtenAtError = pipe.bytesWritten
        pipe.drainAndClose()
        guard case .failure(let failure) = outcome, let error = failure as? PlacesError else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(error.description.contains("feature 1 is longer than 16 MiB"), "\(error)")
        #expect(places == 1)
        #expect(
            writtenAtError < GeoJSONReader.longestStreamedValueBytes + (8 << 20), "read \(writtenAtError) bytes")
    }

    /// Every prefix of a document, read from a file (whose last read gives no bytes), is refused
    /// with a message, as the whole read refuses it; none is taken but the whole document.
    @Test func everyCutOfAFileIsRefused() throws {
        let feature = "{\"type\":\"Feature\",\"id\":\"a\\\"b\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
        let text =
            "{\"type\":\"FeatureCollection\",\"features\":[\(feature), \(feature.replacingOccurrences(of: "a", with: "c"))] }"
        let bytes = Array(text.utf8)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for length in 0...bytes.count {
            let path = directory.path + "/cut.geojson"
            try Data(bytes[0..<length]).write(to: URL(fileURLWithPath: path))
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            var source = PlaceByteSource(descriptor: descriptor, name: "f.geojson")
            let outcome = Result { () throws in
                try GeoJSONReader(defaultKind: "pharmacy").stream(&source, file: "f.geojson", readBytes: 5) { _ in }
            }
            let whole = Self.whole(String(decoding: bytes[0..<length], as: UTF8.self))
            switch (outcome, whole) {
            case (.success, .success): #expect(length == bytes.count, "a cut at \(length) was taken")
            case (.failure, .failure): break
            default: Issue.record("cut at \(length): streamed \(outcome), whole \(whole)")
            }
        }
    }

    /// Trailing commas are taken, as `JSONSerialization` (the whole read) takes them.
    @Test func trailingCommasAreTakenAsTheWholeReadTakesThem() {
        let feature = "{\"type\":\"Feature\",\"id\":\"a\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
        for text in [
            "{\"type\":\"FeatureCollection\",\"features\":[\(feature), ]}",
            "{\"type\":\"FeatureCollection\",\"features\":[\(feature)],}",
            "{\"features\":[\(feature)] , \"type\":\"FeatureCollection\" ,}",
        ] {
            guard case .success(let file) = Self.whole(text) else {
                Issue.record("the whole read refuses \(text)")
                continue
            }
            let (result, _) = Self.streamed(text, readBytes: 3)
            #expect((try? result.get())?.places == file.places, "\(text)")
        }
    }

    /// Trailing commas inside a feature do not cost the whole read its attributes' document order
    /// (`JSONKeyOrder` takes them as `JSONSerialization` does).
    @Test func trailingCommasKeepTheAttributesInDocumentOrder() throws {
        let feature =
            "{\"type\":\"Feature\",\"id\":\"a\",\"extra\":{\"x\":[1,],},\"properties\":{\"zone\":\"z\",\"area\":\"12\",\"mid\":\"m\",},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2,]},}"
        let text =
            "{\"type\":\"FeatureCollection\",\"features\":[\(feature),\(feature.replacingOccurrences(of: "\"a\"", with: "\"b\""))\n,],}"
        guard case .success(let file) = Self.whole(text) else {
            Issue.record("the whole read refuses \(text)")
            return
        }
        #expect(file.places.map(\.attributeNames) == [["zone", "area", "mid"], ["zone", "area", "mid"]])
        let (result, _) = Self.streamed(text, readBytes: 7)
        #expect(try result.get().places == file.places)
    }

    /// A piece ends once its features' bytes pass `pieceBytes`, whatever their number.
    @Test func piecesAreCutByBytesToo() {
        let features = (0..<10).map { index in
            "{\"type\":\"Feature\",\"id\":\"f\(index)\",\"properties\":{\"note\":\"\(String(repeating: "n", count: 200))\"},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
        }
        let text = "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
        var source = PlaceByteSource(bytes: Array(text.utf8), name: "f.geojson")
        var sizes: [Int] = []
        #expect(throws: Never.self) {
            try GeoJSONReader(defaultKind: "pharmacy").stream(&source, file: "f.geojson", pieceBytes: 500) {
                sizes.append($0.places.count)
            }
        }
        #expect(sizes == [2, 2, 2, 2, 2])
    }

    /// The collection's other members count against the limit too.
    @Test func longOtherMembersAreRefused() {
        let long = String(repeating: "x", count: GeoJSONReader.longestStreamedValueBytes)
        let text = "{\"type\":\"FeatureCollection\",\"name\":\"\(long)\",\"features\":[]}"
        let (result, _) = Self.streamed(text, readBytes: 1 << 20)
        #expect(
            result.failure?.description.contains("the members other than \"features\" are longer than 16 MiB") == true)
    }

    /// `PlaceLoader.stream` reads GeoJSON this way: a byte order mark and the format found from
    /// the first bytes.
    @Test func theLoaderStreamsGeoJSON() throws {
        let text =
            "\u{FEFF}{\"type\":\"FeatureCollection\",\"features\":["
            + (0..<5).map {
                "{\"type\":\"Feature\",\"id\":\($0),\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
            }
            .joined(separator: ",") + "]}"
        var source = PlaceByteSource(bytes: Array(text.utf8), name: "-")
        var ids: [String] = []
        try PlaceLoader.stream(&source, defaultKind: "pharmacy") { ids += $0.places.map(\.id) }
        #expect(ids == ["0", "1", "2", "3", "4"])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
