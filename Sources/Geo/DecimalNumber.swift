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
        if let exact = exactValue(bytes[start..<end]) { return exact }
        return Double(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// Powers of ten a `Double` holds exactly: 10^0 through 10^22.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// The value of a decimal (as `isDecimal` accepts) without an exponent part, when its digits
    /// fit in 53 bits and it has at most 22 after the point: then both the digits and the power of
    /// ten are exact doubles, and their one correctly rounded quotient is the correctly rounded
    /// value (Clinger, "How to read floating point numbers accurately", 1990), as `Double(_:)`
    /// gives it. Nil otherwise: the caller then asks `Double(_:)`.
    private static func exactValue(_ text: ArraySlice<UInt8>) -> Double? {
        var index = text.startIndex
        let end = text.endIndex
        let negative = text[index] == UInt8(ascii: "-")
        if negative || text[index] == UInt8(ascii: "+") { index += 1 }
        var digits: UInt64 = 0
        var count = 0
        var fractionDigits = 0
        var inFraction = false
        while index < end {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if isDigit(byte) {
                // 19 digits cannot overflow 64 bits.
                guard count < 19 else { return nil }
                digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
                if digits > 0 { count += 1 }
                if inFraction { fractionDigits += 1 }
            } else {
                return nil  // an exponent part
            }
            index += 1
        }
        guard digits <= 1 << 53, fractionDigits <= 22 else { return nil }
        let value = Double(digits) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
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
