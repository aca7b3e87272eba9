import Foundation

/// Turns values from `JSONSerialization` back into text: for attributes and for error messages.
enum JSONText {
    /// A JSON number's value; nil for anything else, booleans included (`JSONSerialization` gives
    /// both as `NSNumber`; a boolean's `objCType` is `c`, which no JSON number produces).
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    /// An attribute's text: strings as they are, numbers as written, `true`/`false`, null → empty,
    /// arrays and objects as compact JSON.
    static func attribute(_ value: Any) -> String {
        switch value {
        case let text as String: return text
        case is NSNull: return ""
        default: return literal(value)
        }
    }

    /// The value as JSON text: `"abc"`, `12`, `true`, `null`, `[1,2]`.
    static func literal(_ value: Any) -> String {
        switch value {
        case let text as String: return encoded(text)
        case is NSNull: return "null"
        case let number as NSNumber: return isBoolean(number) ? (number.boolValue ? "true" : "false") : format(number)
        default: return encoded(value)
        }
    }

    /// A number without a needless fraction: `3.0` → `3`, `1.5` → `1.5`, large integers exactly.
    static func format(_ number: NSNumber) -> String {
        let type = String(cString: number.objCType)
        guard type == "d" || type == "f" else { return number.stringValue }
        let value = number.doubleValue
        // Below 2^53 every integer is exact; 1e15 keeps the text short and clearly integral.
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    private static func encoded(_ value: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else {
            return String(describing: value)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
