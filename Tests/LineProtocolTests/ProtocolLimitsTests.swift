import LineProtocol
import NIOCore
import NIOEmbedded
import Testing

@Suite struct ProtocolLimitsTests {
    static let line = String(repeating: "a", count: 64 * 1024)

    @Test func defaultsAreDocumented() {
        let limits = ProtocolLimits.default
        #expect(limits.maximumInlineBytes == 65_536)
        #expect(limits.maximumBulkBytes == 1_048_576)
        #expect(limits.maximumArguments == 1_024)
        #expect(limits.maximumRequestBytes == 8_388_608)
    }

    @Test func anInlineLineOfExactlyTheLimitIsAccepted() {
        #expect(DecoderDriver.decode(Self.line + "\r\n").requests == [Request([Self.line], isInline: true)])
        #expect(DecoderDriver.decode(Self.line + "\n").requests == [Request([Self.line], isInline: true)])
        let waiting = DecoderDriver.decode(Self.line + "\r")
        #expect(waiting.requests.isEmpty && waiting.error == nil)
    }

    @Test func anInlineLineOneByteOverTheLimitIsRejected() {
        let tooBig = LineProtocolError.protocolError("too big inline request")
        #expect(DecoderDriver.decode(Self.line + "a\n").error == tooBig)
        #expect(DecoderDriver.decode(Self.line + "a").error == tooBig)
        #expect(DecoderDriver.decode(Self.line + "\ra").error == tooBig)
    }

    /// A 10 MiB line without a newline, sent in 64 KiB reads, fails on the read that takes it past 64 KiB:
    /// the second; the decoder never holds more than the limit and that one read.
    @Test func aTenMebibyteLineIsRejectedAfterTheFirstReadPastTheLimit() throws {
        let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 64 * 1024)
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder()))
        var readsSent = 0
        var failure: Error?
        for _ in 0..<(10 * 1024 * 1024 / chunk.readableBytes) {
            readsSent += 1
            do { try channel.writeInbound(chunk) } catch {
                failure = error
                break
            }
        }
        #expect(readsSent == 2)
        #expect(failure as? LineProtocolError == .protocolError("too big inline request"))
        _ = try? channel.finish()

        var decoder = RESPRequestDecoder()
        var buffer = chunk
        #expect(try decoder.nextRequest(from: &buffer) == nil)
        buffer.writeImmutableBuffer(chunk)
        #expect(throws: LineProtocolError.protocolError("too big inline request")) {
            try decoder.nextRequest(from: &buffer)
        }
        #expect(buffer.readableBytes == 128 * 1024)
    }

    @Test func aBulkOfExactlyTheLimitIsAccepted() {
        let value = String(repeating: "v", count: 1_048_576)
        let outcome = DecoderDriver.decode("*2\r\n$4\r\nECHO\r\n$1048576\r\n\(value)\r\n")
        #expect(outcome.requests == [Request(["ECHO", value])])
    }

    /// The length is checked when announced: nothing of the argument is awaited or buffered.
    @Test func aBulkOverTheLimitFailsBeforeItsBytesArrive() {
        #expect(DecoderDriver.decode("*2\r\n$4\r\nECHO\r\n$1048577\r\n").error == .protocolError("invalid bulk length"))
    }

    @Test func argumentCountsUpToTheLimitAreAccepted() {
        let request = "*1024\r\n" + String(repeating: "$1\r\na\r\n", count: 1024)
        #expect(DecoderDriver.decode(request).requests.first?.arguments.count == 1024)
        let inline = String(repeating: "a ", count: 1024) + "\n"
        #expect(DecoderDriver.decode(inline).requests.first?.arguments.count == 1024)
        #expect(DecoderDriver.decode("*1025\r\n").error == .protocolError("invalid multibulk length"))
    }

    @Test func aRequestOverTheTotalLimitFailsWhenTheArgumentIsAnnounced() {
        let limits = ProtocolLimits(maximumRequestBytes: 100)
        // 4 ("*2\r\n") + 9 ("$3\r\nSET\r\n") + 5 ("$82\r\n") + 82 + 2 = 102.
        #expect(
            DecoderDriver.decode("*2\r\n$3\r\nSET\r\n$82\r\n", limits: limits).error
                == .protocolError("too big request"))
        let fits = "*2\r\n$3\r\nSET\r\n$80\r\n" + String(repeating: "x", count: 80) + "\r\n"
        #expect(DecoderDriver.decode(fits, limits: limits).requests.count == 1)
    }

    @Test func smallerLimitsAreHonoured() {
        let limits = ProtocolLimits(maximumInlineBytes: 8, maximumBulkBytes: 4, maximumArguments: 2)
        #expect(DecoderDriver.decode("GET abcd\n", limits: limits).requests.count == 1)
        #expect(DecoderDriver.decode("GET abcde\n", limits: limits).error == .protocolError("too big inline request"))
        #expect(DecoderDriver.decode("*1\r\n$5\r\n", limits: limits).error == .protocolError("invalid bulk length"))
        #expect(DecoderDriver.decode("*3\r\n", limits: limits).error == .protocolError("invalid multibulk length"))
        #expect(
            DecoderDriver.decode("a b c\n", limits: limits).error
                == .protocolError("too many arguments in inline request"))
        #expect(
            DecoderDriver.decode("*123456789\r\n", limits: limits).error == .protocolError("too big mbulk count string")
        )
    }
}
