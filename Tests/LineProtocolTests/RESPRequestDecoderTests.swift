import LineProtocol
import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing

@Suite struct RESPRequestDecoderTests {
    /// Fed whole, byte by byte (each byte in its own buffer) and all at once with the others, each input
    /// gives exactly its requests: the check `ByteToMessageDecoderVerifier` makes.
    static let respPairs: [(String, [Request])] = [
        ("*1\r\n$4\r\nPING\r\n", [Request(["PING"])]),
        ("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n", [Request(["SET", "key", "value"])]),
        ("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n", [Request(["ECHO", ""])]),
        ("*2\r\n$4\r\nECHO\r\n$6\r\n\r\n*1\r\n\r\n", [Request(["ECHO", "\r\n*1\r\n"])]),
        ("*0\r\n*-1\r\n*1\r\n$4\r\nQUIT\r\n", [Request(["QUIT"])]),
        ("*-7\r\n", []),
        (
            "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*2\r\n$3\r\nGET\r\n$1\r\nl\r\n",
            [Request(["GET", "k"]), Request(["GET", "l"])]
        ),
    ]

    static let inlinePairs: [(String, [Request])] = [
        ("PING\r\n", [Request(["PING"], isInline: true)]),
        ("PING\n", [Request(["PING"], isInline: true)]),
        ("\r\n", []),
        ("  \t \n", []),
        (
            "GEOADD places 13.36 38.11 \"Palermo centre\"\r\n",
            [Request(["GEOADD", "places", "13.36", "38.11", "Palermo centre"], isInline: true)]
        ),
        (
            "SET k 'it\\'s'\n\nGET k\r\n",
            [Request(["SET", "k", "it's"], isInline: true), Request(["GET", "k"], isInline: true)]
        ),
        ("ECHO \"\\x41\\r\\n\"\r\n", [Request(["ECHO", "A\r\n"], isInline: true)]),
    ]

    static let mixedPairs: [(String, [Request])] = [
        (
            "PING\r\n*1\r\n$4\r\nPING\r\nECHO hi\n",
            [Request(["PING"], isInline: true), Request(["PING"]), Request(["ECHO", "hi"], isInline: true)]
        ),
        (
            "*2\r\n$4\r\nECHO\r\n$1\r\n*\r\n\nGET *\r\n",
            [Request(["ECHO", "*"]), Request(["GET", "*"], isInline: true)]
        ),
    ]

