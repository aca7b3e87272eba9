import LineProtocol
import NIOCore

/// What a decoder made of some bytes: its requests in order, then the error that stopped it, if any.
struct DecodeOutcome: Equatable, CustomStringConvertible {
    var requests: [Request] = []
    var error: LineProtocolError?
    /// An error of another type, or a broken invariant: never expected.
    var failure: String?

    var description: String {
        let shown = requests.map { request in
            (request.isInline ? "inline" : "resp")
                + String(describing: request.arguments.map { Array($0.readableBytesView) })
        }
        return "requests \(shown), error \(String(describing: error)), failure \(failure ?? "none")"
    }
}

/// Drives a `RESPRequestDecoder` without a channel, the way `ByteToMessageHandler` does: bytes appended to
/// one buffer read by read, requests taken until the decoder needs more.
enum DecoderDriver {
    /// Feeds `input` to a new decoder in reads of the sizes `nextReadSize` gives (each at least 1).
    ///
    /// Also checks what the decoder promises after every read: no request without arguments or with more
    /// than the limit allows, and no more unconsumed bytes than the longest line or argument (plus its
    /// `\r`) while it waits.
    static func decode(
        _ input: ByteBuffer, limits: ProtocolLimits = .default, nextReadSize: (Int) -> Int = { $0 }
    ) -> DecodeOutcome {
        var decoder = RESPRequestDecoder(limits: limits)
        var outcome = DecodeOutcome()
        // Each read moves the writer index over the next bytes already stored: to the decoder the same as
        // appending them, and much cheaper in a debug build. The decoder only moves indices, so the storage
        // stays shared with `input`.
        var buffer = input
        let start = buffer.readerIndex
        let end = buffer.writerIndex
        buffer.moveWriterIndex(to: start)
        var offset = start
        let waitingBound = max(limits.maximumInlineBytes, limits.maximumBulkBytes) + 1
        while offset < end {
            offset += min(max(nextReadSize(end - offset), 1), end - offset)
            buffer.moveWriterIndex(to: offset)
            do {
                while let request = try decoder.nextRequest(from: &buffer) {
                    if request.arguments.isEmpty {
                        outcome.failure = "request of \(request.arguments.count) arguments"
                    }
                    outcome.requests.append(request)
                }
            } catch let error as LineProtocolError {
                outcome.error = error
                return outcome
            } catch {
                outcome.failure = "unexpected error \(error)"
                return outcome
            }
            if buffer.readableBytes > waitingBound {
                outcome.failure = "\(buffer.readableBytes) bytes buffered while waiting"
                return outcome
            }
        }
        return outcome
    }

    /// The outcome of `bytes` fed in reads of the sizes `nextReadSize` gives.
    static func decode(
        _ bytes: [UInt8], limits: ProtocolLimits = .default, nextReadSize: (Int) -> Int = { $0 }
    ) -> DecodeOutcome {
        decode(ByteBuffer(bytes: bytes), limits: limits, nextReadSize: nextReadSize)
    }

    /// The outcome of `text` fed whole.
    static func decode(_ text: String, limits: ProtocolLimits = .default) -> DecodeOutcome {
        decode(ByteBuffer(string: text), limits: limits)
    }
}
