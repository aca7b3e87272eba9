import NIOCore

/// Writes ``RESPReply`` values for one connection, in the format that connection speaks.
///
/// A connection starts in RESP2; `HELLO 3` switches it to RESP3 (set ``format`` before writing the
/// `HELLO` reply, which Redis already sends in RESP3), and a JSON mode gives one JSON object per line
/// for scripts. RESP3 types in RESP2 become what Redis 7.0 sends a RESP2 client (`src/networking.c`,
/// `addReplyDouble`, `addReplyNull`, `addReplyBool`, `addReplyVerbatim`, `addReplyMapLen`):
///
/// | reply | RESP2 | RESP3 |
/// | --- | --- | --- |
/// | ``RESPReply/nullBulk`` | `$-1` | `_` |
/// | ``RESPReply/nullArray`` | `*-1` | `_` |
/// | ``RESPReply/null`` | `$-1` | `_` |
/// | ``RESPReply/map(_:)-swift.enum.case`` | `*2n` then key, value… | `%n` then key, value… |
/// | ``RESPReply/double(_:)`` | bulk string of its text | `,text` |
/// | ``RESPReply/doubleText(_:)`` | bulk string of the text | `,text` |
/// | ``RESPReply/boolean(_:)`` | `:1` / `:0` | `#t` / `#f` |
/// | ``RESPReply/verbatim(_:_:)`` | bulk string of the text | `=len` `txt:text` |
/// | ``RESPReply/push(_:)`` | `*n` then the elements | `>n` then the elements |
///
/// A double's text is the shortest that reads back to the same value, integral values without a
/// fraction (`3`, `0.1`, `1e+20`), and `inf`, `-inf`, `nan` as RESP3 spells them. The JSON mapping is
/// described at ``Format/json``.
///
/// Use it on its channel's event loop only: ``format`` is plain mutable state.
///
/// ```swift
/// let encoder = RESPReplyEncoder()
/// try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(encoder))
/// // on HELLO 3:
/// encoder.format = .resp3
/// ```
public final class RESPReplyEncoder: MessageToByteEncoder {
    public typealias OutboundIn = RESPReply

    /// The wire format of a connection's replies.
    public enum Format: Sendable, Equatable {
        /// RESP2, the default of every Redis connection.
        case resp2
        /// RESP3, after `HELLO 3`.
        case resp3
        /// One JSON object and a `\n` per reply: `{"ok":true,"result":R}` or `{"ok":false,"err":"text"}`.
        ///
        /// `R` by reply: simple, bulk and verbatim strings → a JSON string (bytes that are not UTF-8 →
        /// `{"base64":"…"}`); integer → number; double → number, or `"inf"`, `"-inf"`, `"nan"`; boolean →
        /// `true`/`false`; every null → `null`; array → array; map → object when every key is a string
        /// (pairs in order), else an array of `[key, value]` arrays; an error inside an array or map →
        /// `{"err":"text"}`. Strings escape `"`, `\` and control bytes; other UTF-8 is written as is.
        case json
    }

    /// The format the next reply is written in.
    public var format: Format

    /// An encoder writing `format`.
    ///
    /// - Parameter format: ``Format/resp2`` unless given, as a new Redis connection.
    public init(format: Format = .resp2) {
        self.format = format
    }

    public func encode(data: RESPReply, out: inout ByteBuffer) {
        Self.write(data, format: format, to: &out)
    }

    /// Appends one reply to `out` in `format`, without a channel: for a writer that keeps the format
    /// elsewhere (in its session, say) and for tests.
    ///
    /// - Parameters:
    ///   - reply: The reply.
    ///   - format: The connection's format.
    ///   - out: The buffer the reply's bytes are appended to.
    public static func write(_ reply: RESPReply, format: Format, to out: inout ByteBuffer) {
        switch format {
        case .resp2: writeRESP(reply, resp3: false, to: &out)
        case .resp3: writeRESP(reply, resp3: true, to: &out)
        case .json: writeJSONLine(reply, to: &out)
        }
    }

    // MARK: RESP

