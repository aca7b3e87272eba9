import OpeningHours

/// `"2026-11-23 08:00"` (2026-11-23 is a Monday); the weekday is computed from the date.
func at(_ text: String) -> LocalTime {
    let parts = text.split(whereSeparator: { "- :".contains($0) }).map { Int($0)! }
    return try! LocalTime(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4])
}

/// `"2026-11-23"`.
func date(_ text: String) -> CalendarDate {
    let parts = text.split(separator: "-").map { Int($0)! }
    return CalendarDate(year: parts[0], month: parts[1], day: parts[2])
}

func status(_ value: String, _ instant: String, holidays: Set<CalendarDate> = []) throws -> OpeningHours.Status {
    try OpeningHours(parsing: value).state(at: at(instant), holidays: holidays).status
}

/// The problem parsing `value` finds, or nil when it parses.
func error(_ value: String) -> OpeningHoursError? {
    do {
        _ = try OpeningHours(parsing: value)
        return nil
    } catch {
        return error
    }
}
