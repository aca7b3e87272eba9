import OpeningHours
import Testing

// Forms and rule orders settled against the reference implementation (opening-hours-py 2.1.4,
// probed directly; 2026-03-02 is a Monday). Each expectation is what the reference answers.

@Suite struct YearTests {
    @Test func bareYear() throws {
        #expect(try status("2026", "2026-03-02 10:00") == .open)
        #expect(try status("2026", "2026-12-31 23:59") == .open)
        #expect(try status("2026", "2027-01-01 00:00") == .closed)
        #expect(try status("2024", "2026-03-02 10:00") == .closed)
        #expect(try status("1999", "1999-03-02 10:00") == .open)
    }

    @Test func yearRangesListsAndPeriods() throws {
        #expect(try status("2026-2027", "2027-06-01 10:00") == .open)
        #expect(try status("2026-2027", "2028-01-01 10:00") == .closed)
        #expect(try status("2026+", "2025-12-31 10:00") == .closed)
        #expect(try status("2026+", "2999-01-01 10:00") == .open)
        #expect(try status("2020-2030/2 10:00-12:00", "2026-03-02 11:00") == .open)
        #expect(try status("2020-2030/2 10:00-12:00", "2027-03-02 11:00") == .closed)
        #expect(try status("2020,2026 10:00-12:00", "2026-03-02 11:00") == .open)
        #expect(try status("2020,2026 10:00-12:00", "2025-03-02 11:00") == .closed)
        #expect(try status("2020,8000-9000 10:00-22:00", "2026-03-02 11:00") == .closed)
        #expect(try status("2026: Mo", "2026-03-02 10:00") == .open)
        #expect(try status("2026 Mo", "2026-03-03 10:00") == .closed)
    }

    /// The most common refusal before years were supported (real OSM data, Turin, 2021).
    @Test func datedClosure() throws {
        let value = "Mo-Fr 09:00-17:00; 2021 Mar 28-Apr 16 off"
        #expect(try status(value, "2021-03-29 10:00") == .closed)
        #expect(try status(value, "2021-04-16 10:00") == .closed)
        #expect(try status(value, "2021-04-19 10:00") == .open)
        #expect(try status(value, "2026-03-30 10:00") == .open)  // the closure was in 2021 only
    }

    @Test func datedRangeAcrossTheNewYear() throws {
        let value = "10:00-12:00; 2026 Dec 24-2027 Jan 06 off"
        #expect(try status(value, "2026-12-23 11:00") == .open)
        #expect(try status(value, "2026-12-30 11:00") == .closed)
        #expect(try status(value, "2027-01-06 11:00") == .closed)
        #expect(try status(value, "2027-01-07 11:00") == .open)
        #expect(try status(value, "2027-12-30 11:00") == .open)
        // Without a year of its own the end is the first such date after the start.
        #expect(try status("2026 Dec 24-Jan 06", "2027-01-03 11:00") == .open)
        #expect(try status("2026 Dec 24-Jan 06", "2026-01-03 11:00") == .closed)
        #expect(try status("2026 Mar 05-Mar 01", "2026-03-08 10:00") == .open)
        #expect(try status("2026 Mar 05-Mar 01", "2027-03-02 10:00") == .closed)
        #expect(try status("2026 Mar 05-2026 Mar 01", "2026-03-08 10:00") == .closed)
    }

    @Test func yearWithMonthsIsAFilter() throws {
        // `2026 Nov-Jan` is the months Nov-Jan that fall in 2026: January and Nov-Dec 2026.
        #expect(try status("2026 Nov-Jan", "2026-01-05 11:00") == .open)
        #expect(try status("2026 Nov-Jan", "2026-12-01 11:00") == .open)
        #expect(try status("2026 Nov-Jan", "2027-01-05 11:00") == .closed)
        #expect(try status("2026 Dec", "2027-12-03 11:00") == .closed)
        #expect(try status("2026 Mar Mo 09:00-12:00", "2026-03-02 10:00") == .open)
        #expect(try status("2026 Mar Mo 09:00-12:00", "2027-03-01 10:00") == .closed)
    }

    @Test func eachDateItemHasItsOwnYear() throws {
        #expect(try status("2026 Dec 24,Jan 01", "2026-12-24 11:00") == .open)
        #expect(try status("2026 Dec 24,Jan 01", "2027-12-24 11:00") == .closed)
        #expect(try status("2026 Dec 24,Jan 01", "2026-01-01 11:00") == .open)
        #expect(try status("2026 Dec 24,Jan 01", "2030-01-01 11:00") == .open)
        #expect(try status("2026 Dec 24,2027 Jan 01", "2028-01-01 11:00") == .closed)
    }

