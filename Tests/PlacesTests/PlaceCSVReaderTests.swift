import Geo
import Testing

@testable import Places

@Suite struct PlaceCSVReaderTests {
    let reader = PlaceCSVReader(defaultKind: "pharmacy")

    private func parse(_ text: String) throws -> PlaceFile {
        try reader.parse(Array(text.utf8), file: "test.csv")
    }

    @Test func readsMinimalFile() throws {
        let file = try parse("id,name,lat,lon\na,Alpha,41.5,29.25\n")
        #expect(file.places.count == 1)
        let place = try #require(file.places.first)
        #expect(place.id == "a")
        #expect(place.name == "Alpha")
        #expect(place.kind == "pharmacy")
        #expect(place.coordinate == (try Coordinate(latitude: 41.5, longitude: 29.25)))
        #expect(place.attributes.isEmpty)
        #expect(file.origins == [SourceLocation(file: "test.csv", position: .line(2))])
    }

    /// Fields must be well-formed UTF-8: a Latin-1 byte, a truncated or overlong sequence, a
    /// surrogate or a code point past U+10FFFF is refused with its line and field; multi-byte
    /// text, quoted or not, is kept as it is.
    @Test func refusesFieldsThatAreNotUTF8AndKeepsThoseThatAre() throws {
        let good = try reader.parse(
            Array("id,name,lat,lon,note\na,Çiçek Eczanesi,1,2,\"日本, \"\"東京\"\"\"\nb,😀,3,4,x\n".utf8),
            file: "t.csv")
        #expect(good.places.map(\.name) == ["Çiçek Eczanesi", "😀"])
        #expect(good.places[0].attributes["note"] == "日本, \"東京\"")
        let bad: [[UInt8]] = [
            [0xE7], [0xC3], [0xE6, 0x97], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF],
        ]
        for bytes in bad {
            for quoted in [false, true] {
                let field =
                    quoted ? [UInt8(ascii: "\"")] + bytes + Array("\"\"x\"".utf8) : Array("Eczane ".utf8) + bytes
                let text = Array("id,name,lat,lon\na,A,1,2\nb,".utf8) + field + Array(",3,4\n".utf8)
                #expect(throws: PlacesError.invalidUTF8(SourceLocation(file: "t.csv", position: .line(3)), field: 2)) {
                    try reader.parse(text, file: "t.csv")
                }
            }
        }
    }

    /// `CSVScanner.validatedText` answers as the standard library's validating initializer does,
    /// on random bytes and on UTF-8 text with random damage.
    @Test func validatedTextAgreesWithTheStandardLibrary() {
        var random = SplitMix64(seed: 11)
        let samples = Array("aÇ日😀\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}".utf8)
        for round in 0..<50_000 {
            let count = Int(random.next() % 24)
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = (0..<count).map { _ in samples[Int(random.next() % UInt64(samples.count))] }
                if !bytes.isEmpty, random.next() % 2 == 0 {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            let ours = bytes.withUnsafeBufferPointer(CSVScanner.validatedText)
            let standard = String(validating: bytes, as: UTF8.self)
            #expect(ours == standard, "\(bytes)")
            if ours != standard { return }
        }
    }

    @Test func unquotesFieldsWithCommasDoubledQuotesAndLineBreaks() throws {
        let text = """
            id,name,lat,lon,address
            a,"Smith, ""The"" Chemist",1,2,"185 Lower Clapton Road,
            London"
            b,"",3,4,""

            """
        let file = try parse(text)
        #expect(file.places.map(\.name) == ["Smith, \"The\" Chemist", ""])
        #expect(file.places[0].attributes["address"] == "185 Lower Clapton Road,\nLondon")
        #expect(file.places[1].attributes["address"] == "")
        // A record spanning two lines is located where it starts; the next one after both lines.
        #expect(file.origins.map(\.position) == [.line(2), .line(4)])
    }

    @Test func acceptsCRLFAndByteOrderMarkAndNoFinalLineBreak() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("id,name,lat,lon\r\na,A,1,2\r\nb,\"B\r\nC\",3,4".utf8)
        let file = try reader.parse(bytes, file: "crlf.csv")
        #expect(file.places.map(\.id) == ["a", "b"])
        #expect(file.places[1].name == "B\r\nC")
        #expect(file.places[1].coordinate.longitude == 4)
    }

    @Test func skipsBlankLinesAndCountsThem() throws {
        let file = try parse("\nid,name,lat,lon\n\na,A,1,2\r\n\r\n\nb,B,3,4\n\n")
        #expect(file.places.map(\.id) == ["a", "b"])
        #expect(file.origins.map(\.position) == [.line(4), .line(7)])
    }

    @Test func keepsExtraColumnsInHeaderOrder() throws {
        let file = try parse("lon,zeta,lat,name,alpha,id\n2,z,1,A,x,a\n")
        let place = try #require(file.places.first)
        #expect(place.coordinate == (try Coordinate(latitude: 1, longitude: 2)))
        #expect(place.attributeNames == ["zeta", "alpha"])
        #expect(place.orderedAttributes.map(\.value) == ["z", "x"])
    }

    @Test func kindColumnOverridesDefaultUnlessEmpty() throws {
        let file = try parse("id,name,lat,lon,kind\na,A,1,2,user\nb,B,1,2,\n")
        #expect(file.places.map(\.kind) == ["user", "pharmacy"])
        #expect(file.places[0].attributes["kind"] == nil)
    }

    @Test func sameIDWithDifferentKindsIsAllowed() throws {
        let file = try parse("id,name,lat,lon,kind\na,A,1,2,user\na,A,1,2,pharmacy\n")
        #expect(file.places.count == 2)
    }

    @Test(arguments: [
        ("12", 12.0), (" 12 ", 12), ("\t-0.5", -0.5), ("+7", 7), (".5", 0.5), ("5.", 5), ("1e1", 10),
        ("-9E-1", -0.9), ("90", 90), ("-90", -90), ("-0", 0),
    ])
    func acceptsDecimalLatitudes(text: String, value: Double) throws {
        let file = try parse("id,name,lat,lon\na,A,\(text),0\n")
        #expect(file.places.first?.coordinate.latitude == value)
    }

    @Test func quotedNumbersAreNumbers() throws {
        let file = try parse("id,name,lat,lon\na,A,\"41.5\",\"-180\"\n")
        #expect(file.places.first?.coordinate == (try Coordinate(latitude: 41.5, longitude: -180)))
    }

    @Test func quoteInsideUnquotedFieldIsData() throws {
        let file = try parse("id,name,lat,lon\na,5\" screen,1,2\n")
        #expect(file.places.first?.name == "5\" screen")
    }

    @Test func trailingCommaMakesAnEmptyLastField() throws {
        let file = try parse("id,name,lat,lon,note\na,A,1,2,\n")
        #expect(file.places.first?.attributes["note"] == "")
    }

    @Test func headerOnlyGivesNoPlaces() throws {
        #expect(try parse("id,name,lat,lon\n").places.isEmpty)
    }

    @Test func placesOfOneFileShareAttributeNames() throws {
        let file = try parse("id,name,lat,lon,city\na,A,1,2,X\nb,B,3,4,Y\n")
        #expect(file.places[0].attributeNames == ["city"])
        #expect(file.places[1].attributeNames == file.places[0].attributeNames)
    }
}

