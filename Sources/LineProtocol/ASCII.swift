/// The bytes the line protocol gives a meaning to, as constants (cheaper than `UInt8(ascii:)` in a debug
/// build, where the decoder's fuzz test runs).
enum ASCII {
    static let tab: UInt8 = 0x09  // \t
    static let newline: UInt8 = 0x0A  // \n
    static let verticalTab: UInt8 = 0x0B  // \v
    static let formFeed: UInt8 = 0x0C  // \f
    static let carriageReturn: UInt8 = 0x0D  // \r
    static let space: UInt8 = 0x20
    static let doubleQuote: UInt8 = 0x22  // "
    static let dollar: UInt8 = 0x24  // $
    static let singleQuote: UInt8 = 0x27  // '
    static let asterisk: UInt8 = 0x2A  // *
    static let minus: UInt8 = 0x2D  // -
    static let zero: UInt8 = 0x30  // 0
    static let one: UInt8 = 0x31  // 1
    static let nine: UInt8 = 0x39  // 9
    static let backslash: UInt8 = 0x5C  // \
    static let lowercaseX: UInt8 = 0x78  // x

    /// Whether C's `isspace` holds in the "C" locale: space, `\t`, `\n`, `\v`, `\f`, `\r`.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == space || (byte >= tab && byte <= carriageReturn)
    }

    /// Whether the byte is a decimal digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= zero && byte <= nine
    }

    /// The value of a hexadecimal digit (`0-9`, `a-f`, `A-F`), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// The byte with `A-Z` mapped to `a-z`.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The byte as it appears in an error reason: printable ASCII as itself, anything else as `\xHH`, so a
    /// reason never carries a line end into a `-ERR` reply.
    static func printable(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
