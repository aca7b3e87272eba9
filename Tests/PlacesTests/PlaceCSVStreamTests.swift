import Foundation
import TestSupport
import Testing

@testable import Places

/// A file read piece by piece must give exactly the places, origins and errors of one pass, for
/// every size of piece (records and quoted line breaks cut anywhere).
@Suite struct PlaceCSVStreamTests {
    static let pieceSizes = [1, 2, 3, 5, 8, 13, 64, 333, 4_096, 1 << 20]

    /// The places, origins and skipped rows of a streamed read, or its error.
    static func streamed(_ bytes: [UInt8], pieceBytes: Int, skipInvalid: Bool = false) -> Result<PlaceFile, PlacesError>
    {
        var source = PlaceByteSource(bytes: bytes, name: "f.csv")
        var places: [Place] = []
        var origins: [Places.SourceLocation] = []
        var skipped: [PlacesError] = []
        do {
            try PlaceCSVReader(defaultKind: "pharmacy", skipInvalid: skipInvalid).stream(
                &source, file: "f.csv", pieceBytes: pieceBytes
            ) { piece in
                places += piece.places
                origins += piece.origins
                skipped += piece.skipped
            }
        } catch let error as PlacesError {
            return .failure(error)
        } catch {
            Issue.record("unexpected \(error)")
        }
        return .success(PlaceFile(path: "f.csv", places: places, origins: origins, skipped: skipped))
    }

    func expectSame(
        _ text: String, skipInvalid: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let bytes = Array(text.utf8)
        let whole = Result { () throws(PlacesError) in
            try PlaceCSVReader(defaultKind: "pharmacy", skipInvalid: skipInvalid).parse(bytes, file: "f.csv")
        }
        for size in Self.pieceSizes {
            switch (whole, Self.streamed(bytes, pieceBytes: size, skipInvalid: skipInvalid)) {
            case (.success(let a), .success(let b)):
                #expect(a.places == b.places, "pieces of \(size)", sourceLocation: sourceLocation)
                #expect(a.origins == b.origins, "pieces of \(size)", sourceLocation: sourceLocation)
                #expect(a.skipped == b.skipped, "pieces of \(size)", sourceLocation: sourceLocation)
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "pieces of \(size)", sourceLocation: sourceLocation)
            case (let a, let b):
                Issue.record("one pass \(a) but pieces of \(size) \(b)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func plainRows() {
        var text = "id,name,lat,lon,note\n"
        for number in 0..<300 { text += "p\(number),Name \(number),\(number % 90),\(number % 180),n\n" }
        expectSame(text)
        expectSame(String(text.dropLast()), skipInvalid: false)
    }

    @Test func quotedLineBreaksCarriageReturnsAndBlankLines() {
        var text = "\u{FEFF}id,name,lat,lon,note\r\n"
        for number in 0..<60 {
            text += "p\(number),\"N \"\"\(number)\"\"\",1,2,\"line one\r\nline two\n\nfour\"\r\n"
            if number % 7 == 0 { text += "\r\n\n" }
            text += "q\(number),N\r,1,2,x\r\n"
        }
        expectSame(text)
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() {
        expectSame("id,name,lat,lon\na,A,1,2\n\u{FEFF}b,B,1,2\n\u{FEFF}c,C,3,4")
    }

    @Test func errorsNameTheSameLine() {
        var rows = ["id,name,lat,lon"]
        for number in 0..<100 { rows.append("p\(number),\"Na\nme\",1,2") }
        for bad in ["x,X,95,1", "x,X,\"1\"5,1", "x,X,1", "x,\"open,1,2", ",E,1,2"] {
            var text = rows
            text.insert(bad, at: 60)
            expectSame(text.joined(separator: "\n") + "\n")
            expectSame(text.joined(separator: "\n") + "\n", skipInvalid: true)
        }
        expectSame("")
        expectSame("\n\n")
        expectSame("id,name,lat")
        expectSame("id,name,lat,lon")
    }

    /// An unterminated quote early in a long file is reported once the open record passes
    /// `longestRecordBytes`: the rest of the file is neither read nor held.
    @Test func aRecordThatNeverEndsStopsTheReadEarly() throws {
        var filler: [UInt8] = []
        while filler.count < 1 << 16 { filler += Array("x,X,1,2\n".utf8) }
        let pipe = FilledPipe(
            head: Array("id,name,lat,lon\na,A,1,2\nb,\"open,1,2\n".utf8), filler: filler,
            total: 3 * PlaceCSVReader.longestRecordBytes)
        var source = PlaceByteSource(descriptor: pipe.readEnd, name: "f.csv")
        var places = 0
        let outcome = Result { () throws in
            try PlaceCSVReader(defaultKind: "pharmacy").stream(&source, file: "f.csv", pieceBytes: 1 << 20) {
                places += $0.places.count
            }
        }
        let writtenAtError = pipe.bytesWritten
        pipe.drainAndClose()
        guard case .failure(let failure) = outcome, let error = failure as? PlacesError,
            case .recordTooLong(let location, _) = error
        else {
            Issue.record("expected a record too long, got \(outcome)")
            return
        }
        #expect(location.description == "f.csv:3")
        #expect(error.description.contains("longer than 16 MiB"))
        #expect(places == 1)
        #expect(writtenAtError < PlaceCSVReader.longestRecordBytes + (8 << 20), "read \(writtenAtError) bytes")
    }

    /// Blank lines before a record cut by a piece's end are not kept with it: a piece of more
    /// than `longestRecordBytes` that is mostly blank lines still reads.
    @Test func blankLinesBeforeACutRecordAreNotKept() throws {
        let pieceBytes = PlaceCSVReader.longestRecordBytes + (4 << 20)
        let header = "id,name,lat,lon\n"
        // The first piece is the header and blank lines; the second starts with blank lines, and
        // its record starts 10 bytes before its end: the quoted name holds a line feed inside the
        // piece and goes on past it.
        let blank = 2 * pieceBytes - 10 - header.utf8.count
        let text = header + String(repeating: "\n", count: blank) + "a,\"open\nstill still\",1,2\n"
        var source = PlaceByteSource(bytes: Array(text.utf8), name: "f.csv")
        var places: [Place] = []
        var origins: [Places.SourceLocation] = []
        try PlaceCSVReader(defaultKind: "pharmacy").stream(&source, file: "f.csv", pieceBytes: pieceBytes) {
            places += $0.places
            origins += $0.origins
        }
        #expect(places.map(\.name) == ["open\nstill still"])
        #expect(origins.map(\.description) == ["f.csv:\(blank + 2)"])
    }
}
