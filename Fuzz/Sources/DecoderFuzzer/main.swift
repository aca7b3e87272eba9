// libFuzzer target for `RESPRequestDecoder`. Each input goes to the decoder four ways:
//
// 1. whole, one `writeInbound` into an `EmbeddedChannel` with `ByteToMessageHandler(RESPRequestDecoder(…))`;
// 2. in two reads, cut at a position derived from the input's first byte;
// 3. a byte at a time;
// 4. without a channel, through `nextRequest(from:)` in reads of 1 to 8 bytes (the size from the
//    input's last byte), checking how many bytes the decoder leaves buffered while it waits.
//
// Every way must give requests, then at most one `LineProtocolError.protocolError` with one of the
// decoder's documented reasons, and all four must agree (the decoder promises that its outcome does not
// depend on how the bytes are cut into reads). Anything else traps: another error type, an unknown
// reason, a request with no arguments or past the limits, more bytes buffered than the limits allow, or
// ways that disagree. The limits are tiny, so that the fuzzer reaches every limit.
//
// Built with `-sanitize=fuzzer,address` by scripts/fuzz-decoder.sh. SwiftPM makes this file's
// top-level code the program's `main` (libFuzzer's own `main` is then not linked), so the code
// below starts libFuzzer's driver itself with `LLVMFuzzerRunDriver`, which takes the usual
// libFuzzer flags (`-runs=N`, `-max_total_time=S`, corpus folders).

import Foundation
import LineProtocol
import NIOCore
import NIOEmbedded

/// Tiny limits, the same as the unit fuzz tests' `smallLimits`.
let limits = ProtocolLimits(maximumInlineBytes: 12, maximumBulkBytes: 6, maximumRequestBytes: 32)

/// Every reason the decoder may give; "expected '$', got '…'" is checked separately.
let knownReasons: Set<String> = [
    "invalid multibulk length", "invalid bulk length", "unbalanced quotes in request", "too big inline request",
    "too big mbulk count string", "too big bulk count string",
    "too big request",
]

/// What one way of feeding made of the input.
struct Outcome: Equatable, CustomStringConvertible {
    var requests: [Request] = []
    var reason: String?

    var description: String {
        let shown = requests.map { request in
            (request.isInline ? "inline" : "resp")
                + String(describing: request.arguments.map { Array($0.readableBytesView) })
        }
        return "requests \(shown), error \(reason ?? "none")"
    }
}

/// Stops the process so that libFuzzer keeps the input as a crash.
func fail(_ message: String, _ input: [UInt8]) -> Never {
    fatalError("\(message); input \(input.map { String($0, radix: 16) })")
}

/// The reason of a protocol error; traps on any other error.
func reason(of error: Error, _ input: [UInt8], way: String) -> String {
    guard let error = error as? LineProtocolError, case .protocolError(let reason) = error else {
        fail("\(way): unexpected error \(String(reflecting: error))", input)
    }
    guard knownReasons.contains(reason) || isExpectedDollar(reason) else {
        fail("\(way): unknown reason \(reason)", input)
    }
    return reason
}

/// Whether `reason` is "expected '$', got 'x'" with x a printable ASCII byte or `\xHH`.
func isExpectedDollar(_ reason: String) -> Bool {
    let prefix = "expected '$', got '"
    guard reason.hasPrefix(prefix), reason.hasSuffix("'") else { return false }
    let shown = Array(reason.utf8.dropFirst(prefix.utf8.count).dropLast())
    if shown.count == 1 { return shown[0] >= 0x20 && shown[0] < 0x7F }
    let hex = Array("0123456789abcdef".utf8)
    return shown.count == 4 && shown[0] == UInt8(ascii: "\\") && shown[1] == UInt8(ascii: "x")
        && hex.contains(shown[2]) && hex.contains(shown[3])
}

