/// Parses a number as a person writes it in a data file or on a command line, strictly: the one
/// grammar every front end shares for coordinates, radii and counts.
///
/// Accepted: optional spaces or tabs, an optional sign, digits with an optional decimal point
/// (`12`, `12.5`, `.5`, `12.`), an optional exponent (`1e-3`), optional spaces or tabs. Rejected,
/// although Swift's `Double(_:)` accepts them: `nan`, `inf`, `infinity`, hex floats (`0x1p3`).
/// Rejected as anything else: empty text, `12abc`, `1,5`. Text that parses to infinity (`1e999`)
/// passes here and is rejected by the range check in `Coordinate`.
public enum DecimalNumber {
    /// The number written in `text`, or nil if the text is not a plain decimal number.
    public static func parse(_ text: String) -> Double? { parse(Array(text.utf8)[...]) }

    /// The number written in `bytes`, or nil if the text is not a plain decimal number.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> Double? {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        guard isDecimal(bytes[start..<end]) else { return nil }
        return Double(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `[+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?`
    private static func isDecimal(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        let end = text.endIndex
        if index < end, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
        var mantissaDigits = 0
        while index < end, isDigit(text[index]) {
            index += 1
            mantissaDigits += 1
        }
        if index < end, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < end, isDigit(text[index]) {
                index += 1
                mantissaDigits += 1
            }
        }
        guard mantissaDigits > 0 else { return false }
        if index < end, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < end, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < end, isDigit(text[index]) {
                index += 1
                exponentDigits += 1
            }
            guard exponentDigits > 0 else { return false }
        }
        return index == end
    }
}
