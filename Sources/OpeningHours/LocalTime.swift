/// A local wall-clock instant: a date, its weekday and the minute of the day (0–1439).
///
/// Time zones stay outside this module: the caller converts an absolute instant into the
/// place's local date and time (with its own time-zone database) before evaluating.
public struct LocalTime: Sendable, Hashable, CustomStringConvertible {
    /// A date that exists (checked by the initializers, which is why the fields are read-only).
    public private(set) var date: CalendarDate
    public private(set) var weekday: Weekday
    /// Minutes since local midnight, 0–1439.
    public private(set) var minute: Int

    /// An instant whose weekday the caller supplies (it is not checked against the date).
    ///
    /// - Throws: ``OpeningHoursError`` when `minute` is not 0–1439 or the date does not exist.
    public init(date: CalendarDate, weekday: Weekday, minute: Int) throws(OpeningHoursError) {
        guard (0..<1440).contains(minute) else {
            throw OpeningHoursError("the minute of the day must be 0–1439, not \(minute)", column: 0)
        }
        guard date.isValid else { throw OpeningHoursError("the date \(date) does not exist", column: 0) }
        self.init(checkedDate: date, weekday: weekday, minute: minute)
    }

    /// An instant whose weekday is computed from the date.
    ///
    /// - Throws: ``OpeningHoursError`` when the date does not exist, `hour` is not 0–23 or `minute`
    ///   is not 0–59.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int) throws(OpeningHoursError) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else {
            throw OpeningHoursError("the time must be 00:00–23:59, not \(hour):\(minute)", column: 0)
        }
        let date = CalendarDate(year: year, month: month, day: day)
        try self.init(date: date, weekday: Weekday(of: date), minute: hour * 60 + minute)
    }

    /// An instant whose date exists and whose minute is 0–1439 by construction: for callers in
    /// this package that compute them (this module's own stepping, a conversion from seconds).
    /// Only debug builds check; out of range, evaluation gives wrong answers but never traps.
    package init(checkedDate date: CalendarDate, weekday: Weekday, minute: Int) {
        assert((0..<1440).contains(minute), "minute of the day out of range: \(minute)")
        self.date = date
        self.weekday = weekday
        self.minute = minute
    }

    /// The same instant with the given minute of the day (0–1439).
    func at(minute: Int) -> LocalTime { LocalTime(checkedDate: date, weekday: weekday, minute: minute) }

    /// Midnight starting the following day.
    var nextMidnight: LocalTime { LocalTime(checkedDate: date.next, weekday: weekday.next, minute: 0) }

    public var description: String {
        let h = minute / 60
        let m = minute % 60
        return "\(date) \(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }
}