    @Test func nextChangeCrossesYears() throws {
        let hours = try OpeningHours(parsing: "2026")
        #expect(hours.nextChange(after: at("2026-12-30 11:00"), withinDays: 5)?.at == at("2027-01-01 00:00"))
        #expect(try OpeningHours(parsing: "2026+").nextChange(after: at("2026-03-02 10:00"), withinDays: 1000) == nil)
    }
}

/// Rule orders around spans past midnight: the day's schedule of `OpeningHours::schedule_at`.
@Suite struct RuleOrderTests {
    /// A rule for the following day written before the spilling rule: its day wins.
    @Test func earlierRuleForTheNextDayKeepsItsDay() throws {
        #expect(try status("Sa 10:00-12:00; Mo-Fr 22:00-02:00", "2026-03-07 01:00") == .closed)
        #expect(try status("Sa 10:00-12:00; Mo-Fr 22:00-02:00", "2026-03-06 23:00") == .open)
        // A rule that only selects the previous day says nothing about this one.
        #expect(try status("Fr 10:00-12:00; Mo-Fr 22:00-02:00", "2026-03-07 01:00") == .open)
    }

    /// `Mo-Fr 22:00-02:00; Fr 10:00-12:00`: Friday's evening is replaced, the spill into
    /// Saturday is kept (Saturday's schedule comes from the first rule, the second does not
    /// select Saturday).
    @Test func laterRuleForTheSameDayKeepsTheSpill() throws {
        #expect(try status("Mo-Fr 22:00-02:00; Fr 10:00-12:00", "2026-03-07 01:00") == .open)
        #expect(try status("Mo-Fr 22:00-02:00; Fr 10:00-12:00", "2026-03-06 23:00") == .closed)
        #expect(try status("Mo-Fr 22:00-02:00; Fr off", "2026-03-07 01:00") == .open)
    }

    /// Two spilling rules for one day: the first to speak of the day keeps it.
    @Test func firstSpillWins() throws {
        let value = "Mo-Fr 22:00-02:00; Fr 23:00-03:00"
        #expect(try status(value, "2026-03-07 01:00") == .open)
        #expect(try status(value, "2026-03-07 02:30") == .closed)
        #expect(try status(value, "2026-03-06 22:30") == .closed)
    }

    @Test func closingRulesLayOver() throws {
        #expect(try status("Mo-Fr 22:00-02:00; Sa 01:00-03:00 off", "2026-03-07 00:30") == .open)
        #expect(try status("Mo-Fr 22:00-02:00; Sa 01:00-03:00 off", "2026-03-07 01:30") == .closed)
        // A closing rule says nothing a later rule's spill has to respect.
        #expect(try status("Sa 01:00-03:00 off; Mo-Fr 22:00-02:00", "2026-03-07 01:30") == .open)
        // A day closed as a whole, by one span or several, is as if nothing were said of it.
        #expect(try status("Sa 10:00-12:00; Sa off; Fr 22:00-02:00", "2026-03-07 01:00") == .open)
        #expect(
            try status("Sa 10:00-12:00; Sa 00:00-13:00,12:00-24:00 off; Fr 22:00-02:00", "2026-03-07 01:00") == .open)
        // So is a day whose every open time a closing rule covers.
        #expect(try status("Sa 10:00-12:00; Sa 09:00-13:00 off; Fr 22:00-02:00", "2026-03-07 01:00") == .open)
        #expect(try status("Sa 10:00-12:00; Sa 11:00-13:00 off; Fr 22:00-02:00", "2026-03-07 01:00") == .closed)
        #expect(try status("Sa 10:00-12:00; Sa 09:00-13:00 off || 01:00-02:00", "2026-03-07 01:30") == .open)
        // Only closing rules lay over: an unknown rule replaces the day.
        #expect(try status("Mo-Fr 09:00-17:00; Mo 12:00-14:00 unknown", "2026-03-02 10:00") == .closed)
    }

    @Test func fallbackAfterNormalRules() throws {
        #expect(try status("Mo-Fr off || 10:00-12:00", "2026-03-02 11:00") == .open)
        let value = "Mo-Fr 09:00-12:00 || 10:00-13:00; Mo 14:00-15:00"
        #expect(try status(value, "2026-03-02 10:00") == .closed)
        #expect(try status(value, "2026-03-02 14:30") == .open)
        #expect(try status(value, "2026-03-07 12:30") == .open)
    }

    @Test func commentChangeIsANextChange() throws {
        let hours = try OpeningHours(parsing: #"Mo 12:00-14:00 open "women", Mo 14:00-16:00 open "men""#)
        let change = hours.nextChange(after: at("2026-03-02 12:30"))
        #expect(change?.at == at("2026-03-02 14:00"))
        #expect(change?.state == .init(.open, comment: "men"))
    }
}

