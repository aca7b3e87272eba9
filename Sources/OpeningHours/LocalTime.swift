/// A local wall-clock instant: a date, its weekday and the minute of the day (0–1439).
///
/// Time zones stay outside this module: the caller converts an absolute instant into the
/// place's local date and time (with its own time-zone database) before evaluating.
public struct LocalTime: Sendable, Hashable, CustomStringConvertible {
    public var date: CalendarDate
    public var weekday: Weekday
    /// Minutes since local midnight, 0–1439.
    public var minute: Int

    /// An instant whose weekday the caller supplies (it is not checked against the date).
    public init(date: CalendarDate, weekday: Weekday, minute: Int) {
        precondition((0..<1440).contains(minute), "minute of the day out of range: \(minute)")
        self.date = date
        self.weekday = weekday
        self.minute = minute
    }

    /// An instant whose weekday is computed from the date.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        let date = CalendarDate(year: year, month: month, day: day)
        self.init(date: date, weekday: Weekday(of: date), minute: hour * 60 + minute)
    }

    /// The same instant with the given minute of the day.
    func at(minute: Int) -> LocalTime { LocalTime(date: date, weekday: weekday, minute: minute) }

    /// Midnight starting the following day.
    var nextMidnight: LocalTime { LocalTime(date: date.next, weekday: weekday.next, minute: 0) }

    public var description: String {
        let h = minute / 60
        let m = minute % 60
        return "\(date) \(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }
}