/// Traps on a request the decoder must never make.
func check(_ request: Request, _ input: [UInt8], way: String) {
    let count = request.arguments.count
    guard count >= 1 else {
        fail("\(way): request of \(count) arguments", input)
    }
    let bytes = request.arguments.reduce(0) { $0 + $1.readableBytes }
    if request.isInline {
        // Quotes and escapes only shrink a line, so the arguments fit in the longest line.
        guard bytes <= limits.maximumInlineBytes else { fail("\(way): inline request of \(bytes) bytes", input) }
    } else {
        guard request.arguments.allSatisfy({ $0.readableBytes <= limits.maximumBulkBytes }) else {
            fail("\(way): RESP argument past maximumBulkBytes", input)
        }
        // Each argument takes at least "$N\r\n" and "\r\n" more on the wire, the count line at least 4.
        guard 4 + bytes + 6 * count <= limits.maximumRequestBytes else {
            fail("\(way): RESP request of \(bytes) argument bytes past maximumRequestBytes", input)
        }
    }
}

/// Feeds `input` through a channel in reads ending at `cuts` (ascending offsets) and then at its end.
func throughChannel(_ input: [UInt8], cuts: [Int], way: String) -> Outcome {
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPRequestDecoder(limits: limits)))
    var outcome = Outcome()
    func drain() {
        do {
            while let request = try channel.readInbound(as: Request.self) {
                check(request, input, way: way)
                outcome.requests.append(request)
            }
        } catch {
            fail("\(way): readInbound threw \(error)", input)
        }
    }
    var start = 0
    for end in cuts + [input.count] where end > start && outcome.reason == nil {
        do {
            try channel.writeInbound(ByteBuffer(bytes: input[start..<end]))
        } catch {
            outcome.reason = reason(of: error, input, way: way)
        }
        drain()
        start = end
    }
    do {
        // End of input: the decoder drops a partial request and must not throw.
        _ = try channel.finish()
    } catch {
        if outcome.reason == nil { fail("\(way): finish threw \(String(reflecting: error))", input) }
    }
    drain()
    return outcome
}

/// Feeds `input` to the decoder without a channel, in reads of `readSize` bytes, as `ByteToMessageHandler`
/// does: bytes appended to one buffer, requests taken until the decoder needs more.
func direct(_ input: [UInt8], readSize: Int) -> Outcome {
    var decoder = RESPRequestDecoder(limits: limits)
    var outcome = Outcome()
    var buffer = ByteBuffer()
    // While waiting, at most a line (and its "\r") or an argument (and its "\r\n") stays unconsumed, plus
    // the rest of the read that brought it.
    let waitingBound = max(limits.maximumInlineBytes + 1, limits.maximumBulkBytes + 2) + readSize
    var offset = 0
    while offset < input.count {
        let end = min(offset + readSize, input.count)
        buffer.writeBytes(input[offset..<end])
        offset = end
        do {
            while let request = try decoder.nextRequest(from: &buffer) {
                check(request, input, way: "direct")
                outcome.requests.append(request)
            }
        } catch {
            outcome.reason = reason(of: error, input, way: "direct")
            return outcome
        }
        if buffer.readableBytes > waitingBound {
            fail("direct: \(buffer.readableBytes) bytes buffered while waiting", input)
        }
    }
    return outcome
}

/// One fuzzer input: the decoder fed four ways (see the top of the file).
func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = count == 0 ? [] : Array(UnsafeBufferPointer(start: start, count: count))
    let whole = throughChannel(input, cuts: [], way: "whole")
    let cut = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    let split = throughChannel(input, cuts: [cut], way: "split at \(cut)")
    let bytewise = throughChannel(input, cuts: Array(0..<input.count), way: "byte at a time")
    let readSize = input.isEmpty ? 1 : Int(input[input.count - 1] % 8) + 1
    let plain = direct(input, readSize: readSize)
    guard whole == split, whole == bytewise, whole == plain else {
        fail("ways disagree: whole \(whole); split at \(cut) \(split); bytewise \(bytewise); direct \(plain)", input)
    }
    return 0
}

/// libFuzzer's entry point for programs that have their own `main` (compiler-rt, FuzzerDriver.cpp).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argumentCount = CommandLine.argc
var argumentValues = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &argumentValues) { start, count in fuzz(start, count) })
