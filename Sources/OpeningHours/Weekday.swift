/// A day of the week, Monday first (ISO 8601 order).
public enum Weekday: Int, Sendable, Hashable, CaseIterable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The day after this one (Sunday is followed by Monday).
    public var next: Weekday { Weekday(rawValue: (rawValue + 1) % 7)! }

    /// The weekday of a proleptic Gregorian date.
    ///
    /// Exact for every date that exists (``CalendarDate/isValid``), in any year; for a date that
    /// does not it is some weekday, never a trap.
    public init(of date: CalendarDate) {
        // Sakamoto's method: 0 = Sunday. Out-of-range fields are folded into range (the month
        // modulo 12, the year by 400-year cycles, which repeat weekdays) so nothing can trap.
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let monthIndex = (date.month % 12 + 11) % 12
        var y = ((date.year % 400) + 400) % 400 + 400
        if monthIndex < 2 { y -= 1 }
        let day = date.day % 7
        let sundayFirst = ((y + y / 4 - y / 100 + y / 400 + offsets[monthIndex] + day) % 7 + 7) % 7
        self = Weekday(rawValue: (sundayFirst + 6) % 7) ?? .monday
    }
}
