import Foundation
import OpeningHours

/// Conversions between absolute instants (seconds since 1970-01-01T00:00Z) and local wall-clock
/// times, by the proleptic Gregorian calendar.
enum CivilTime {
    /// The days since 1970-01-01 of a date.
    static func days(of date: CalendarDate) -> Int64 {
        // Years counted from March, so the leap day ends a year; eras of 400 years.
        let year = Int64(date.month <= 2 ? date.year - 1 : date.year)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let month = Int64(date.month)
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(date.day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01.
    static func date(days: Int64) -> CalendarDate {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return CalendarDate(year: Int(year), month: Int(month), day: Int(day))
    }

    /// The local time `offsetSeconds` east of UTC at an instant, to the minute (seconds dropped).
    static func local(_ seconds: Int64, offsetSeconds: Int) -> LocalTime {
        let local = seconds + Int64(offsetSeconds)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let minute = Int((local - days * 86_400) / 60)
        let weekday = Weekday(rawValue: Int(((days + 3) % 7 + 7) % 7))!
        return LocalTime(checkedDate: date(days: days), weekday: weekday, minute: minute)
    }

    /// Seconds since 1970 of a local time read as if it were UTC.
    static func seconds(ofWallClock time: LocalTime) -> Int64 {
        days(of: time.date) * 86_400 + Int64(time.minute) * 60
    }

    /// The instant a local time denotes in `zone`. In an autumn overlap the earlier of the two; a
    /// time that a spring change skips denotes the instant of the change.
    static func instant(of time: LocalTime, in zone: TimeZone) -> Int64 {
        let wall = seconds(ofWallClock: time)
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall)))
        var instant = wall - Int64(guess)
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        if offset != guess {
            instant = wall - Int64(offset)
            let settled = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
            if settled != offset {
                // Skipped: the wall time falls in a spring gap; the change is the gap's start.
                let before = Date(timeIntervalSince1970: Double(min(instant, wall - Int64(guess)) - 86_400))
                if let change = zone.nextDaylightSavingTimeTransition(after: before) {
                    return Int64(change.timeIntervalSince1970.rounded(.down))
                }
            }
        }
        // The earlier of two readings in an overlap (of half an hour, an hour or two): an instant that
        // much earlier reads the same wall time too.
        for shift in [1_800, 3_600, 7_200] as [Int64] {
            let earlier = instant - shift
            let earlierOffset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(earlier)))
            if earlier + Int64(earlierOffset) == wall { return earlier }
        }
        return instant
    }
}