/// Large files are read in two halves at once; the result must be exactly a single pass's.
@Suite struct PlaceCSVReaderHalvesTests {
    static func rows(_ count: Int, special: [Int: String] = [:]) -> [UInt8] {
        var text = "id,name,lat,lon,note\n"
        for number in 0..<count {
            text += special[number] ?? "p\(number),Name \(number),\(Double(number % 90)),\(Double(number % 180)),n\n"
        }
        return Array(text.utf8)
    }

    func bothWays(_ bytes: [UInt8]) -> (Result<PlaceFile, PlacesError>, Result<PlaceFile, PlacesError>) {
        var halves = PlaceCSVReader(defaultKind: "pharmacy")
        halves.parallelThreshold = 0
        var single = PlaceCSVReader(defaultKind: "pharmacy")
        single.parallelThreshold = .max
        return (
            Result { () throws(PlacesError) in try halves.parse(bytes, file: "f.csv") },
            Result { () throws(PlacesError) in try single.parse(bytes, file: "f.csv") }
        )
    }

    func expectSame(_ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        switch bothWays(bytes) {
        case (.success(let a), .success(let b)):
            #expect(a.places == b.places, sourceLocation: sourceLocation)
            #expect(a.origins == b.origins, sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
        case (let a, let b):
            Issue.record("halves \(a) but one pass \(b)", sourceLocation: sourceLocation)
        }
    }

    @Test func plainRowsSplitCleanly() {
        expectSame(Self.rows(20_000))
    }

    @Test func aQuotedLineBreakAcrossTheMiddle() {
        // Every row holds a quoted field with line breaks, so the middle falls inside one.
        var text = "id,name,lat,lon,note\n"
        for number in 0..<5_000 { text += "p\(number),N,1,2,\"line one\nline two\n\nline four\"\n" }
        expectSame(Array(text.utf8))
    }

    @Test func anIdRepeatedAcrossTheHalves() {
        expectSame(Self.rows(20_000, special: [19_000: "p5,Again,1,1,n\n"]))
    }

    @Test func anErrorInTheSecondHalfIsTheOnePassError() {
        expectSame(Self.rows(20_000, special: [15_000: "x,X,95,1,n\n"]))
        expectSame(Self.rows(20_000, special: [15_000: "x,X,\"1\"5,1,n\n"]))
    }

    @Test func carriageReturnsAndBlankLines() {
        var text = "id,name,lat,lon\r\n"
        for number in 0..<10_000 { text += "p\(number),N\r,1,2\r\n" + (number % 7 == 0 ? "\r\n\n" : "") }
        expectSame(Array(text.utf8))
    }
}