@Suite struct WeekAndOccurrenceTests {
    /// ISO 8601 weeks: week 1 of 2026 starts on Monday 2025-12-29; 2026 has 53 weeks.
    @Test func isoWeeks() throws {
        #expect(try status("week 01", "2025-12-29 10:00") == .open)
        #expect(try status("week 01", "2026-01-04 10:00") == .open)
        #expect(try status("week 01", "2026-01-05 10:00") == .closed)
        #expect(try status("week 01", "2025-12-28 10:00") == .closed)
        #expect(try status("week 53", "2026-12-31 10:00") == .open)
        #expect(try status("week 53", "2027-01-03 10:00") == .open)
        #expect(try status("week 53", "2027-01-04 10:00") == .closed)
        #expect(try status("week 53", "2021-01-03 10:00") == .open)  // the last day of week 53 of 2020
    }

    @Test func weekRangesAndPeriods() throws {
        // Real OSM value (ohrs-sample): every second Wednesday.
        let value = "week 2-52/2 We 00:00-24:00; week 1-53/2 Sa 00:00-24:00; PH off"
        #expect(try status(value, "2026-01-07 10:00") == .open)  // week 2
        #expect(try status(value, "2026-01-14 10:00") == .closed)  // week 3
        #expect(try status(value, "2026-01-17 10:00") == .open)  // Saturday of week 3
        #expect(try status("week 1,3-4", "2026-01-14 10:00") == .open)
        #expect(try status("week 1,3-4", "2026-01-07 10:00") == .closed)
        #expect(try status("week 10: Mo", "2026-03-02 11:00") == .open)
        #expect(try status("2026 week 10", "2026-03-09 11:00") == .closed)
    }

    @Test func nthWeekdays() throws {
        #expect(try status("Mo[1,3]", "2026-03-02 10:00") == .open)
        #expect(try status("Mo[1,3]", "2026-03-16 10:00") == .open)
        #expect(try status("Mo[1,3]", "2026-03-09 10:00") == .closed)
        #expect(try status("Su[1-2]", "2026-03-08 10:00") == .open)
        #expect(try status("Su[1-2]", "2026-03-15 10:00") == .closed)
        #expect(try status("Mo[-2]", "2026-03-23 10:00") == .open)
        #expect(try status("Mo[-2]", "2026-03-30 10:00") == .closed)
        #expect(try status("Mo[5]", "2026-03-30 10:00") == .open)
        #expect(try status("Mo[1],Tu", "2026-03-10 10:00") == .open)
        #expect(try status("Mo[1],Tu", "2026-03-09 10:00") == .closed)
        #expect(try status("Su[1] 22:00-02:00", "2026-03-02 01:00") == .open)
        // Real OSM value (ohrs-sample): closed on the third and the last Thursday.
        let value = "Mo,Tu,Th,Fr 12:00-18:00; Sa,PH 12:00-17:00; Th[3],Th[-1] off"
        #expect(try status(value, "2026-03-19 13:00") == .closed)
        #expect(try status(value, "2026-03-26 13:00") == .closed)
        #expect(try status(value, "2026-03-12 13:00") == .open)
        #expect(try status(value, "2026-04-30 13:00") == .closed)  // the fifth Thursday is the last
    }
}

@Suite struct ReferenceSyntaxTests {
    @Test func holidaysNextToWeekdays() throws {
        let holidays: Set = [date("2026-04-06")]
        for value in ["PH Su 10:00-12:00", "Su PH 10:00-12:00"] {
            #expect(try status(value, "2026-03-08 11:00", holidays: holidays) == .open, "\(value)")
            #expect(try status(value, "2026-04-06 11:00", holidays: holidays) == .open, "\(value)")
            #expect(try status(value, "2026-03-09 11:00", holidays: holidays) == .closed, "\(value)")
        }
        #expect(error("Mo Tu 10:00-12:00") != nil)
    }

    @Test func spansLongerThanADay() throws {
        #expect(try status("Mo 01:30-26:00", "2026-03-03 01:45") == .open)
        #expect(try status("Mo 01:30-26:00", "2026-03-03 02:30") == .closed)
        #expect(try status("Fr 20:00-44:00", "2026-03-07 19:00") == .open)
        #expect(try status("Fr 20:00-44:00", "2026-03-07 20:30") == .closed)
    }

    @Test func openEndAfterAClosingTimeIsIgnored() throws {
        #expect(try status("Mo 10:00-18:00+", "2026-03-02 17:00") == .open)
        #expect(try status("Mo 10:00-18:00+", "2026-03-02 19:00") == .closed)
    }
}
