import OpeningHours
import Testing

/// Instants built from outside input never trap: a server evaluates whatever time it is given.
@Suite struct LocalTimeTests {
    @Test(arguments: [-1, 1440, Int.min, Int.max])
    func minuteOutOfRangeThrows(minute: Int) {
        #expect(throws: OpeningHoursError.self) {
            try LocalTime(date: date("2026-03-02"), weekday: .monday, minute: minute)
        }
    }

    @Test(arguments: [
        (2026, 13, 1, 10, 0), (2026, 0, 1, 10, 0), (2026, 2, 29, 10, 0), (2026, 4, 31, 10, 0), (2026, 3, 0, 10, 0),
        (2026, 3, 2, 24, 0), (2026, 3, 2, -1, 0), (2026, 3, 2, 10, 60), (2026, Int.min, 1, 0, 0),
        (2026, 1, Int.max, 0, 0),
        (Int.max, 1, 1, Int.max, Int.max),
    ])
    func invalidFieldsThrow(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        #expect(throws: OpeningHoursError.self) {
            try LocalTime(year: year, month: month, day: day, hour: hour, minute: minute)
        }
    }

    @Test func validInstants() throws {
        let time = try LocalTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59)
        #expect(time.weekday == .thursday)
        #expect(time.minute == 1439)
        #expect(try LocalTime(date: date("2026-03-02"), weekday: .monday, minute: 0).description == "2026-03-02 00:00")
    }

    @Test func problemOutsideAValueHasNoColumn() {
        #expect(throws: OpeningHoursError("the minute of the day must be 0–1439, not 1440", column: 0)) {
            try LocalTime(date: date("2026-03-02"), weekday: .monday, minute: 1440)
        }
        #expect(OpeningHoursError("x", column: 0).description == "x")
    }

    @Test func calendarArithmeticNeverTraps() {
        for date in [
            CalendarDate(year: Int.max, month: 12, day: 31), CalendarDate(year: Int.min, month: 1, day: 1),
            CalendarDate(year: 2026, month: 13, day: 40), CalendarDate(year: 2026, month: Int.min, day: Int.min),
            CalendarDate(year: Int.min, month: Int.max, day: Int.max),
        ] {
            _ = Weekday(of: date)
            _ = date.next
            _ = date.previous
        }
        #expect(CalendarDate(year: Int.max, month: 12, day: 31).isValid)
        #expect(!CalendarDate(year: 2026, month: 2, day: 29).isValid)
        #expect(CalendarDate(year: 2024, month: 2, day: 29).isValid)
    }

    /// Weekdays repeat every 400 years, so folding the year keeps them exact in any year.
    @Test func weekdaysOfDistantYears() {
        #expect(Weekday(of: CalendarDate(year: 2026 + 400 * 1_000_000, month: 3, day: 2)) == .monday)
        #expect(Weekday(of: CalendarDate(year: 2026 - 400 * 1_000_000, month: 3, day: 2)) == .monday)
        #expect(Weekday(of: CalendarDate(year: 1, month: 1, day: 1)) == .monday)
        #expect(Weekday(of: CalendarDate(year: 0, month: 3, day: 1)) == .wednesday)
    }

    @Test func negativeHorizonIsNoHorizon() throws {
        let hours = try OpeningHours(parsing: "Mo-Fr 08:00-18:00")
        #expect(hours.nextChange(after: at("2026-03-02 10:00"), withinDays: -5)?.at == at("2026-03-02 18:00"))
        #expect(hours.nextChange(after: at("2026-03-06 19:00"), withinDays: Int.min) == nil)
    }
}
