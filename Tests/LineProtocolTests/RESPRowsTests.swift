import Geo
import LineProtocol
import NIOCore
import Testing

/// `RESPReply.rows`: written byte for byte as the nested arrays it stands for, in every format.
@Suite struct RESPRowsTests {
    private static func encoded(_ reply: RESPReply, _ format: RESPReplyEncoder.Format) -> [UInt8] {
        var out = ByteBuffer()
        RESPReplyEncoder.write(reply, format: format, to: &out)
        return Array(out.readableBytesView)
    }

    @Test(arguments: [false, true])
    func aGeoSearchReplyAsRedisWritesIt(numbersAsBulkStrings: Bool) {
        var rows = RESPRows(
            columns: [.text, .text, .integer, .numberPair], numbersAsBulkStrings: numbersAsBulkStrings)
        #expect(rows.numbersAsBulkStrings == numbersAsBulkStrings)
        rows.appendText("610009")
        rows.appendText("70.7337")
        rows.appendValue(capacity: 20) { out in
            for (index, byte) in "3508852163369827".utf8.enumerated() { out[index] = byte }
            return 16
        }
        rows.appendText("28.90531629323959351")
        rows.appendText("41.30750286951909089")
        let resp2 =
            "*1\r\n*4\r\n$6\r\n610009\r\n$7\r\n70.7337\r\n:3508852163369827\r\n*2\r\n$20\r\n28.90531629323959351\r\n"
            + "$20\r\n41.30750286951909089\r\n"
        let resp3 =
            "*1\r\n*4\r\n$6\r\n610009\r\n$7\r\n70.7337\r\n:3508852163369827\r\n*2\r\n,28.90531629323959351\r\n"
            + ",41.30750286951909089\r\n"
        #expect(Self.encoded(.rows(rows), .resp2) == Array(resp2.utf8))
        #expect(Self.encoded(.rows(rows), .resp3) == Array(resp3.utf8))
        #expect(
            String(decoding: Self.encoded(.rows(rows), .json), as: UTF8.self)
                == #"{"ok":true,"result":[["610009","70.7337",3508852163369827,[28.90531629323959351,41.30750286951909089]]]}"#
                + "\n")
        #expect(
            RESPReply.rows(rows)
                == .array([
                    .array([
                        .bulkText("610009"), .bulkText("70.7337"), .integer(3_508_852_163_369_827),
                        .array([.doubleText("28.90531629323959351"), .doubleText("41.30750286951909089")]),
                    ])
                ]))
    }

    @Test func oneTextColumnIsAFlatArray() {
        var rows = RESPRows(columns: [.text])
        for member in ["a", "Zürich", ""] { rows.appendText(member) }
        #expect(Self.encoded(.rows(rows), .resp2) == Array("*3\r\n$1\r\na\r\n$7\r\nZürich\r\n$0\r\n\r\n".utf8))
        #expect(RESPReply.rows(rows) == .array([.bulkText("a"), .bulkText("Zürich"), .bulkText("")]))
        #expect(Self.encoded(.rows(RESPRows(columns: [.text])), .resp3) == Array("*0\r\n".utf8))
    }

    /// Rows without numbers are kept framed; a value written short of its room, a value refused
    /// and a row left incomplete leave no trace in what is written.
    @Test func framedRowsWriteOnlyCompleteRows() {
        var rows = RESPRows(columns: [.textPair, .integer])
        rows.appendText("a")
        rows.appendValue(capacity: 200) { out in
            for (index, byte) in "Zürich".utf8.enumerated() { out[index] = byte }
            return 7
        }
        #expect(!rows.appendIfWritten(capacity: 5) { _ in nil })
        rows.appendValue(capacity: 3) { out in
            out[0] = UInt8(ascii: "-")
            out[1] = UInt8(ascii: "7")
            return 2
        }
        rows.appendText("left")
        let expected = "*1\r\n*2\r\n*2\r\n$1\r\na\r\n$7\r\nZürich\r\n:-7\r\n"
        #expect(Self.encoded(.rows(rows), .resp2) == Array(expected.utf8))
        #expect(Self.encoded(.rows(rows), .resp3) == Array(expected.utf8))
        #expect(
            RESPReply.rows(rows) == .array([.array([.array([.bulkText("a"), .bulkText("Zürich")]), .integer(-7)])]))
        var long = RESPRows(columns: [.text])
        let text = String(repeating: "x", count: 70_000)
        long.appendText(text)
        #expect(Self.encoded(.rows(long), .resp2) == Array("*1\r\n$70000\r\n\(text)\r\n".utf8))
    }

    /// Texts appended in a run are the values appended one by one, after them and before more,
    /// and a copy made before the run keeps its own bytes.
    @Test func textsInARun() {
        var rows = RESPRows(columns: [.text])
        rows.appendText("first")
        let copy = rows
        let texts = ["a", "", "Zürich", String(repeating: "y", count: 5_000)] + (0..<300).map { "member\($0)" }
        rows.appendTexts { append in
            for text in texts {
                var text = text
                text.withUTF8 { append($0) }
            }
        }
        rows.appendText("last")
        #expect(rows.count == texts.count + 2)
        #expect(RESPReply.rows(rows) == .array((["first"] + texts + ["last"]).map(RESPReply.bulkText)))
        #expect(RESPReply.rows(copy) == .array([.bulkText("first")]))
        var expected = "*\(texts.count + 2)\r\n"
        for text in ["first"] + texts + ["last"] { expected += "$\(text.utf8.count)\r\n\(text)\r\n" }
        #expect(Self.encoded(.rows(rows), .resp3) == Array(expected.utf8))
    }

    /// Pairs appended in a run are the same bytes as their values appended one by one, after
    /// rows and before more, whatever the lengths (headers of one, two and more digits, a second
    /// value of none to 99 bytes); a copy made before the run keeps its own bytes.
    @Test func textPairsInARun() {
        var random = SplitMix64(seed: 2026)
        let firsts =
            [
                "a", "", "Zürich", String(repeating: "y", count: 5_000), String(repeating: "z", count: 10),
                String(repeating: "x", count: 99),
            ] + (0..<300).map { "member\($0)" }
        let lengths = [0, 1, 9, 10, 11, 99]
        let seconds = firsts.indices.map { index in
            String(repeating: "7", count: index < lengths.count ? lengths[index] : Int(random.next() % 100))
        }
        func pair(_ rows: inout RESPRows, _ first: String, _ second: String) {
            rows.appendText(first)
            rows.appendText(second)
        }
        var pairs = RESPRows(columns: [.text, .text])
        var oneByOne = RESPRows(columns: [.text, .text])
        pair(&pairs, "first", "1.5")
        pair(&oneByOne, "first", "1.5")
        let copy = pairs
        // A second holder of the same storage appends in a run after this one.
        var other = copy
        pairs.appendTextPairs { writer in
            for (first, second) in zip(firsts, seconds) {
                var first = first
                var second = second
                first.withUTF8 { first in
                    second.withUTF8 { second in
                        writer.append(first, secondCapacity: 99) { out in
                            if let base = second.baseAddress { out.update(from: base, count: second.count) }
                            return second.count
                        }
                    }
                }
            }
        }
        other.appendTextPairs { writer in
            var text = "other"
            text.withUTF8 { bytes in
                writer.append(bytes, secondCapacity: 5) { out in
                    out.update(from: bytes.baseAddress!, count: bytes.count)
                    return bytes.count
                }
            }
        }
        for (first, second) in zip(firsts, seconds) { pair(&oneByOne, first, second) }
        pair(&pairs, "last", "")
        pair(&oneByOne, "last", "")
        #expect(pairs.count == firsts.count + 2)
        let expected = [("first", "1.5")] + Array(zip(firsts, seconds)) + [("last", "")]
        #expect(
            RESPReply.rows(pairs) == .array(expected.map { RESPReply.array([.bulkText($0.0), .bulkText($0.1)]) }))
        #expect(RESPReply.rows(copy) == .array([.array([.bulkText("first"), .bulkText("1.5")])]))
        #expect(
            RESPReply.rows(other)
                == .array([
                    .array([.bulkText("first"), .bulkText("1.5")]), .array([.bulkText("other"), .bulkText("other")]),
                ]))
        for format in [RESPReplyEncoder.Format.resp2, .resp3] {
            #expect(Self.encoded(.rows(pairs), format) == Self.encoded(.rows(oneByOne), format))
        }
    }

    /// A copy keeps its own bytes when either is appended to afterwards, framed or not.
    @Test func copiesAreValues() {
        for (columns, bulk) in [([RESPRows.Column.text], false), ([.text, .number], false), ([.text, .number], true)] {
            var first = RESPRows(columns: columns, numbersAsBulkStrings: bulk)
            for _ in columns { first.appendText("shared") }
            var second = first
            for _ in columns { first.appendText("first") }
            for _ in columns { second.appendText("second") }
            let row = { (text: String) -> RESPReply in
                columns.count == 1 ? .bulkText(text) : .array([.bulkText(text), .doubleText(text)])
            }
            #expect(RESPReply.rows(first) == .array([row("shared"), row("first")]))
            #expect(RESPReply.rows(second) == .array([row("shared"), row("second")]))
        }
    }

    /// Random tables of every column kind, inside arrays too: the same bytes as their expansion.
    @Test func randomRowsWriteAsTheirExpansion() {
        var random = SplitMix64(seed: 99)
        let kinds: [RESPRows.Column] = [.text, .number, .integer, .numberPair, .textPair]
        func word() -> String {
            // Lengths of one, two and three digits.
            let length = Int(random.next() % 8 == 0 ? 100 + random.next() % 200 : random.next() % 30)
            return String((0..<length).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 90))) })
        }
        for _ in 0..<300 {
            let columns = (0..<Int(random.next() % 5 + 1)).map { _ in kinds[Int(random.next() % 5)] }
            // Numbers framed for RESP2 at once, or bare: the same bytes in every format.
            var rows = RESPRows(columns: columns, numbersAsBulkStrings: random.next() % 2 == 0)
            rows.reserveCapacity(rows: 4, bytes: 16)
            // Each value appended one of the three ways, at random.
            func append(_ text: String) {
                switch random.next() % 3 {
                case 0: rows.appendText(text)
                case 1:
                    var text = text
                    text.withUTF8 { rows.appendBytes($0) }
                default:
                    let bytes = Array(text.utf8)
                    let room = bytes.count + Int(random.next() % 300)
                    rows.appendValue(capacity: room) { out in
                        for (index, byte) in bytes.enumerated() { out[index] = byte }
                        return bytes.count
                    }
                }
            }
            // The rows as the values appended make them, to hold the storage to.
            var expected: [RESPReply] = []
            for _ in 0..<Int(random.next() % 120) {
                var cells: [RESPReply] = []
                for column in columns {
                    switch column {
                    case .integer:
                        let value = Int64(bitPattern: random.next()) >> (random.next() % 64)
                        append(String(value))
                        cells.append(.integer(Int(value)))
                    case .numberPair, .textPair:
                        let (first, second) = (word(), word())
                        append(first)
                        append(second)
                        cells.append(
                            column == .textPair
                                ? .array([.bulkText(first), .bulkText(second)])
                                : .array([.doubleText(first), .doubleText(second)]))
                    case .number:
                        let text = word()
                        append(text)
                        cells.append(.doubleText(text))
                    case .text:
                        let text = word()
                        append(text)
                        cells.append(.bulkText(text))
                    }
                }
                expected.append(columns.count == 1 ? cells[0] : .array(cells))
            }
            #expect(rows.expanded == .array(expected))
            let reply = RESPReply.array([.integer(1), .rows(rows)])
            for format in [RESPReplyEncoder.Format.resp2, .resp3, .json] {
                #expect(Self.encoded(reply, format) == Self.encoded(reply.expanded, format))
            }
            #expect(reply == reply.expanded)
        }
    }
}
