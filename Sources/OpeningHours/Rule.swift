/// An inclusive range of `month * 100 + day` keys; `from > to` wraps over the new year.
struct DateRange: Sendable, Equatable {
    var from: Int
    var to: Int

    func contains(_ key: Int) -> Bool { from <= to ? (from <= key && key <= to) : (key >= from || key <= to) }
}

/// A half-open span of minutes since the rule's day's midnight; `end` may reach 2880 (the next day).
struct Span: Sendable, Equatable {
    var start: Int
    var end: Int
}

/// One compiled rule.
struct Rule: Sendable {
    /// Written after `,`: adds to the earlier rules instead of replacing them for its days.
    var additive = false
    /// Bit `n` set: the rule applies on `Weekday(rawValue: n)`.
    var weekdays: UInt8 = 0
    /// `PH` among the day selectors.
    var publicHolidays = false
    /// Empty: every date.
    var dates: [DateRange] = []
    /// Empty only while parsing; a rule without times gets the whole day.
    var spans: [Span] = []
    /// Whether the rule wrote its times (`Mo 12:00-13:00 off`) rather than covering whole days.
    var explicitTimes = false
    var status: OpeningHours.Status = .open
    var comment: String?

    /// Whether a span runs past midnight into the following day (set once parsed).
    var spillsOver = false

    /// Whether the rule's selectors select the day.
    @inline(__always)
    func selects(key: Int, weekday: Int, holiday: Bool) -> Bool {
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
