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
/// | ``RESPReply/boolean(_:)`` | `:1` / `:0` | `#t` / `#f` |
/// | ``RESPReply/verbatim(_:_:)`` | bulk string of the text | `=len` `txt:text` |
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
        case .nullBulk, .null:
            out.writeStaticString(resp3 ? "_\r\n" : "$-1\r\n")
        case .nullArray:
            out.writeStaticString(resp3 ? "_\r\n" : "*-1\r\n")
        case .array(let elements):
            writeLine(prefix: "*", String(elements.count), to: &out)
            for element in elements { writeRESP(element, resp3: resp3, to: &out) }
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

    private static func writeBulk(_ bytes: ByteBuffer, to out: inout ByteBuffer) {
        writeLine(prefix: "$", String(bytes.readableBytes), to: &out)
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
