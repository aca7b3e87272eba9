import Foundation
import OpeningHours

/// The moment a question about opening hours is asked for (`--open`, `OPEN`, `open=`).
public enum OpeningMoment: Sendable, Hashable {
    /// The time the query runs.
    case now
    /// An absolute instant, seconds since 1970-01-01T00:00Z.
    case instant(Int64)
    /// A wall-clock time read in each place's own zone ("at 22:00 on Christmas Eve, wherever").
    case local(LocalTime)

    /// What `parse` accepts, for messages.
    public static let expected =
        "now, a time with its UTC offset (2026-12-24T22:00+01:00, 2026-12-24T21:00Z) or a local time in each place's zone (2026-12-24T22:00): years 1900-9999, hours 00-23, offsets up to ±23:59, seconds only with an offset"

    /// Reads `now`, an RFC 3339 date-time with `Z` or an offset (seconds optional, fractions
    /// refused), or a date-time without offset; nil for anything else.
    public init?(parsing text: String) {
        if text.lowercased() == "now" {
            self = .now
            return
        }
        let bytes = Array(text.utf8)
        guard bytes.count >= 16 else { return nil }
        var clockLength = 16
        if bytes.count >= 19, bytes[16] == UInt8(ascii: ":") { clockLength = 19 }
        guard let wall = DutyRota.localTime(String(decoding: bytes[0..<16], as: UTF8.self)) else { return nil }
        var seconds = 0
        if clockLength == 19 {
            guard let tens = ASCIIDigits.value(bytes[17]), let ones = ASCIIDigits.value(bytes[18]), tens < 6 else {
                return nil
            }
            seconds = tens * 10 + ones
        }
        let rest = bytes[clockLength...]
        if rest.isEmpty {
            guard seconds == 0 else { return nil }
            self = .local(wall)
            return
        }
        var offset = 0
        if rest.count == 1, rest.first == UInt8(ascii: "Z") || rest.first == UInt8(ascii: "z") {
            offset = 0
        } else if rest.count == 6, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            rest[rest.startIndex + 3] == UInt8(ascii: ":"),
            let h1 = ASCIIDigits.value(rest[rest.startIndex + 1]),
            let h2 = ASCIIDigits.value(rest[rest.startIndex + 2]),
            let m1 = ASCIIDigits.value(rest[rest.startIndex + 4]),
            let m2 = ASCIIDigits.value(rest[rest.startIndex + 5]),
            h1 * 10 + h2 <= 23, m1 * 10 + m2 <= 59
        {
            offset = ((h1 * 10 + h2) * 60 + m1 * 10 + m2) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        self = .instant(CivilTime.seconds(ofWallClock: wall) + Int64(seconds) - Int64(offset))
    }
}

/// Decimal digits in bytes.
enum ASCIIDigits {
    static func value(_ byte: UInt8) -> Int? { byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil }
}
