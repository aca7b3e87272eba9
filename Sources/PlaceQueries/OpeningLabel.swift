import OpeningHours
import Places
import TextMap

/// How a place's opening state reads in text: short local times ("Thu 19:30") for the map and
/// the command line's lists, which have no room for RFC 3339.
///
/// The weekday stands in for the date because a change is at most 8 days ahead
/// (`OpeningClock.horizonSeconds`), and the reader does not need to know the query's own date to
/// read it; the time is the place's local wall clock, as `OpeningState` gives it.
///
/// ```swift
/// OpeningLabel.short("2026-11-26T19:30+01:00")  // "Thu 19:30"
/// OpeningLabel.text(state)                      // "open until Thu 19:30", "hours unknown"
/// ```
public enum OpeningLabel {
    /// English weekday abbreviations, Monday first (the order of `Weekday`).
    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// A local date-time as a weekday and a time: "Thu 19:30" for `2026-11-26T19:30+01:00`.
    ///
    /// - Parameter rfc3339: `YYYY-MM-DDTHH:MM`, optionally `:SS` (dropped) and an offset (`+01:00`,
    ///   `-05:00` or `Z`, ignored: the time stays the place's local one), as
    ///   `OpeningState.openUntil` and `opensAt` write it.
    /// - Returns: nil unless the text is such a date-time with a valid date (proleptic Gregorian),
    ///   hour 0–23 and minute 0–59.
    public static func short(_ rfc3339: String) -> String? {
        let characters = Array(rfc3339.utf8)
        guard characters.count >= 16, characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
            characters[10] == UInt8(ascii: "T") || characters[10] == UInt8(ascii: "t"),
            characters[13] == UInt8(ascii: ":"),
            let year = number(characters[0..<4]), let month = number(characters[5..<7]),
            let day = number(characters[8..<10]), let hour = number(characters[11..<13]),
            let minute = number(characters[14..<16]),
            (1...12).contains(month), (1...CalendarDate.daysInMonth(month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let weekday = Weekday(of: CalendarDate(year: year, month: month, day: day))
        return "\(weekdayNames[weekday.rawValue]) " + String(decoding: characters[11..<16], as: UTF8.self)
    }

    /// The state as the map draws and lists it, with short labels; a change time that does not
    /// read as a date-time is given as it is.
    public static func mapOpening(_ state: OpeningState) -> MapMarker.Opening {
        switch state.status {
        // "On duty until" only when the spell is what ends: a place that stays open by its hours
        // after its spell is "open until" its closing time.
        case .open:
            .open(
                until: state.openUntil.map { label($0, state) },
                onDuty: state.onDuty && (state.dutyEnds == nil || state.dutyEnds == state.nextChange))
        case .closed: .closed(opensAt: state.opensAt.map { label($0, state) })
        case .unknown: .unknown
        }
    }

    /// The state in words, as the map's list gives it: "open until Thu 19:30", "on duty until
    /// Fri 08:30", "closed, opens Mon 08:30", "closed", "hours unknown".
    public static func text(_ state: OpeningState) -> String {
        mapOpening(state).listText
    }

    /// The short label; with the date too when the change is six days away or more, where a
    /// weekday alone could be read as this week's ("Thu 3 Dec 10:00").
    private static func label(_ rfc3339: String, _ state: OpeningState) -> String {
        guard let short = short(rfc3339) else { return rfc3339 }
        guard (state.nextChangeAheadSeconds ?? 0) >= 6 * 86_400, let month = Int(rfc3339.dropFirst(5).prefix(2)),
            let day = Int(rfc3339.dropFirst(8).prefix(2)), (1...12).contains(month)
        else { return short }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(short.prefix(3)) + " \(day) \(months[month - 1])" + String(short.dropFirst(3))
    }

    /// The decimal digits as a number; nil if any is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
