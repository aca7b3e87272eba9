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

/// An inclusive range of years with a period: `2026`, `2020-2030`, `2020-2030/2`, `2026+`.
struct YearRange: Sendable, Equatable {
    var from: Int
    /// `Int.max` for an open range (`2026+`).
    var to: Int
    /// Every `step`-th year from `from` (1: every year).
    var step = 1

    @inline(__always)
    func contains(_ year: Int) -> Bool { from <= year && year <= to && (step == 1 || (year - from) % step == 0) }
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

/// One compiled rule.
struct Rule: Sendable {
    var separator = RuleOperator.normal
    /// Bit `n` set: the rule applies on `Weekday(rawValue: n)`.
    var weekdays: UInt8 = 0
    /// `PH` among the day selectors.
    var publicHolidays = false
    /// Empty: every year.
    var years: [YearRange] = []
    /// Empty: every date.
    var dates: [DateRange] = []
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
        if weekdays == 0 && !publicHolidays { return true }
        return weekdays & (1 << UInt8(weekday)) != 0 || (publicHolidays && holiday)
    }
}
