/// A local calendar date (proleptic Gregorian): year, month 1–12, day 1–31.
///
/// The fields are not checked (``isValid`` says whether the date exists); no operation on an
/// invalid date traps, but its results are only meaningful for dates that exist.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1–12) of `year`.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether the date exists: month 1–12 and day 1 up to the month's length.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CalendarDate.daysInMonth(month, year: year)
    }

    /// The following day, across month and year ends (years wrap at `Int.max` rather than trap).
    public var next: CalendarDate {
        if day < CalendarDate.daysInMonth(month, year: year) {
            return CalendarDate(year: year, month: month, day: day &+ 1)
        }
        if month < 12 { return CalendarDate(year: year, month: month &+ 1, day: 1) }
        return CalendarDate(year: year &+ 1, month: 1, day: 1)
    }

    /// The preceding day, across month and year starts (years wrap at `Int.min` rather than trap).
    public var previous: CalendarDate {
        if day > 1 { return CalendarDate(year: year, month: month, day: day &- 1) }
        if month > 1 {
            return CalendarDate(
                year: year, month: month &- 1, day: CalendarDate.daysInMonth(month &- 1, year: year))
        }
        return CalendarDate(year: year &- 1, month: 12, day: 31)
    }

    /// `year * 10_000 + month * 100 + day`: the key year, month and date ranges are compared on
    /// (wrapping rather than trapping for years beyond ±922 trillion).
    var key: Int { year &* 10_000 &+ month &* 100 &+ day }

    /// The ISO 8601 week number (1–53) of the date with `key` (``key``) and `weekday` (0 = Monday):
    /// week 1 is the week with the year's first Thursday.
    static func isoWeek(key: Int, weekday: Int) -> Int {
        let year = key / 10_000
        let month = key / 100 % 100
        var dayOfYear = key % 100
        for earlier in stride(from: 1, to: month, by: 1) { dayOfYear += daysInMonth(earlier, year: year) }
        let week = (dayOfYear - (weekday + 1) + 10) / 7
        if week < 1 { return weeksInYear(year - 1) }
        if week > weeksInYear(year) { return 1 }
        return week
    }

    /// 53 when the year starts on a Thursday, or is a leap year starting on a Wednesday; else 52.
    static func weeksInYear(_ year: Int) -> Int {
        // The weekday of 31 December (0 = Sunday): a long year ends on a Thursday, or follows a
        // year ending on a Wednesday.
        func lastDay(_ y: Int) -> Int { ((y + y / 4 - y / 100 + y / 400) % 7 + 7) % 7 }
        return lastDay(year) == 4 || lastDay(year - 1) == 3 ? 53 : 52
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public var description: String {
        let m = month < 10 ? "0\(month)" : "\(month)"
        let d = day < 10 ? "0\(day)" : "\(day)"
        return "\(year)-\(m)-\(d)"
    }
}
