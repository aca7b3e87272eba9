import NIOCore
import Testing

@testable import LineProtocol

/// `sdssplitargs` behaviour, case by case (Redis 7.0 `src/sds.c`).
@Suite struct InlineSplitterTests {
    static let splits: [(line: String, arguments: [String])] = [
        ("PING", ["PING"]),
        ("", []),
        ("   \t  ", []),
        ("  GET   key  ", ["GET", "key"]),
        ("SET a\tb", ["SET", "a", "b"]),
        ("ECHO \"hello world\"", ["ECHO", "hello world"]),
        ("ECHO \"\"", ["ECHO", ""]),
        ("ECHO ''", ["ECHO", ""]),
        ("ECHO \"a\\nb\\rc\\td\\be\\af\"", ["ECHO", "a\nb\rc\td\u{8}e\u{7}f"]),
        ("ECHO \"\\\\ \\\" \\q\"", ["ECHO", "\\ \" q"]),
        ("ECHO \"\\x41\\x6a\\x4\"", ["ECHO", "Ajx4"]),
        ("ECHO 'it\\'s' 'a\\nb'", ["ECHO", "it's", "a\\nb"]),
        ("ECHO a\"b c\"", ["ECHO", "ab c"]),
        ("ECHO \"a\"\u{B}b", ["ECHO", "a", "b"]),
        ("ECHO a\u{B}b", ["ECHO", "a\u{B}b"]),
        ("ECHO a\rb", ["ECHO", "a", "b"]),
        (
            "GEOADD places 13.361389 38.115556 \"Palermo centre\"",
            ["GEOADD", "places", "13.361389", "38.115556", "Palermo centre"]
        ),
    ]

    @Test(arguments: splits)
    func splitsAsRedisDoes(line: String, arguments: [String]) throws {
        let split = try InlineSplitter.split(ByteBuffer(string: line))
        #expect(split.map { String(buffer: $0) } == arguments)
    }

    static let unbalanced = [
        "ECHO \"abc", "ECHO 'abc", "ECHO \"abc\"def", "ECHO 'abc'def", "ECHO \"abc\\\"", "ECHO \"a\\",
    ]

    @Test(arguments: unbalanced)
    func unbalancedQuotesFail(line: String) {
        #expect(throws: LineProtocolError.protocolError("unbalanced quotes in request")) {
            try InlineSplitter.split(ByteBuffer(string: line))
        }
    }

    @Test func hexEscapesMakeAnyByte() throws {
        let split = try InlineSplitter.split(ByteBuffer(string: "ECHO \"\\x00\\xff\\xFe\""))
        #expect(split.last.map { Array($0.readableBytesView) } == [0x00, 0xFF, 0xFE])
    }

    /// Redis stops at NUL (a C string); Vicinity keeps it as an ordinary byte.
    @Test func nulIsAnOrdinaryByte() throws {
        let split = try InlineSplitter.split(ByteBuffer(bytes: Array("ECHO a\0b c".utf8)))
        #expect(split.map { Array($0.readableBytesView) } == [Array("ECHO".utf8), [0x61, 0x00, 0x62], [0x63]])
    }
}
