/// Compact JSON written straight into bytes, for the large answers (`/v1/nearby`, `/v1/nearest`):
/// Foundation's `JSONEncoder`, which the generated server uses for every JSON body, spent 740 µs
/// on a list of 250 places (62 % of the server's time under load); this writes it in about a
/// tenth of that.
///
/// The caller writes the punctuation (`{`, `,`, `:`) with `raw`, and values with `string`,
/// `number` and `integer`. Numbers are the shortest text that reads back to the same `Double`
/// (Swift's `description`; integral values without ".0", and -0 as 0, which reads back equal);
/// strings escape `"`, `\` and the control characters U+0000…U+001F, as RFC 8259 requires, and
/// keep all other UTF-8 as it is.
struct JSONText {
    private(set) var bytes: [UInt8] = []
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// - Parameter capacity: bytes to reserve.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Makes room for `count` more bytes at once.
    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Appends ASCII punctuation or a literal key, as it is.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `"key":`.
    mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Appends a JSON string.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most names need no escape: copy them whole.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    JSONText.hexDigits[Int(byte >> 4)], JSONText.hexDigits[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a number: the shortest decimal that reads back to `value`; `null` for NaN and
    /// infinities, which JSON cannot write (no answer of the API holds one).
    mutating func number(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        // Integral values below 2^53 without ".0", as JSONEncoder writes them.
        if value == value.rounded(.towardZero), abs(value) < 0x1p53 {
            return integer(Int(value))
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends a whole number.
    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