    private static func writeRESP(_ reply: RESPReply, resp3: Bool, to out: inout ByteBuffer) {
        switch reply {
        case .simpleString(let text):
            writeLine(prefix: "+", text, to: &out)
        case .error(let text):
            writeLine(prefix: "-", text, to: &out)
        case .integer(let value):
            writeLine(prefix: ":", String(value), to: &out)
        case .bulkString(let bytes):
            writeBulk(bytes, to: &out)
        case .bulkText(let text):
            var text = text
            text.withUTF8 { bytes in
                out.reserveCapacity(minimumWritableBytes: bytes.count + 24)
                writeLength(prefix: UInt8(ascii: "$"), bytes.count, to: &out)
                out.writeBytes(bytes)
                out.writeStaticString("\r\n")
            }
        case .nullBulk, .null:
            out.writeStaticString(resp3 ? "_\r\n" : "$-1\r\n")
        case .nullArray:
            out.writeStaticString(resp3 ? "_\r\n" : "*-1\r\n")
        case .push(let elements):
            writeLength(prefix: UInt8(ascii: resp3 ? ">" : "*"), elements.count, to: &out)
            for element in elements { writeRESP(element, resp3: resp3, to: &out) }
        case .sequence(let replies):
            for reply in replies { writeRESP(reply, resp3: resp3, to: &out) }
        case .array(let elements):
            writeLength(prefix: UInt8(ascii: "*"), elements.count, to: &out)
            var start = 0
            while start < elements.count {
                // Runs of text (a GEOSEARCH reply is one) are written in one pass over raw memory.
                let end =
                    elements[start...].firstIndex { if case .bulkText = $0 { false } else { true } } ?? elements.count
                if end > start {
                    writeTexts(elements[start..<end], to: &out)
                    start = end
                } else {
                    writeRESP(elements[start], resp3: resp3, to: &out)
                    start += 1
                }
            }
        case .rows(let rows):
            writeRows(rows, resp3: resp3, to: &out)
        case .map(let entries):
            writeLine(prefix: resp3 ? "%" : "*", String(resp3 ? entries.count : 2 * entries.count), to: &out)
            for entry in entries {
                writeRESP(entry.key, resp3: resp3, to: &out)
                writeRESP(entry.value, resp3: resp3, to: &out)
            }
        case .double(let value):
            if resp3 {
                writeLine(prefix: ",", doubleText(value), to: &out)
            } else {
                writeBulk(ByteBuffer(string: doubleText(value)), to: &out)
            }
        case .doubleText(let text):
            if resp3 {
                writeLine(prefix: ",", text, to: &out)
            } else {
                writeBulk(ByteBuffer(string: text), to: &out)
            }
        case .boolean(let value):
            if resp3 {
                out.writeStaticString(value ? "#t\r\n" : "#f\r\n")
            } else {
                out.writeStaticString(value ? ":1\r\n" : ":0\r\n")
            }
        case .verbatim(let format, let text):
            if resp3 {
                writeLine(prefix: "=", String(text.readableBytes + 4), to: &out)
                out.writeString(format.rawValue)
                out.writeStaticString(":")
                out.writeImmutableBuffer(text)
                out.writeStaticString("\r\n")
            } else {
                writeBulk(text, to: &out)
            }
        }
    }

    /// `prefix`, the text with `\r` and `\n` as spaces (a line end would end the reply early), `\r\n`.
    private static func writeLine(prefix: StaticString, _ text: String, to out: inout ByteBuffer) {
        out.writeStaticString(prefix)
        if text.utf8.contains(where: { $0 == ASCII.carriageReturn || $0 == ASCII.newline }) {
            out.writeBytes(text.utf8.map { $0 == ASCII.carriageReturn || $0 == ASCII.newline ? ASCII.space : $0 })
        } else {
            out.writeString(text)
        }
        out.writeStaticString("\r\n")
    }

