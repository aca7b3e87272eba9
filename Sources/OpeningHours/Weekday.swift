/// A day of the week, Monday first (ISO 8601 order).
public enum Weekday: Int, Sendable, Hashable, CaseIterable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The day after this one (Sunday is followed by Monday).
    public var next: Weekday { Weekday(rawValue: (rawValue + 1) % 7)! }

    /// The weekday of a proleptic Gregorian date.
    public init(of date: CalendarDate) {
        // Sakamoto's method: 0 = Sunday.
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        var y = date.year
        if date.month < 3 { y -= 1 }
        let sundayFirst = (y + y / 4 - y / 100 + y / 400 + offsets[date.month - 1] + date.day) % 7
        self = Weekday(rawValue: (sundayFirst + 6) % 7)!
    }
}
