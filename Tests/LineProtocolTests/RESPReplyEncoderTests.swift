import LineProtocol
import NIOCore
import NIOEmbedded
import Testing

@Suite struct RESPReplyEncoderTests {
    /// Every reply type as RESP2, RESP3 and a JSON line.
    static let replies: [(reply: RESPReply, resp2: String, resp3: String, json: String)] = [
        (.ok, "+OK\r\n", "+OK\r\n", #"{"ok":true,"result":"OK"}"#),
        (.simpleString("a\r\nb"), "+a  b\r\n", "+a  b\r\n", #"{"ok":true,"result":"a\r\nb"}"#),
        (
            .error("ERR unknown command 'FOO'"), "-ERR unknown command 'FOO'\r\n", "-ERR unknown command 'FOO'\r\n",
            #"{"ok":false,"err":"ERR unknown command 'FOO'"}"#
        ),
        (.error("ERR a\nb"), "-ERR a b\r\n", "-ERR a b\r\n", #"{"ok":false,"err":"ERR a\nb"}"#),
        (.integer(42), ":42\r\n", ":42\r\n", #"{"ok":true,"result":42}"#),
        (.integer(-7), ":-7\r\n", ":-7\r\n", #"{"ok":true,"result":-7}"#),
        (.bulkString("hello"), "$5\r\nhello\r\n", "$5\r\nhello\r\n", #"{"ok":true,"result":"hello"}"#),
        (.bulkString(""), "$0\r\n\r\n", "$0\r\n\r\n", #"{"ok":true,"result":""}"#),
        (.bulkString("Zürich"), "$7\r\nZürich\r\n", "$7\r\nZürich\r\n", #"{"ok":true,"result":"Zürich"}"#),
        (
            .bulkString("q\"b\\\u{1}\t"), "$6\r\nq\"b\\\u{1}\t\r\n", "$6\r\nq\"b\\\u{1}\t\r\n",
            #"{"ok":true,"result":"q\"b\\\u0001\t"}"#
        ),
        (.nullBulk, "$-1\r\n", "_\r\n", #"{"ok":true,"result":null}"#),
        (.nullArray, "*-1\r\n", "_\r\n", #"{"ok":true,"result":null}"#),
        (.null, "$-1\r\n", "_\r\n", #"{"ok":true,"result":null}"#),
        (.array([]), "*0\r\n", "*0\r\n", #"{"ok":true,"result":[]}"#),
        (
            .array([.integer(1), .bulkString("a"), .array([.nullBulk]), .error("ERR inner")]),
            "*4\r\n:1\r\n$1\r\na\r\n*1\r\n$-1\r\n-ERR inner\r\n", "*4\r\n:1\r\n$1\r\na\r\n*1\r\n_\r\n-ERR inner\r\n",
            #"{"ok":true,"result":[1,"a",[null],{"err":"ERR inner"}]}"#
        ),
        (
            .map(["server": .bulkString("vicinity"), "proto": .integer(3)]),
            "*4\r\n$6\r\nserver\r\n$8\r\nvicinity\r\n$5\r\nproto\r\n:3\r\n",
            "%2\r\n$6\r\nserver\r\n$8\r\nvicinity\r\n$5\r\nproto\r\n:3\r\n",
            #"{"ok":true,"result":{"server":"vicinity","proto":3}}"#
        ),
        (
            .map([RESPReply.MapEntry(key: .integer(1), value: .simpleString("one"))]),
            "*2\r\n:1\r\n+one\r\n", "%1\r\n:1\r\n+one\r\n", #"{"ok":true,"result":[[1,"one"]]}"#
        ),
        (.map([]), "*0\r\n", "%0\r\n", #"{"ok":true,"result":{}}"#),
        (.double(3), "$1\r\n3\r\n", ",3\r\n", #"{"ok":true,"result":3}"#),
        (.double(0.1), "$3\r\n0.1\r\n", ",0.1\r\n", #"{"ok":true,"result":0.1}"#),
        (.double(-1.5e-7), "$8\r\n-1.5e-07\r\n", ",-1.5e-07\r\n", #"{"ok":true,"result":-1.5e-07}"#),
        (.double(1e20), "$5\r\n1e+20\r\n", ",1e+20\r\n", #"{"ok":true,"result":1e+20}"#),
        (.double(.infinity), "$3\r\ninf\r\n", ",inf\r\n", #"{"ok":true,"result":"inf"}"#),
        (.double(-.infinity), "$4\r\n-inf\r\n", ",-inf\r\n", #"{"ok":true,"result":"-inf"}"#),
        (.double(.nan), "$3\r\nnan\r\n", ",nan\r\n", #"{"ok":true,"result":"nan"}"#),
        (.boolean(true), ":1\r\n", "#t\r\n", #"{"ok":true,"result":true}"#),
        (.boolean(false), ":0\r\n", "#f\r\n", #"{"ok":true,"result":false}"#),
        (
            .verbatim(.text, ByteBuffer(string: "Some string")), "$11\r\nSome string\r\n", "=15\r\ntxt:Some string\r\n",
            #"{"ok":true,"result":"Some string"}"#
        ),
        (
            .verbatim(.markdown, ByteBuffer(string: "*A*")), "$3\r\n*A*\r\n", "=7\r\nmkd:*A*\r\n",
            #"{"ok":true,"result":"*A*"}"#
        ),
    ]

    private static func encoded(_ reply: RESPReply, _ format: RESPReplyEncoder.Format) -> [UInt8] {
        var out = ByteBuffer()
        RESPReplyEncoder.write(reply, format: format, to: &out)
        return Array(out.readableBytesView)
    }

    @Test(arguments: replies)
    func resp2(reply: RESPReply, resp2: String, resp3: String, json: String) {
        #expect(Self.encoded(reply, .resp2) == Array(resp2.utf8))
    }

    @Test(arguments: replies)
    func resp3(reply: RESPReply, resp2: String, resp3: String, json: String) {
        #expect(Self.encoded(reply, .resp3) == Array(resp3.utf8))
    }

    @Test(arguments: replies)
    func jsonLine(reply: RESPReply, resp2: String, resp3: String, json: String) {
        #expect(Self.encoded(reply, .json) == Array((json + "\n").utf8))
    }

    @Test func bytesThatAreNotUTF8GoOutAsTheyAreOrAsBase64() {
        let reply = RESPReply.bulkString(ByteBuffer(bytes: [0xFF, 0x00]))
        #expect(Self.encoded(reply, .resp2) == Array("$2\r\n".utf8) + [0xFF, 0x00, 0x0D, 0x0A])
        #expect(Self.encoded(reply, .resp3) == Array("$2\r\n".utf8) + [0xFF, 0x00, 0x0D, 0x0A])
        #expect(Self.encoded(reply, .json) == Array(#"{"ok":true,"result":{"base64":"/wA="}}"#.utf8) + [0x0A])
    }

    @Test func theConnectionsFormatCanChangeBetweenReplies() throws {
        let encoder = RESPReplyEncoder()
        let channel = EmbeddedChannel(handler: MessageToByteHandler(encoder))
        try channel.writeOutbound(RESPReply.null)
        encoder.format = .resp3
        try channel.writeOutbound(RESPReply.null)
        encoder.format = .json
        try channel.writeOutbound(RESPReply.null)
        let written = try (0..<3).map { _ in try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } }
        #expect(written == ["$-1\r\n", "_\r\n", "{\"ok\":true,\"result\":null}\n"])
        #expect(try channel.finish().isClean)
    }
}