    /// Bulk strings of text, `$len\r\ntext\r\n` each, written with one capacity check: a buffer
    /// write per piece would check its storage and exclusive access every time.
    private static func writeTexts(_ replies: ArraySlice<RESPReply>, to out: inout ByteBuffer) {
        var total = 0
        for case .bulkText(let text) in replies {
            let count = text.utf8.count
            total += count + 5 + decimalDigits(count)
        }
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: total) { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            var position = 0
            for case .bulkText(var text) in replies {
                text.withUTF8 { bytes in
                    base[position] = UInt8(ascii: "$")
                    position += 1
                    let digits = decimalDigits(bytes.count)
                    var value = bytes.count
                    for index in stride(from: position + digits - 1, through: position, by: -1) {
                        base[index] = UInt8(truncatingIfNeeded: value % 10) &+ UInt8(ascii: "0")
                        value /= 10
                    }
                    position += digits
                    base[position] = ASCII.carriageReturn
                    base[position + 1] = ASCII.newline
                    position += 2
                    if let source = bytes.baseAddress { (base + position).update(from: source, count: bytes.count) }
                    position += bytes.count
                    base[position] = ASCII.carriageReturn
                    base[position + 1] = ASCII.newline
                    position += 2
                }
            }
            return position
        }
    }

    /// An array of rows (``RESPReply/rows(_:)``), with one capacity check: the values' bytes
    /// with their RESP framing, row after row.
    private static func writeRows(_ rows: RESPRows, resp3: Bool, to out: inout ByteBuffer) {
        if resp3, rows.numbersAsBulkStrings {
            // Framed for RESP2: RESP3 writes the numbers as doubles.
            writeRESP(rows.expanded, resp3: true, to: &out)
            return
        }
        if rows.framed {
            rows.withFramedRows { bytes in
                out.reserveCapacity(minimumWritableBytes: bytes.count + 24)
                writeLength(prefix: UInt8(ascii: "*"), rows.count, to: &out)
                out.writeBytes(bytes)
            }
            return
        }
        let columns = rows.columns
        let arrays = columns.count > 1
        // Per value at most a prefix, 20 digits and two line ends; per row and pair an array
        // header of at most 4 bytes (a row has few columns).
        let total = 24 + rows.count * 4 * (1 + columns.count) + rows.valueCount * 25 + rows.byteCount
        _ = rows.withValues { bytes, ends in
            out.writeWithUnsafeMutableBytes(minimumWritableBytes: total) { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var position = 0
                var value = 0
                var start = 0
                func header(_ prefix: UInt8, _ count: Int) {
                    base[position] = prefix
                    position += 1
                    position += writeDigits(count, to: base + position)
                    base[position] = ASCII.carriageReturn
                    base[position + 1] = ASCII.newline
                    position += 2
                }
                /// The next value after `prefix`, with its length first when `bulk`.
                func next(_ prefix: UInt8, bulk: Bool) {
                    let end = ends[value]
                    let count = end - start
                    if bulk {
                        header(prefix, count)
                    } else {
                        base[position] = prefix
                        position += 1
                    }
                    ShortCopy.copy(from: bytes.baseAddress! + start, to: base + position, count: count)
                    position += count
                    base[position] = ASCII.carriageReturn
                    base[position + 1] = ASCII.newline
                    position += 2
                    start = end
                    value += 1
                }
                func number() {
                    if resp3 { next(UInt8(ascii: ","), bulk: false) } else { next(UInt8(ascii: "$"), bulk: true) }
                }
                header(UInt8(ascii: "*"), rows.count)
                for _ in 0..<rows.count {
                    if arrays { header(UInt8(ascii: "*"), columns.count) }
                    for column in columns {
                        switch column {
                        case .text: next(UInt8(ascii: "$"), bulk: true)
                        case .number: number()
                        case .integer: next(UInt8(ascii: ":"), bulk: false)
                        case .numberPair:
                            header(UInt8(ascii: "*"), 2)
                            number()
                            number()
                        case .textPair:
                            header(UInt8(ascii: "*"), 2)
                            next(UInt8(ascii: "$"), bulk: true)
                            next(UInt8(ascii: "$"), bulk: true)
                        }
                    }
                }
                return position
            }
        }
    }

    /// Writes a count in decimal; returns the number of digits.
    @inline(__always)
    static func writeDigits(_ count: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if (0..<10).contains(count) {
            out[0] = UInt8(truncatingIfNeeded: count) &+ UInt8(ascii: "0")
            return 1
        }
        let digits = decimalDigits(count)
        var rest = count
        for index in stride(from: digits - 1, through: 0, by: -1) {
            out[index] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        }
        return digits
    }

    /// The number of decimal digits of a count (0 has one).
    private static func decimalDigits(_ value: Int) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// `prefix`, a count in decimal and `\r\n` (`$5\r\n`, `*251\r\n`), without making a string.
    private static func writeLength(prefix: UInt8, _ count: Int, to out: inout ByteBuffer) {
        guard count >= 0 else {
            out.writeInteger(prefix)
            out.writeString(String(count))
            out.writeStaticString("\r\n")
            return
        }
        // Up to 19 digits, the prefix and the line end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var position = 24
            var value = count
            digits[position - 1] = ASCII.newline
            digits[position - 2] = ASCII.carriageReturn
            position -= 2
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: value % 10) &+ UInt8(ascii: "0")
                value /= 10
            } while value > 0
            position -= 1
            digits[position] = prefix
            out.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(digits)[position...]))
        }
    }

    private static func writeBulk(_ bytes: ByteBuffer, to out: inout ByteBuffer) {
        writeLength(prefix: UInt8(ascii: "$"), bytes.readableBytes, to: &out)
        out.writeImmutableBuffer(bytes)
        out.writeStaticString("\r\n")
    }

    /// The double as RESP3 and the RESP2 bulk string spell it: `3`, `0.1`, `1e+20`, `inf`, `-inf`, `nan`.
    static func doubleText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        // Below 2^53 every integral double is exact as an Int64; Swift would write `3.0`, Redis writes `3`.
        if value == value.rounded(), abs(value) < 0x1p53 { return String(Int64(value)) }
        return String(value)
    }
}
