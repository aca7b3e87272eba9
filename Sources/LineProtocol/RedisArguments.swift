import Foundation
import Geo
import RedisGeo

#if canImport(Glibc)
    import Glibc
#endif

/// Redis's parsing of command arguments (`src/object.c`, `src/util.c`), to the byte, so that
/// errors come at the same arguments and with the same words as Redis 7.0's.
enum RedisArguments {
    /// Redis `getDoubleFromObject`: C's `strtod` over the whole argument, refusing an empty text,
    /// a leading space, trailing characters (an embedded NUL included), NaN, and overflow or
    /// underflow to 0 (`ERANGE`). "inf", "1e3" and "0x1p4" are numbers, as for Redis.
    ///
    /// - Returns: the value, or nil where Redis replies "value is not a valid float" (or the
    ///   command's own message, such as "need numeric radius").
    static func double(_ text: String) -> Double? {
        if let plain = text.utf8.withContiguousStorageIfAvailable(plainDecimal), let value = plain { return value }
        guard let first = text.utf8.first, !isCSpace(first) else { return nil }
        let length = text.utf8.count
        return text.withCString { start -> Double? in
            errno = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            let overflow = errno == ERANGE && (value.isInfinite || value == 0)
            guard let end, UnsafePointer(end) - start == length, !overflow, !value.isNaN else { return nil }
            return value
        }
    }

    /// `strtod` of a plain decimal, `-`, digits and at most one point (no sign `+`, exponent,
    /// space or other byte), whose digits (at most 19, so at most 19 after the point) make an
    /// integer up to 2^53; nil for any other text. Such an integer and such a
    /// power of ten are both exact doubles, so their quotient, rounded once, is the decimal value
    /// correctly rounded: `strtod`'s own result (Clinger's fast path), without its general
    /// algorithm, which takes its multiple-precision path for most 17-digit coordinates.
    @inline(__always)
    static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var point = false
        while index < bytes.count {
            let byte = bytes[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                guard digits < 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                digits += 1
                fractionDigits += point ? 1 : 0
            } else if byte == UInt8(ascii: "."), !point {
                point = true
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, mantissa <= 1 << 53, fractionDigits < exactPowersOfTen.count else { return nil }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 10^0 ... 10^22: the powers of ten a double holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// Redis `string2ll`: an optional `-` and digits without leading zeros ("0" alone is zero),
    /// within `Int64`; no `+`, no spaces.
    ///
    /// - Returns: the value, or nil where Redis replies "value is not an integer or out of range".
    static func integer(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { RESPRequestDecoder.parseInteger($0) }
    }

    /// Whether an argument is `keyword` (given in lower case) as C's `strcasecmp` compares: ASCII
    /// letters in either case, nothing else folded, and the comparison ends at a NUL byte.
    static func matches(_ argument: String, _ keyword: String) -> Bool {
        let contiguous = argument.utf8.withContiguousStorageIfAvailable { argument in
            keyword.utf8.withContiguousStorageIfAvailable { keyword in matches(argument, keyword) }
        }
        if let contiguous, let found = contiguous { return found }
        // Shorter than the keyword, or longer without a NUL right after its length: no match
        // (most arguments a command tries against its keywords fail here).
        let length = keyword.utf8.count
        let argumentLength = argument.utf8.count
        if argumentLength < length { return false }
        // First bytes that differ even with bit 0x20 set cannot match (a necessary condition; the loop
        // decides): most keywords tried are refused here, without walking the views.
        if let first = argument.utf8.first, let keywordFirst = keyword.utf8.first, first | 0x20 != keywordFirst | 0x20 {
            return false
        }
        if argumentLength > length, argument.utf8[argument.utf8.index(argument.utf8.startIndex, offsetBy: length)] != 0
        {
            return false
        }
        var keywordBytes = keyword.utf8.makeIterator()
        for byte in argument.utf8 {
            if byte == 0 { break }
            let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            guard keywordBytes.next() == lowered else { return false }
        }
        return keywordBytes.next() == nil
    }

    /// `matches` on the texts' UTF-8 bytes.
    @inline(__always)
    private static func matches(_ argument: UnsafeBufferPointer<UInt8>, _ keyword: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = keyword.count
        // Shorter than the keyword, or longer without a NUL right after its length: no match. A
        // NUL before it cannot match a keyword's letter.
        guard argument.count >= length, argument.count == length || argument[length] == 0 else { return false }
        for index in 0..<length {
            let byte = argument[index]
            let lowered = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
            if lowered != keyword[index] { return false }
        }
        return true
    }

    /// C's `isspace` in the "C" locale: space, tab, line feed, vertical tab, form feed, return.
    private static func isCSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}

extension CommandFailure {
    /// Redis's reply to a number it cannot read (`getDoubleFromObjectOrReply`).
    static let notAFloat = CommandFailure.error("value is not a valid float")
    /// Redis's reply to an integer it cannot read (`getLongLongFromObjectOrReply`).
    static let notAnInteger = CommandFailure.error("value is not an integer or out of range")

    /// A reply of `RedisGeoMessage`, which holds the whole line.
    static func redis(_ line: String) -> CommandFailure { CommandFailure(line: line) }
}