    private static func verify(_ pairs: [(String, [Request])]) throws {
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: pairs.map { (ByteBuffer(string: $0.0), $0.1) }, decoderFactory: { RESPRequestDecoder() })
    }

    @Test func respRequestsWholeByteByByteAndPipelined() throws { try Self.verify(Self.respPairs) }

    @Test func inlineRequestsWholeByteByByteAndPipelined() throws { try Self.verify(Self.inlinePairs) }

    @Test func respAndInlineMixedInOneStream() throws {
        try Self.verify(Self.respPairs + Self.inlinePairs + Self.mixedPairs)
    }

    @Test func binaryArgumentsComeThroughUnchanged() throws {
        let bytes: [UInt8] = [0x00, 0xFF, 0x0D, 0x0A, 0x2A]
        var input = ByteBuffer(string: "*2\r\n$4\r\nECHO\r\n$5\r\n")
        input.writeBytes(bytes + [0x0D, 0x0A])
        let expected = Request(arguments: [ByteBuffer(string: "ECHO"), ByteBuffer(bytes: bytes)], isInline: false)
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: [(input, [expected])], decoderFactory: { RESPRequestDecoder() })
    }

    @Test func pipelinedRequestsInOneReadComeOutInOrder() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder()))
        try channel.writeInbound(ByteBuffer(string: "PING\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\nQUIT\r\n"))
        #expect(try channel.readInbound(as: Request.self) == Request(["PING"], isInline: true))
        #expect(try channel.readInbound(as: Request.self) == Request(["GET", "k"]))
        #expect(try channel.readInbound(as: Request.self) == Request(["QUIT"], isInline: true))
        #expect(try channel.readInbound(as: Request.self) == nil)
        #expect(try channel.finish().isClean)
    }

    @Test func requestsBeforeAnErrorAreDeliveredThenTheErrorIsThrown() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder()))
        #expect(throws: LineProtocolError.protocolError("invalid multibulk length")) {
            try channel.writeInbound(ByteBuffer(string: "PING\r\n*x\r\nPING\r\n"))
        }
        #expect(try channel.readInbound(as: Request.self) == Request(["PING"], isInline: true))
        #expect(try channel.readInbound(as: Request.self) == nil)
        _ = try? channel.finish()
    }

    @Test func aRequestCutShortByTheClientHangingUpIsDropped() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder()))
        try channel.writeInbound(ByteBuffer(string: "*2\r\n$3\r\nGET\r\n$1"))
        #expect(try channel.readInbound(as: Request.self) == nil)
        #expect(try channel.finish().isClean)
    }

    /// Redis skips the two bytes after an argument and the byte after a count line's `\r` unchecked.
    @Test func bytesAfterAnArgumentAreSkippedUncheckedAsRedisDoes() {
        let outcome = DecoderDriver.decode("*1\r?$4\r\nPINGxy*1\r\n$4\r\nPING\r\n")
        #expect(outcome == DecodeOutcome(requests: [Request(["PING"]), Request(["PING"])]))
    }

    @Test func isCommandIgnoresCase() {
        #expect(Request(["geoAdd", "places"]).isCommand("GEOADD"))
        #expect(!Request(["GEOADDX"]).isCommand("GEOADD"))
        #expect(!Request(arguments: [], isInline: false).isCommand("GEOADD"))
    }

    // MARK: Errors

    /// Inputs and Redis 7.0's reply reason for each (`src/networking.c`).
    static let errors: [(input: String, reason: String)] = [
        ("*abc\r\n", "invalid multibulk length"),
        ("*\r\n", "invalid multibulk length"),
        ("*01\r\n", "invalid multibulk length"),
        ("*+1\r\n", "invalid multibulk length"),
        ("* 1\r\n", "invalid multibulk length"),
        ("*-0\r\n", "invalid multibulk length"),
        ("*2147483648\r\n", "invalid multibulk length"),
        ("*99999999999999999999\r\n", "invalid multibulk length"),
        ("*1\r\n$abc\r\n", "invalid bulk length"),
        ("*1\r\n$\r\n", "invalid bulk length"),
        ("*1\r\n$-1\r\n", "invalid bulk length"),
        ("*1\r\n$03\r\n", "invalid bulk length"),
        ("*1\r\n$536870913\r\n", "invalid bulk length"),
        ("*1\r\nx", "expected '$', got 'x'"),
        ("*1\r\n:1\r\n", "expected '$', got ':'"),
        ("*1\r\n\r\n", "expected '$', got '\\x0d'"),
        ("*2\r\n$3\r\nGET\r\n\u{7F}", "expected '$', got '\\x7f'"),
        ("ECHO \"abc\r\n", "unbalanced quotes in request"),
        ("ECHO 'abc'def\n", "unbalanced quotes in request"),
        ("*" + String(repeating: "1", count: 65_536), "too big mbulk count string"),
        ("*1\r\n$" + String(repeating: "1", count: 65_536), "too big bulk count string"),
        (String(repeating: "a", count: 65_537), "too big inline request"),
    ]

    @Test(arguments: errors)
    func malformedInputFailsWithRedisReason(input: String, reason: String) {
        #expect(DecoderDriver.decode(input).error == .protocolError(reason))
    }

    @Test(arguments: errors)
    func malformedInputFailsTheSameByteByByte(input: String, reason: String) {
        let outcome = DecoderDriver.decode(Array(input.utf8), nextReadSize: { _ in 1 })
        #expect(outcome.error == .protocolError(reason))
    }

    @Test func theErrorReachesThePipeline() {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder()))
        #expect(throws: LineProtocolError.protocolError("expected '$', got 'G'")) {
            try channel.writeInbound(ByteBuffer(string: "*1\r\nGET\r\n"))
        }
        _ = try? channel.finish()
    }
}
