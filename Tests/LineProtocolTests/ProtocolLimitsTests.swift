import LineProtocol
import NIOCore
import NIOEmbedded
import Testing

@Suite struct ProtocolLimitsTests {
    static let line = String(repeating: "a", count: 64 * 1024)

    @Test func defaultsAreDocumented() {
        let limits = ProtocolLimits.default
        #expect(limits.maximumInlineBytes == 65_536)
        #expect(limits.maximumBulkBytes == 536_870_912)
        #expect(limits.maximumRequestBytes == 1_073_741_824)
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
        let limits = ProtocolLimits(maximumBulkBytes: 1_048_576)
        let outcome = DecoderDriver.decode("*2\r\n$4\r\nECHO\r\n$1048576\r\n\(value)\r\n", limits: limits)
        #expect(outcome.requests == [Request(["ECHO", value])])
    }

    /// The length is checked when announced: nothing of the argument is awaited or buffered.
    @Test func aBulkOverTheLimitFailsBeforeItsBytesArrive() {
        let limits = ProtocolLimits(maximumBulkBytes: 1_048_576)
        #expect(
            DecoderDriver.decode("*2\r\n$4\r\nECHO\r\n$1048577\r\n", limits: limits).error
                == .protocolError("invalid bulk length"))
        #expect(
            DecoderDriver.decode("*2\r\n$4\r\nECHO\r\n$536870913\r\n").error == .protocolError("invalid bulk length"))
    }

    /// The count of arguments is limited only by the bytes they take (it was 1,024 once).
    @Test func argumentCountsAreLimitedOnlyByBytes() {
        let request = "*5000\r\n" + String(repeating: "$1\r\na\r\n", count: 5000)
        #expect(DecoderDriver.decode(request).requests.first?.arguments.count == 5000)
        let inline = String(repeating: "a ", count: 5000) + "\n"
        #expect(DecoderDriver.decode(inline).requests.first?.arguments.count == 5000)
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
        let limits = ProtocolLimits(maximumInlineBytes: 8, maximumBulkBytes: 4, maximumRequestBytes: 24)
        #expect(DecoderDriver.decode("GET abcd\n", limits: limits).requests.count == 1)
        #expect(DecoderDriver.decode("GET abcde\n", limits: limits).error == .protocolError("too big inline request"))
        #expect(DecoderDriver.decode("*1\r\n$5\r\n", limits: limits).error == .protocolError("invalid bulk length"))
        // 4 bytes of count line and at least 6 per argument: 3 arguments fit in 24 bytes, 4 cannot.
        #expect(DecoderDriver.decode("*3\r\n", limits: limits).error == nil)
        #expect(DecoderDriver.decode("*4\r\n", limits: limits).error == .protocolError("too big request"))
        #expect(DecoderDriver.decode("a b c d\n", limits: limits).requests.first?.arguments.count == 4)
        #expect(
            DecoderDriver.decode("*123456789\r\n", limits: limits).error == .protocolError("too big mbulk count string")
        )
    }

    /// Issue 15: the argument count was limited to 1,024 and the connection reset; Redis 7.0's
    /// `unit/geo.tcl` fuzz tests send GEOADD with 20,000 members, 60,002 arguments.
    @Test func aGeoaddOfSixtyThousandArgumentsIsOneRequest() {
        var text = "*60002\r\n$6\r\nGEOADD\r\n$3\r\nkey\r\n"
        for index in 0..<20_000 {
            let member = "m\(index)"
            text += "$2\r\n10\r\n$2\r\n20\r\n$\(member.utf8.count)\r\n\(member)\r\n"
        }
        let outcome = DecoderDriver.decode(text)
        #expect(outcome.error == nil)
        #expect(outcome.requests.map(\.arguments.count) == [60_002])
    }

    /// A count whose smallest possible request is past the byte limit fails at once, before any
    /// argument is read or room is made for it.
    @Test func aCountThatCannotFitFailsAtOnce() {
        #expect(DecoderDriver.decode("*2147483647\r\n").error == .protocolError("too big request"))
        #expect(DecoderDriver.decode("*2147483648\r\n").error == .protocolError("invalid multibulk length"))
    }
}
