import Foundation

/// A place's attributes in the `attributes` column: a JSON array of `[name, value]` pairs, which
/// keeps their order (`[["city","Istanbul"],["phone","0212"]]`).
///
/// Decoding takes a fast path for the text `encode` writes and falls back to `JSONSerialization`
/// for anything else (a hand edit); pairs that are not two strings are ignored. Every store writes
/// this one form (SQLite's `place.attributes`, PostgreSQL's `vicinity_place.attributes`).
public enum AttributeCoding {
    /// Shares one name-order array among the places that have the same attribute names, as the
    /// rows of one import do.
    public struct NameCache: Sendable {
        var last: [String] = []

        public init() {}
    }

    /// The attribute texts of many places in one buffer: place `i`'s text is
    /// `bytes[ends[i - 1]..<ends[i]]` (from 0 for the first).
    public struct Encoded: Sendable {
        public internal(set) var bytes: [UInt8] = []
        public internal(set) var ends: [Int] = []

        public init() {}

        /// Where place `offset`'s text lies in `bytes`.
        public func range(of offset: Int) -> Range<Int> {
            (offset == 0 ? 0 : ends[offset - 1])..<ends[offset]
        }
    }

    /// `encode` for every place, into one buffer. Places that share their attribute-name array
    /// (the rows of one file) share the encoded names too.
    public static func encodeAll(_ places: [Place]) -> Encoded {
        var encoded = Encoded()
        encoded.bytes.reserveCapacity(places.count * 48)
        encoded.ends.reserveCapacity(places.count)
        var lastNames: [String] = []
        var nameTexts: [[UInt8]] = []
        for place in places {
            if place.attributeNames != lastNames {
                lastNames = place.attributeNames
                nameTexts = lastNames.map { name in
                    var text: [UInt8] = []
                    appendString(name, to: &text)
                    return text
                }
            }
            encoded.bytes.append(UInt8(ascii: "["))
            var first = true
            for (index, value) in place.attributeValues.enumerated() {
                if !first { encoded.bytes.append(UInt8(ascii: ",")) }
                first = false
                encoded.bytes.append(UInt8(ascii: "["))
                encoded.bytes.append(contentsOf: nameTexts[index])
                encoded.bytes.append(UInt8(ascii: ","))
                appendString(value, to: &encoded.bytes)
                encoded.bytes.append(UInt8(ascii: "]"))
            }
            encoded.bytes.append(UInt8(ascii: "]"))
            encoded.ends.append(encoded.bytes.count)
        }
        return encoded
    }

    /// A JSON string literal as UTF-8 bytes.
    private static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public static func encode(_ place: Place) -> String {
        String(decoding: encodeAll([place]).bytes, as: UTF8.self)
    }

    /// The names and values of an `attributes` text; the names array is shared with the previous
    /// row's when they are the same.
    public static func decode(_ text: String, names cache: inout NameCache) -> (names: [String], values: [String]) {
        let pairs = fastPairs(text) ?? slowPairs(text)
        var names: [String] = []
        var values: [String] = []
        names.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for (name, value) in pairs where !names.contains(name) {
            names.append(name)
            values.append(value)
        }
        if names == cache.last { return (cache.last, values) }
        cache.last = names
        return (names, values)
    }

    /// The pairs of text shaped exactly as `encode` writes it without escapes; nil otherwise.
    private static func fastPairs(_ text: String) -> [(String, String)]? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { bytes -> [(String, String)]? in
            var position = 0
            func expect(_ byte: UInt8) -> Bool {
                guard position < bytes.count, bytes[position] == byte else { return false }
                position += 1
                return true
            }
            func string() -> String? {
                guard expect(UInt8(ascii: "\"")) else { return nil }
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    if bytes[position] == UInt8(ascii: "\\") { return nil }
                    position += 1
                }
                guard position < bytes.count else { return nil }
                let result = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return result
            }
            guard expect(UInt8(ascii: "[")) else { return nil }
            var pairs: [(String, String)] = []
            if expect(UInt8(ascii: "]")) { return position == bytes.count ? pairs : nil }
            repeat {
                guard expect(UInt8(ascii: "[")), let name = string(), expect(UInt8(ascii: ",")), let value = string(),
                    expect(UInt8(ascii: "]"))
                else { return nil }
                pairs.append((name, value))
            } while expect(UInt8(ascii: ","))
            guard expect(UInt8(ascii: "]")), position == bytes.count else { return nil }
            return pairs
        }
    }

    private static func slowPairs(_ text: String) -> [(String, String)] {
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else { return [] }
        return array.compactMap { element in
            guard let pair = element as? [Any], pair.count == 2, let name = pair[0] as? String,
                let value = pair[1] as? String
            else { return nil }
            return (name, value)
        }
    }
}
