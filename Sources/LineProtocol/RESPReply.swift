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
public enum RESPReply: Sendable {
    /// `+OK`: a short status text. Line ends in it are written as spaces.
    case simpleString(String)
    /// `-ERR unknown command`: the error's code word and message, without the `-`. Line ends in it are
    /// written as spaces.
    case error(String)
    /// `:42`.
    case integer(Int)
    /// `$5 hello`: binary-safe bytes.
    case bulkString(ByteBuffer)
    /// `$5 hello`: a bulk string of the text's UTF-8 bytes, kept as the `String` (no buffer is made
    /// for it). Equal to the ``bulkString(_:)-swift.enum.case`` of the same bytes.
    case bulkText(String)
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
    /// RESP3 `,text`: a double already printed, for replies whose digits Redis chooses itself
    /// (GEOPOS and WITHCOORD print 17 decimals, trailing zeros removed); RESP2 the text as a bulk
    /// string. JSON writes it as a number when it is a finite one, else as a string.
    case doubleText(String)
    /// RESP3 `_`; RESP2 `$-1`.
    case null
    /// RESP3 `#t`/`#f`; RESP2 `:1`/`:0`.
    case boolean(Bool)
    /// RESP3 `=`: text with a format hint; RESP2 the text as a bulk string.
    case verbatim(VerbatimFormat, ByteBuffer)
    /// RESP3 `>`: out-of-band data (a watch's event, a `SUBSCRIBE` confirmation), written between
    /// replies; RESP2 an array, as Redis sends pub/sub messages to a RESP2 client.
    case push([RESPReply])
    /// An array of rows of the same shape (a search's hits), built without a reply per value:
    /// written as the ``array(_:)`` of ``RESPRows/expanded`` would be, and equal to it.
    case rows(RESPRows)
    /// Several replies to one command, one after another (`SUBSCRIBE a b` answers one
    /// confirmation per channel); in JSON one line each.
    case sequence([RESPReply])

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
        .bulkText(text)
    }

    /// A map of string keys, in order, each key a bulk string.
    public static func map(_ pairs: KeyValuePairs<String, RESPReply>) -> RESPReply {
        .map(pairs.map { MapEntry(key: .bulkString($0.key), value: $0.value) })
    }
}

extension RESPReply {
    /// The reply with every ``rows(_:)`` inside it turned into the nested arrays it stands for.
    public var expanded: RESPReply {
        switch self {
        case .rows(let rows): return rows.expanded
        case .array(let elements): return .array(elements.map(\.expanded))
        case .push(let elements): return .push(elements.map(\.expanded))
        case .sequence(let elements): return .sequence(elements.map(\.expanded))
        case .map(let entries):
            return .map(entries.map { MapEntry(key: $0.key.expanded, value: $0.value.expanded) })
        default: return self
        }
    }
}

extension RESPReply: Equatable {
    /// Replies are equal when they are written the same: a ``bulkText(_:)`` equals the
    /// ``bulkString(_:)-swift.enum.case`` of its UTF-8 bytes.
    public static func == (lhs: RESPReply, rhs: RESPReply) -> Bool {
        switch (lhs, rhs) {
        case (.simpleString(let a), .simpleString(let b)), (.error(let a), .error(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.bulkString(let a), .bulkString(let b)): return a == b
        case (.bulkText(let a), .bulkText(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.bulkText(let text), .bulkString(let bytes)), (.bulkString(let bytes), .bulkText(let text)):
            return text.utf8.elementsEqual(bytes.readableBytesView)
        case (.nullBulk, .nullBulk), (.nullArray, .nullArray), (.null, .null): return true
        case (.array(let a), .array(let b)), (.push(let a), .push(let b)), (.sequence(let a), .sequence(let b)):
            return a == b
        case (.map(let a), .map(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.doubleText(let a), .doubleText(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.verbatim(let formatA, let a), .verbatim(let formatB, let b)): return formatA == formatB && a == b
        case (.rows(let rows), _): return rows.expanded == rhs
        case (_, .rows(let rows)): return lhs == rows.expanded
        default: return false
        }
    }
}
