import NIOCore

/// Cuts the bytes of one connection into ``Request``s: RESP2 multibulk when a request starts with `*`
/// (what `redis-cli` and every Redis client send), an inline text line otherwise (`nc`, `telnet`).
///
/// Pipelining works: one read may hold many requests, of both kinds, and a request may arrive a byte at
/// a time. Parsing, limits and error reasons follow Redis 7.0's `processMultibulkBuffer` and
/// `processInlineBuffer` (`src/networking.c`):
///
/// - `*<count>\r\n` then `count` times `$<length>\r\n<bytes>\r\n`. Counts and lengths parse like Redis's
///   `string2ll`: optional `-`, no `+`, no leading zeros, no spaces. `*0` and negative counts are skipped
///   as empty requests. As in Redis, the byte after a count line's `\r` and the two bytes after an
///   argument's bytes are skipped unchecked.
/// - Inline: a line ending in `\n` or `\r\n`, split by ``InlineSplitter`` (Redis's `sdssplitargs`). Blank
///   lines are skipped.
///
/// Errors are ``LineProtocolError/protocolError(_:)`` with Redis's reply reasons:
///
/// | reason | input |
/// | --- | --- |
/// | `invalid multibulk length` | count not an integer or above `INT_MAX` |
/// | `invalid bulk length` | length not an integer, negative or above ``ProtocolLimits/maximumBulkBytes`` |
/// | `expected '$', got 'x'` | an argument not starting with `$` (bytes outside printable ASCII as `\xHH`) |
/// | `too big mbulk count string` | no `\r` within ``ProtocolLimits/maximumInlineBytes`` after `*` |
/// | `too big bulk count string` | no `\r` within ``ProtocolLimits/maximumInlineBytes`` after `$` |
/// | `too big inline request` | an inline line longer than ``ProtocolLimits/maximumInlineBytes`` |
/// | `unbalanced quotes in request` | see ``InlineSplitter`` |
/// | `too big request` | Vicinity's own: RESP request past ``ProtocolLimits/maximumRequestBytes`` (also when its count alone says it cannot fit) |
///
/// Deliberate differences from Redis, each so that an error does not depend on how the bytes were cut
/// into reads: a line is too big when its bytes before the line end exceed the limit, whether or not the
/// line end arrived in the same read (Redis only checks a buffer without one); an argument not starting
/// with `$` fails as soon as that byte arrives (Redis waits for the `\r`). NUL is an ordinary byte.
///
/// ```swift
/// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(RESPRequestDecoder()))
/// ```
public struct RESPRequestDecoder: ByteToMessageDecoder {
    public typealias InboundOut = Request

    /// The limits this decoder enforces.
    public let limits: ProtocolLimits

    /// The RESP request being read, once its count line is consumed; nil between requests.
    private var pending: PendingRequest?

    /// Bytes at the start of the unread input already searched for a line end without finding one, so
    /// that a line arriving a byte at a time is scanned once, not once per byte.
    private var searchedBytes = 0

    /// A decoder for one connection.
    ///
    /// - Parameter limits: The limits to enforce; ``ProtocolLimits/default`` unless given.
    public init(limits: ProtocolLimits = .default) {
        self.limits = limits
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let request = try nextRequest(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(request))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while let request = try nextRequest(from: &buffer) {
            context.fireChannelRead(Self.wrapInboundOut(request))
        }
        if seenEOF {
            // A request cut short by the client hanging up is dropped, as Redis drops it with the client.
            buffer.moveReaderIndex(to: buffer.writerIndex)
            pending = nil
            searchedBytes = 0
        }
        return .needMoreData
    }

