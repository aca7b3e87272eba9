import NIOCore

/// One reply to a request, independent of the wire format; ``RESPReplyEncoder`` writes it as RESP2, RESP3
/// or a JSON line.
///
/// The RESP2 cases are what every Redis client understands; the RESP3 cases are what `HELLO 3` needs and
/// fall back to RESP2 as Redis's own replies do (see ``RESPReplyEncoder``).
///
/// ```swift
/// let reply: RESPReply = .array([.bulkString("Eiffel Tower"), .double(0.8271)])
/// ```
public enum RESPReply: Sendable, Equatable {
    /// `+OK`: a short status text. Line ends in it are written as spaces.
    case simpleString(String)
    /// `-ERR unknown command`: the error's code word and message, without the `-`. Line ends in it are
    /// written as spaces.
    case error(String)
    /// `:42`.
    case integer(Int)
    /// `$5 hello`: binary-safe bytes.
    case bulkString(ByteBuffer)
    /// `$-1`: a missing value (`GET` of an absent key); RESP3 `_`.
    case nullBulk
    /// `*2 …`: replies in order.
    case array([RESPReply])
    /// `*-1`: a missing list (a timed-out blocking pop); RESP3 `_`.
    case nullArray
    /// RESP3 `%`: key–value pairs in order; RESP2 a flat array `key, value, key, value…`.
    case map([MapEntry])
    /// RESP3 `,`: a double; RESP2 its text as a bulk string.
    case double(Double)
    /// RESP3 `_`; RESP2 `$-1`.
    case null
    /// RESP3 `#t`/`#f`; RESP2 `:1`/`:0`.
    case boolean(Bool)
    /// RESP3 `=`: text with a format hint; RESP2 the text as a bulk string.
    case verbatim(VerbatimFormat, ByteBuffer)

    /// One pair of a ``RESPReply/map(_:)``.
    public struct MapEntry: Sendable, Equatable {
        public var key: RESPReply
        public var value: RESPReply

        public init(key: RESPReply, value: RESPReply) {
            self.key = key
            self.value = value
        }
    }

    /// The format hint of a ``RESPReply/verbatim(_:_:)`` reply: three bytes on the wire.
    public enum VerbatimFormat: String, Sendable, Equatable {
        /// `txt`: plain text, as `INFO` and `CLIENT LIST` reply.
        case text = "txt"
        /// `mkd`: Markdown.
        case markdown = "mkd"
    }

    /// `+OK`.
    public static let ok = RESPReply.simpleString("OK")

    /// A bulk string of the text's UTF-8 bytes.
    public static func bulkString(_ text: String) -> RESPReply {
        .bulkString(ByteBuffer(string: text))
    }

    /// A map of string keys, in order, each key a bulk string.
    public static func map(_ pairs: KeyValuePairs<String, RESPReply>) -> RESPReply {
        .map(pairs.map { MapEntry(key: .bulkString($0.key), value: $0.value) })
    }
}
