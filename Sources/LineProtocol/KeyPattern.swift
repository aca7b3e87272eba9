/// A glob pattern as Redis matches keys in `KEYS` and `SCAN … MATCH` (`stringmatchlen`,
/// `src/util.c`): `*` any run of bytes, `?` one byte, `[abc]`, `[a-z]` and `[^abc]` one byte of
/// (or not of) a set, `\x` the byte `x` itself. Case-sensitive, on bytes.
struct KeyPattern: Sendable {
    private let pattern: [UInt8]

    init(_ text: String) { pattern = Array(text.utf8) }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool { Self.match(pattern[...], Array(text.utf8)[...]) }

    private static func match(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var pattern = pattern
        var text = text
        while let head = pattern.first {
            switch head {
            case UInt8(ascii: "*"):
                while pattern.first == UInt8(ascii: "*") { pattern = pattern.dropFirst() }
                if pattern.isEmpty { return true }
                var rest = text
                while true {
                    if match(pattern, rest) { return true }
                    if rest.isEmpty { return false }
                    rest = rest.dropFirst()
                }
            case UInt8(ascii: "?"):
                guard !text.isEmpty else { return false }
                text = text.dropFirst()
                pattern = pattern.dropFirst()
            case UInt8(ascii: "["):
                guard let byte = text.first else { return false }
                pattern = pattern.dropFirst()
                let negated = pattern.first == UInt8(ascii: "^")
                if negated { pattern = pattern.dropFirst() }
                var matched = false
                while let member = pattern.first, member != UInt8(ascii: "]") {
                    if member == UInt8(ascii: "\\"), pattern.count >= 2 {
                        pattern = pattern.dropFirst()
                        if pattern.first == byte { matched = true }
                        pattern = pattern.dropFirst()
                    } else if pattern.count >= 3, pattern[pattern.startIndex + 1] == UInt8(ascii: "-") {
                        let low = min(member, pattern[pattern.startIndex + 2])
                        let high = max(member, pattern[pattern.startIndex + 2])
                        if (low...high).contains(byte) { matched = true }
                        pattern = pattern.dropFirst(3)
                    } else {
                        if member == byte { matched = true }
                        pattern = pattern.dropFirst()
                    }
                }
                pattern = pattern.dropFirst()  // the `]`, when there is one
                guard matched != negated else { return false }
                text = text.dropFirst()
            default:
                var literal = head
                if head == UInt8(ascii: "\\"), pattern.count >= 2 {
                    pattern = pattern.dropFirst()
                    literal = pattern.first ?? head
                }
                guard text.first == literal else { return false }
                text = text.dropFirst()
                pattern = pattern.dropFirst()
            }
        }
        return text.isEmpty
    }
}