    /// The next complete request at the start of `buffer`, its bytes consumed.
    ///
    /// `ByteToMessageHandler` calls this through ``decode(context:buffer:)``; it is public so that other
    /// transports and tests can drive the decoder without a channel. Call it again after appending bytes
    /// to the same buffer. After it has thrown, the decoder's state is undefined: close the connection.
    ///
    /// - Parameter buffer: The bytes received and not yet consumed.
    /// - Returns: A request, or nil when `buffer` holds no complete one (its bytes are kept or consumed
    ///   into the decoder's state).
    /// - Throws: ``LineProtocolError/protocolError(_:)`` with one of the reasons above.
    public mutating func nextRequest(from buffer: inout ByteBuffer) throws -> Request? {
        while buffer.readableBytes > 0 {
            if pending == nil {
                if buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) != ASCII.asterisk {
                    guard let line = try readInlineLine(from: &buffer) else { return nil }
                    let arguments = try InlineSplitter.split(line)
                    if arguments.isEmpty { continue }
                    return Request(arguments: arguments, isInline: true)
                }
                guard let (count, countLineBytes) = try readArgumentCount(from: &buffer) else { return nil }
                if count <= 0 { continue }
                var arguments: [ByteBuffer] = []
                // The count is the client's word: room for more arguments is made as they arrive.
                arguments.reserveCapacity(min(count, 1_024))
                pending = PendingRequest(remaining: count, arguments: arguments, requestBytes: countLineBytes)
            }
            // Moved out of `self` so that the arguments array stays uniquely referenced while it grows.
            guard var request = pending else { return nil }
            pending = nil
            guard try readArguments(of: &request, from: &buffer) else {
                pending = request
                return nil
            }
            return Request(arguments: request.arguments, isInline: false)
        }
        return nil
    }

    /// A RESP request whose count line is read and whose arguments are arriving.
    private struct PendingRequest {
        /// Arguments still to read.
        var remaining: Int
        /// Arguments read so far: slices of the input.
        var arguments: [ByteBuffer]
        /// Bytes of this request consumed so far, count line included.
        var requestBytes: Int
        /// The announced length of the argument whose `$` line is consumed and whose bytes are not.
        var bulkLength: Int?
    }

    // MARK: Inline

    /// The line at the start of `buffer` without its line end, consumed with it; nil until it has all come.
    private mutating func readInlineLine(from buffer: inout ByteBuffer) throws -> ByteBuffer? {
        let limit = limits.maximumInlineBytes
        // A line of `limit` bytes may still be followed by "\r\n": the "\n" lies at most at `limit + 1`.
        let searchEnd = min(buffer.readableBytes, limit + 2)
        let newline = buffer.withUnsafeReadableBytes { bytes in
            Self.firstIndex(of: ASCII.newline, in: bytes, from: searchedBytes, to: searchEnd)
        }
        guard let newline else {
            let count = buffer.readableBytes
            let endsInReturn = buffer.getInteger(at: buffer.writerIndex - 1, as: UInt8.self) == ASCII.carriageReturn
            if count - (endsInReturn ? 1 : 0) > limit {
                throw LineProtocolError.protocolError("too big inline request")
            }
            searchedBytes = searchEnd
            return nil
        }
        let hasReturn =
            newline > 0
            && buffer.getInteger(at: buffer.readerIndex + newline - 1, as: UInt8.self) == ASCII.carriageReturn
        let lineBytes = newline - (hasReturn ? 1 : 0)
        guard lineBytes <= limit else { throw LineProtocolError.protocolError("too big inline request") }
        let line = buffer.getSlice(at: buffer.readerIndex, length: lineBytes) ?? ByteBuffer()
        buffer.moveReaderIndex(forwardBy: newline + 1)
        searchedBytes = 0
        return line
    }

    // MARK: RESP

    /// The count of a `*<count>\r\n` line and the line's length in bytes, consumed; nil until it has all come.
    private mutating func readArgumentCount(from buffer: inout ByteBuffer) throws -> (Int, Int)? {
        guard let lineEnd = try findCountLineEnd(in: buffer, tooBig: "too big mbulk count string") else {
            return nil
        }
        let count = buffer.withUnsafeReadableBytes { bytes in
            Self.parseInteger(UnsafeRawBufferPointer(rebasing: bytes[1..<lineEnd]))
        }
        guard let count, count <= Int64(Int32.max) else {
            throw LineProtocolError.protocolError("invalid multibulk length")
        }
        // Each argument takes at least "$0\r\n\r\n", 6 bytes.
        guard Int64(lineEnd + 2) + max(count, 0) * 6 <= Int64(limits.maximumRequestBytes) else {
            throw LineProtocolError.protocolError("too big request")
        }
        buffer.moveReaderIndex(forwardBy: lineEnd + 2)
        searchedBytes = 0
        return (Int(count), lineEnd + 2)
    }

    /// Reads arguments of `request` from `buffer` until it is complete or the buffer runs dry.
    ///
    /// - Returns: Whether the request is complete.
    private mutating func readArguments(of request: inout PendingRequest, from buffer: inout ByteBuffer) throws
        -> Bool
    {
        while request.remaining > 0 {
            let length: Int
            if let announced = request.bulkLength {
                length = announced
            } else {
                guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return false }
                guard first == ASCII.dollar else {
                    throw LineProtocolError.protocolError("expected '$', got '\(ASCII.printable(first))'")
                }
                guard let lineEnd = try findCountLineEnd(in: buffer, tooBig: "too big bulk count string") else {
                    return false
                }
                let parsed = buffer.withUnsafeReadableBytes { bytes in
                    Self.parseInteger(UnsafeRawBufferPointer(rebasing: bytes[1..<lineEnd]))
                }
                guard let parsed, parsed >= 0, parsed <= Int64(limits.maximumBulkBytes) else {
                    throw LineProtocolError.protocolError("invalid bulk length")
                }
                length = Int(parsed)
                guard request.requestBytes + lineEnd + 2 + length + 2 <= limits.maximumRequestBytes else {
                    throw LineProtocolError.protocolError("too big request")
                }
                buffer.moveReaderIndex(forwardBy: lineEnd + 2)
                searchedBytes = 0
                request.requestBytes += lineEnd + 2
                request.bulkLength = length
            }
            guard buffer.readableBytes >= length + 2, let argument = buffer.readSlice(length: length) else {
                return false
            }
            buffer.moveReaderIndex(forwardBy: 2)
            request.arguments.append(argument)
            request.requestBytes += length + 2
            request.bulkLength = nil
            request.remaining -= 1
        }
        return true
    }

    /// The offset of the `\r` ending the `*…` or `$…` line at the start of `buffer`, once the byte after
    /// it has come too (Redis skips that byte unchecked); nil until then.
    private mutating func findCountLineEnd(in buffer: ByteBuffer, tooBig reason: String) throws -> Int? {
        let limit = limits.maximumInlineBytes
        let count = buffer.readableBytes
        // Redis fails once more than `limit` bytes are buffered without a "\r": a "\r" past offset `limit`.
        let searchEnd = min(count, limit + 1)
        let found = buffer.withUnsafeReadableBytes { bytes in
            Self.firstIndex(of: ASCII.carriageReturn, in: bytes, from: max(searchedBytes, 1), to: searchEnd)
        }
        guard let found else {
            if count > limit { throw LineProtocolError.protocolError(reason) }
            searchedBytes = searchEnd
            return nil
        }
        searchedBytes = found
        return found + 1 < count ? found : nil
    }

    /// The first offset in `start..<end` holding `byte`.
    private static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int)
        -> Int?
    {
        var index = start
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The integer the bytes spell, by the rules of Redis's `string2ll` (`src/util.c`): `0`, or an optional
    /// `-` and a digit 1–9 followed by digits, within `Int64`; nil for anything else.
    static func parseInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard let first = bytes.first else { return nil }
        if bytes.count == 1 && first == ASCII.zero { return 0 }
        let negative = first == ASCII.minus
        let digitsStart = negative ? 1 : 0
        guard digitsStart < bytes.count, bytes[digitsStart] >= ASCII.one, bytes[digitsStart] <= ASCII.nine else {
            return nil
        }
        var magnitude: UInt64 = 0
        for index in digitsStart..<bytes.count {
            let byte = bytes[index]
            guard ASCII.isDigit(byte) else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - ASCII.zero))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}
