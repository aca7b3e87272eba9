/// Hides secrets in the arguments `MONITOR`, `SLOWLOG` and unknown-command errors show.
///
/// Redis 7.0 redacts AUTH's arguments and HELLO's AUTH username and password as `(redacted)`
/// (`redactClientCommandArgument`, `src/networking.c`); Vicinity also redacts any argument shaped
/// like one of its tokens (43 base64url characters, `Token.issue`), wherever it appears: a token
/// pasted in the wrong place is still a token.
enum ArgumentRedaction {
    static let placeholder = "(redacted)"

    /// `argv` (the command's name first) with its secrets replaced.
    static func redacted(_ argv: [String]) -> [String] {
        guard let name = argv.first?.uppercased() else { return argv }
        var shown = argv.map { looksLikeToken($0) ? placeholder : $0 }
        if name == "AUTH" {
            for index in shown.indices.dropFirst() { shown[index] = placeholder }
        } else if name == "HELLO" {
            var index = 2
            while index < shown.count {
                if argv[index].uppercased() == "AUTH" {
                    for secret in [index + 1, index + 2] where secret < shown.count { shown[secret] = placeholder }
                    index += 3
                } else {
                    index += 1
                }
            }
        }
        return shown
    }

    /// Whether `text` has a token's shape: 43 characters of the base64url alphabet.
    static func looksLikeToken(_ text: String) -> Bool {
        text.utf8.count == 43
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// An argument as Redis quotes it in MONITOR lines (`sdscatrepr`): in double quotes, with `\\`,
    /// `\"`, `\n`, `\r`, `\t`, `\a`, `\b` escaped and other unprintable bytes as `\xHH`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\""): out += "\\\""
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x07: out += "\\a"
            case 0x08: out += "\\b"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return out + "\""
    }
}
