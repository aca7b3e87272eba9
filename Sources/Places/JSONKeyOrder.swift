/// The order in which a GeoJSON document writes each feature's property names, which
/// `JSONSerialization` forgets (it gives objects as dictionaries). `GeoJSONReader` keeps a
/// place's attributes in this order, so that `export --format geojson` and `import` of its output
/// give back the same file byte for byte, as CSV does.
///
/// A scan of the bytes `JSONSerialization` has already accepted: it follows `features[i].properties`
/// and skips every other value without building it.
struct JSONKeyOrder {
    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// For each element of the root object's `features` array, the names in its `properties`
    /// object in document order (empty when it has none); nil when the text is not a JSON object
    /// with such an array.
    static func featureProperties(in bytes: [UInt8]) -> [[String]]? {
        var scanner = JSONKeyOrder(bytes)
        return scanner.root()
    }

    private mutating func root() -> [[String]]? {
        var found: [[String]]?
        let scanned = members { scanner, key in
            if key == "features" {
                guard let features = scanner.features() else { return false }
                found = features
                return true
            }
            return scanner.skipValue()
        }
        return scanned ? found : nil
    }

    private mutating func features() -> [[String]]? {
        skipWhiteSpace()
        guard peek == UInt8(ascii: "[") else { return nil }
        position += 1
        var result: [[String]] = []
        skipWhiteSpace()
        if peek == UInt8(ascii: "]") {
            position += 1
            return result
        }
        while true {
            skipWhiteSpace()
            var names: [String] = []
            if peek == UInt8(ascii: "{") {
                let scanned = members { scanner, key in
                    guard key == "properties" else { return scanner.skipValue() }
                    scanner.skipWhiteSpace()
                    guard scanner.peek == UInt8(ascii: "{") else { return scanner.skipValue() }
                    var keys: [String] = []
                    let read = scanner.members { inner, key in
                        keys.append(key)
                        return inner.skipValue()
                    }
                    names = keys
                    return read
                }
                guard scanned else { return nil }
            } else {
                guard skipValue() else { return nil }
            }
            result.append(names)
            skipWhiteSpace()
            guard let next = peek else { return nil }
            position += 1
            if next == UInt8(ascii: "]") { return result }
            guard next == UInt8(ascii: ",") else { return nil }
            if closes(with: UInt8(ascii: "]")) { return result }
        }
    }

    /// Reads an object at the current position, calling `member` with each key once the scanner
    /// stands before its value (which `member` must consume). False for malformed text.
    private mutating func members(_ member: (inout JSONKeyOrder, String) -> Bool) -> Bool {
        skipWhiteSpace()
        guard peek == UInt8(ascii: "{") else { return false }
        position += 1
        skipWhiteSpace()
        if peek == UInt8(ascii: "}") {
            position += 1
            return true
        }
        while true {
            skipWhiteSpace()
            guard let key = string() else { return false }
            skipWhiteSpace()
            guard peek == UInt8(ascii: ":") else { return false }
            position += 1
            guard member(&self, key) else { return false }
            skipWhiteSpace()
            guard let next = peek else { return false }
            position += 1
            if next == UInt8(ascii: "}") { return true }
            guard next == UInt8(ascii: ",") else { return false }
            if closes(with: UInt8(ascii: "}")) { return true }
        }
    }

    /// After a comma: whether the container ends here (a trailing comma, which `JSONSerialization`
    /// takes), consuming its closing byte if so.
    private mutating func closes(with closing: UInt8) -> Bool {
        skipWhiteSpace()
        guard peek == closing else { return false }
        position += 1
        return true
    }

    private mutating func skipValue() -> Bool {
        skipWhiteSpace()
        guard let first = peek else { return false }
        switch first {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "{"):
            return members { scanner, _ in scanner.skipValue() }
        case UInt8(ascii: "["):
            position += 1
            skipWhiteSpace()
            if peek == UInt8(ascii: "]") {
                position += 1
                return true
            }
            while true {
                guard skipValue() else { return false }
                skipWhiteSpace()
                guard let next = peek else { return false }
                position += 1
                if next == UInt8(ascii: "]") { return true }
                guard next == UInt8(ascii: ",") else { return false }
                if closes(with: UInt8(ascii: "]")) { return true }
            }
        default:
            // A number, true, false or null: up to the next delimiter.
            let start = position
            while let byte = peek, !Self.delimiters.contains(byte) { position += 1 }
            return position > start
        }
    }

    /// A string literal's text, escapes decoded (`\u00e9`, surrogate pairs included).
    private mutating func string() -> String? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        position += 1
        let start = position
        var escaped = false
        while let byte = peek, byte != UInt8(ascii: "\"") {
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position += 1
            }
            position += 1
        }
        guard position < bytes.count else { return nil }
        let content = bytes[start..<position]
        position += 1
        return escaped ? Self.unescaped(content) : String(decoding: content, as: UTF8.self)
    }

    private static func unescaped(_ content: ArraySlice<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        var raw: [UInt8] = []
        func flushRaw() {
            if !raw.isEmpty { scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars) }
            raw.removeAll()
        }
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.endIndex else {
                raw.append(byte)
                index += 1
                continue
            }
            flushRaw()
            let code = content[index + 1]
            index += 2
            if let scalar = simpleEscapes[code] {
                scalars.append(scalar)
                continue
            }
            guard code == UInt8(ascii: "u"), index + 4 <= content.endIndex,
                let value = UInt32(String(decoding: content[index..<index + 4], as: UTF8.self), radix: 16)
            else { return nil }
            index += 4
            if (0xD800..<0xDC00).contains(value) {
                pendingHigh = value
                continue
            }
            if (0xDC00..<0xE000).contains(value), let high = pendingHigh {
                pendingHigh = nil
                guard let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)) else {
                    return nil
                }
                scalars.append(scalar)
                continue
            }
            // A lone surrogate: JSONSerialization takes it as U+FFFD.
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        flushRaw()
        return String(scalars)
    }

    private static let simpleEscapes: [UInt8: Unicode.Scalar] = [
        UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
        UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
    ]

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhiteSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private static let delimiters: Set<UInt8> = [
        UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D,
    ]
}
