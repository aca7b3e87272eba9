import Foundation
import LineProtocol
import NIOCore
import NIOEmbedded
import Testing

/// Random and mutated bytes through the decoder. Whatever comes in, the decoder must not trap; it must
/// give requests or throw a protocol error, give the same outcome however the bytes are cut into reads,
/// never hold more than the limits while waiting, and decode untouched valid streams exactly.
///
/// 1,000,000 inputs by default (about 25 s in a debug build on the 2-core dev machine); set
/// `VICINITY_FUZZ_INPUTS` to run fewer or more. The seed is fixed, so a failure replays.
@Suite struct RESPRequestDecoderFuzzTests {
    static let inputCount = ProcessInfo.processInfo.environment["VICINITY_FUZZ_INPUTS"].flatMap { Int($0) } ?? 1_000_000

    /// Small limits, so that random input reaches every limit too.
    static let smallLimits = ProtocolLimits(
        maximumInlineBytes: 12, maximumBulkBytes: 6, maximumRequestBytes: 32)

    @Test func randomInputGivesRequestsOrAProtocolErrorWhateverTheReads() {
        var inputs = FuzzInputs(seed: 0x5EED_0F_C0DEC)
        var reads = FuzzInputs(seed: 0x0005_EED0_F0EAD5)
        var failures = 0
        var reasons: [String: Int] = [:]
        var requests = 0
        for index in 0..<Self.inputCount where failures < 5 {
            let input = inputs.next()
            let limits = index % 3 == 0 ? Self.smallLimits : .default
            let bytes = ByteBuffer(bytes: input.bytes)
            let whole = DecoderDriver.decode(bytes, limits: limits)
            let cut = DecoderDriver.decode(bytes, limits: limits) { reads.readSize(remaining: $0) }
            if case .protocolError(let reason) = whole.error { reasons[reason, default: 0] += 1 }
            requests += whole.requests.count
            var problem: String?
            if let failure = whole.failure ?? cut.failure {
                problem = failure
            } else if whole != cut {
                problem = "whole: \(whole); in reads: \(cut)"
            } else if let expected = input.expected, limits == .default,
                whole.error != nil || whole.requests.map(FuzzInputs.Expected.init) != expected
            {
                problem = "valid stream decoded as \(whole)"
            }
            if let problem {
                failures += 1
                Issue.record("input \(index) \(input.bytes): \(problem)")
            }
        }
        // The inputs reach every error, so every check above ran on its error path too.
        if Self.inputCount >= 100_000 {
            #expect(Set(reasons.keys.map { $0.hasPrefix("expected '$'") ? "expected '$'" : $0 }) == Self.everyReason)
        }
        print(
            "fuzz: \(Self.inputCount) inputs, \(requests) requests, errors \(reasons.sorted { $0.value > $1.value }.prefix(12))"
        )
    }

    static let everyReason: Set<String> = [
        "invalid multibulk length", "invalid bulk length", "expected '$'", "unbalanced quotes in request",
        "too big inline request", "too big mbulk count string", "too big bulk count string",
        "too big request",
    ]

    /// The same property through `ByteToMessageHandler` in an `EmbeddedChannel`, on a hundredth of the inputs.
    @Test func theChannelHandlerAgreesWithTheDecoder() throws {
        var inputs = FuzzInputs(seed: 0xC4A7_7E1)
        var reads = FuzzInputs(seed: 0x4EAD_5)
        for index in 0..<max(Self.inputCount / 100, 1) {
            let input = inputs.next()
            let limits = index % 3 == 0 ? Self.smallLimits : .default
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder(limits: limits)))
            var outcome = DecodeOutcome()
            var offset = 0
            while offset < input.bytes.count, outcome.error == nil {
                let size = min(reads.readSize(remaining: input.bytes.count - offset), input.bytes.count - offset)
                do {
                    try channel.writeInbound(ByteBuffer(bytes: input.bytes[offset..<offset + size]))
                } catch let error as LineProtocolError {
                    outcome.error = error
                }
                offset += size
                while let request = try channel.readInbound(as: Request.self) { outcome.requests.append(request) }
            }
            _ = try? channel.finish()
            let expected = DecoderDriver.decode(input.bytes, limits: limits)
            #expect(outcome == expected, "input \(index) \(input.bytes)")
            if outcome != expected { break }
        }
    }
}
