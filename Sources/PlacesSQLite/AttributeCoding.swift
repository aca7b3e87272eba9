import Foundation
import Places

/// A place's attributes in the `attributes` column: a JSON array of `[name, value]` pairs, which
/// keeps their order (`[["city","Istanbul"],["phone","0212"]]`).
///
/// Decoding takes a fast path for the text `encode` writes and falls back to `JSONSerialization`
/// for anything else (a hand edit); pairs that are not two strings are ignored.
enum AttributeCoding {
    /// Shares one name-order array among the places that have the same attribute names, as the
    /// rows of one import do.
    struct NameCache {
        var last: [String] = []
    }

    static func encode(_ place: Place) -> String {
        var text = "["
        var first = true
        for name in place.attributeNames {
            guard let value = place.attributes[name] else { continue }
            text += first ? "[" : ",["
            first = false
            appendString(name, to: &text)
            text += ","
            appendString(value, to: &text)
            text += "]"
        }
        return text + "]"
    }

    /// A JSON string literal, without escaping work for text that needs none.
    private static func appendString(_ value: String, to text: inout String) {
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            text += "\""
            text += value
            text += "\""
        } else {
            text += PlaceWriter.jsonString(value)
        }
    }

    static func decode(_ text: String, names cache: inout NameCache) -> ([String: String], [String]) {
        let pairs = fastPairs(text) ?? slowPairs(text)
        var attributes: [String: String] = [:]
        var names: [String] = []
        attributes.reserveCapacity(pairs.count)
        names.reserveCapacity(pairs.count)
        for (name, value) in pairs where attributes.updateValue(value, forKey: name) == nil { names.append(name) }
        if names == cache.last { return (attributes, cache.last) }
        cache.last = names
        return (attributes, names)
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
