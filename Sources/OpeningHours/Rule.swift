/// An inclusive range of dates, compared on `CalendarDate.key` (`year * 10_000 + month * 100 + day`).
struct DateRange: Sendable, Equatable {
    /// The first and last date of the range. With `absolute`, whole keys (`2021 Mar 28-Apr 16`);
    /// otherwise `month * 100 + day` keys of every year, and `from > to` wraps over the new year
    /// (`Dec 24-Jan 06`).
    var from: Int
    var to: Int
    /// Whether `from` and `to` carry years.
    var absolute = false
    /// For a range of every year: the one year it is limited to (`2026 Dec`, `2026 Nov-Jan`), or 0.
    var year = 0

    @inline(__always)
    func contains(_ key: Int) -> Bool {
        if absolute { return from <= key && key <= to }
        if year != 0 && key / 10_000 != year { return false }
        let monthDay = key % 10_000
        return from <= to ? (from <= monthDay && monthDay <= to) : (monthDay >= from || monthDay <= to)
    }
}

/// An inclusive range of years or ISO week numbers with a period: `2026`, `2020-2030/2`, `2026+`,
/// `week 02-52/2`.
struct SteppedRange: Sendable, Equatable {
    var from: Int
    /// `Int.max` for an open range (`2026+`).
    var to: Int
    /// Every `step`-th number from `from` (1: every one).
    var step = 1

    @inline(__always)
    func contains(_ number: Int) -> Bool {
        from <= number && number <= to && (step == 1 || (number - from) % step == 0)
    }
}

/// A half-open span of minutes since the rule's day's midnight; `end` may reach 2880 (the next day).
struct Span: Sendable, Equatable {
    var start: Int
    var end: Int
}

/// How a rule combines with the rules before it (the separator written before it).
enum RuleOperator: Sendable {
    /// `;` (and the first rule).
    case normal
    /// `,`: adds its times to what the earlier rules say.
    case additional
    /// `||`: applies only where the earlier rules say nothing.
    case fallback
}

/// The selectors of a rule by year, date, week and occurrence of a weekday in its month. Most
/// rules have none, so they are kept out of line: a rule copied while evaluating holds one
/// reference for them, not four arrays.
final class DateSelectors: Sendable {
    /// Empty: every year.
    let years: [SteppedRange]
    /// Empty: every date.
    let dates: [DateRange]
    /// ISO 8601 week numbers (`week 01-10`); empty: every week.
    let weeks: [SteppedRange]
    /// Empty, or for each weekday (0 = Monday) the occurrences in its month the rule selects
    /// (`Su[2]`, `Th[-1]`): bit `n - 1` for the n-th (1–5), bit `4 + n` for the n-th from the end.
    let nth: [UInt16]

    init(years: [SteppedRange], dates: [DateRange], weeks: [SteppedRange], nth: [UInt16]) {
        self.years = years
        self.dates = dates
        self.weeks = weeks
        self.nth = nth
    }

    /// Every occurrence of a weekday in its month: the first to fifth and the last to fifth-last.
    static let everyOccurrence: UInt16 = 0x3FF

    /// Whether the years, dates and weeks select the day with `CalendarDate.key` `key`.
    func selects(key: Int, weekday: Int) -> Bool {
        if !years.isEmpty {
            let year = key / 10_000
            var inYears = false
            for range in years where range.contains(year) {
                inYears = true
                break
            }
            if !inYears { return false }
        }
        if !dates.isEmpty {
            var inDates = false
            for range in dates where range.contains(key) {
                inDates = true
                break
            }
            if !inDates { return false }
        }
        if !weeks.isEmpty {
            let week = CalendarDate.isoWeek(key: key, weekday: weekday)
            var inWeeks = false
            for range in weeks where range.contains(week) {
                inWeeks = true
                break
            }
            if !inWeeks { return false }
        }
        return true
    }

    /// Whether the occurrence of the day's weekday in its month is one the rule selects.
    func selectsOccurrence(key: Int, weekday: Int) -> Bool {
        guard !nth.isEmpty, nth[weekday] != DateSelectors.everyOccurrence else { return true }
        let day = min(max(key % 100, 1), 31)
        let length = CalendarDate.daysInMonth(key / 100 % 100, year: key / 10_000)
        let fromStart = min((day - 1) / 7, 4)
        let fromEnd = min(max(length - day, 0) / 7, 4)
        return nth[weekday] & (1 << UInt16(fromStart) | 1 << UInt16(5 + fromEnd)) != 0
    }
}

/// One compiled rule.
struct Rule: Sendable {
    var separator = RuleOperator.normal
    /// Bit `n` set: the rule applies on `Weekday(rawValue: n)`.
    var weekdays: UInt8 = 0
    /// `PH` among the day selectors.
    var publicHolidays = false
    /// nil: every date.
    var byDate: DateSelectors?
    /// Empty only while parsing; a rule without times gets the whole day.
    var spans: [Span] = []
    /// Whether the spans cover the whole of a day the rule selects: with their own parts, with the
    /// parts past midnight of the day before, and with both (set once parsed).
    var ownCoversDay = false
    var spillCoversDay = false
    var bothCoverDay = false
    var status: OpeningHours.Status = .open
    var comment: String?

    /// Whether a span runs past midnight into the following day (set once parsed).
    var spillsOver = false
    /// Whether the rule's times say anything besides "closed": open or unknown, or a comment
    /// (set once parsed). A rule that is not `live` counts as saying nothing where a later `;` or
    /// `||` rule asks whether earlier rules said anything about a day.
    var live = true

    /// Whether the rule's selectors select the day whose `CalendarDate.key` is `key`.
    @inline(__always)
    func selects(key: Int, weekday: Int, holiday: Bool) -> Bool {
        if let byDate, !byDate.selects(key: key, weekday: weekday) { return false }
        if weekdays == 0 && !publicHolidays { return true }
        if weekdays & (1 << UInt8(weekday)) != 0 {
            guard let byDate else { return true }
            if byDate.selectsOccurrence(key: key, weekday: weekday) { return true }
        }
        return publicHolidays && holiday
    }
}
