import Foundation
import Geo
import OpeningHours
import Testing

@testable import Places

/// Opening hours in time: zones and their daylight-saving changes, duty spells, next changes.
@Suite struct OpeningClockTests {
    private static func place(_ attributes: [String: String]) -> Place {
        // swift-format-ignore: NeverUseForceTry
        Place(
            id: "p", kind: "pharmacy", name: "P", coordinate: try! Coordinate(latitude: 45, longitude: 7.6),
            attributes: attributes)
    }

    private static func instant(_ text: String) -> OpeningMoment {
        guard let moment = OpeningMoment(parsing: text) else { preconditionFailure(text) }
        return moment
    }

    @Test func civilTimeAgreesWithFoundationEverywhere() throws {
        var random = SplitMix64(seed: 19)
        for name in ["Europe/Rome", "America/New_York", "Pacific/Auckland", "Asia/Kolkata", "UTC"] {
            let zone = try #require(TimeZone(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for _ in 0..<2_000 {
                let seconds = Int64(random.next() % 4_000_000_000) - 1_000_000_000
                let date = Date(timeIntervalSince1970: Double(seconds))
                let local = CivilTime.local(seconds, offsetSeconds: zone.secondsFromGMT(for: date))
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
                #expect(local.date == CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!))
                #expect(local.minute == parts.hour! * 60 + parts.minute!)
                // Foundation: 1 = Sunday; ours: 0 = Monday.
                #expect(local.weekday.rawValue == (parts.weekday! + 5) % 7)
                #expect(CivilTime.date(days: CivilTime.days(of: local.date)) == local.date)
            }
        }
    }

    @Test func localTimesBecomeInstantsAcrossDaylightSavingChanges() throws {
        let rome = try #require(TimeZone(identifier: "Europe/Rome"))
        // 2026-03-29: 02:00 local jumps to 03:00 (01:00Z); 2026-10-25: 03:00 falls back to 02:00.
        let skipped = try! LocalTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30)
        #expect(CivilTime.instant(of: skipped, in: rome) == 1_774_746_000)  // 2026-03-29T01:00Z
        let repeated = try! LocalTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30)
        #expect(CivilTime.instant(of: repeated, in: rome) == 1_792_888_200)  // 00:30Z, the first reading
        let ordinary = try! LocalTime(year: 2026, month: 7, day: 1, hour: 12, minute: 0)
        #expect(CivilTime.instant(of: ordinary, in: rome) == 1_782_900_000)  // 10:00Z
    }

    @Test func momentsParseAndRefuseWithoutGuessing() {
        #expect(OpeningMoment(parsing: "now") == .now)
        #expect(OpeningMoment(parsing: "NOW") == .now)
        #expect(OpeningMoment(parsing: "2026-07-01T10:00Z") == .instant(1_782_900_000))
        #expect(OpeningMoment(parsing: "2026-07-01T12:00:00+02:00") == .instant(1_782_900_000))
        #expect(OpeningMoment(parsing: "2026-07-01T05:30-04:30") == .instant(1_782_900_000))
        #expect(
            OpeningMoment(parsing: "2026-07-01T12:00")
                == .local(try! LocalTime(year: 2026, month: 7, day: 1, hour: 12, minute: 0)))
        for bad in [
            "", "today", "22:00", "2026-02-30T10:00", "2026-07-01T24:00", "2026-07-01 12:00", "2026-07-01T12:00+2",
            "2026-07-01T12:00:60Z", "2026-07-01T12:00.5Z", "2026-07-01T12:00+24:00", "nan", "2026-07-01T12:00ZZ",
        ] {
            #expect(OpeningMoment(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func stateFollowsTheZoneAndSaysUntilWhen() {
        let place = Self.place(["opening_hours": "Mo-Fr 08:30-19:30; Sa 09:00-12:30", "tz": "Europe/Rome"])
        // Thursday 2026-11-26 09:00Z is 10:00 in Rome.
        let clock = OpeningClock(at: Self.instant("2026-11-26T09:00Z"))
        #expect(clock.isOpen(place.hours))
        let state = clock.state(of: place.hours)
        #expect(state.status == .open)
        #expect(state.openUntil == "2026-11-26T19:30+01:00")
        #expect(state.opensAt == nil)
        // Saturday 13:00 local: closed until Monday 08:30.
        let later = OpeningClock(at: Self.instant("2026-11-28T13:00+01:00"))
        let closed = later.state(of: place.hours)
        #expect(closed.status == .closed)
        #expect(closed.opensAt == "2026-11-30T08:30+01:00")
        // The same wall time in Istanbul is two hours earlier in absolute time.
        let istanbul = Self.place(["opening_hours": "Mo-Fr 08:30-19:30", "tz": "Europe/Istanbul"])
        let evening = OpeningClock(at: Self.instant("2026-11-26T17:00Z"))  // 20:00 in Istanbul
        #expect(!evening.isOpen(istanbul.hours))
        #expect(evening.isOpen(place.hours))  // 18:00 in Rome
    }

    @Test func daylightSavingChangesMoveTheInstantsNotTheHours() {
        let place = Self.place(["opening_hours": "Mo-Su 08:00-20:00", "tz": "Europe/Rome"])
        // Before the spring change 08:00 is 07:00Z; after it, 06:00Z.
        let before = OpeningClock(at: Self.instant("2026-03-28T06:30Z"))
        #expect(!before.isOpen(place.hours))
        #expect(before.state(of: place.hours).opensAt == "2026-03-28T08:00+01:00")
        let after = OpeningClock(at: Self.instant("2026-03-29T06:30Z"))
        #expect(after.isOpen(place.hours))
        #expect(after.state(of: place.hours).openUntil == "2026-03-29T20:00+02:00")
        // The night of the change: closed at 23:00 Saturday, opens 08:00 CEST = 06:00Z.
        let night = OpeningClock(at: Self.instant("2026-03-28T22:00Z"))
        let state = night.state(of: place.hours)
        #expect(state.opensAt == "2026-03-29T08:00+02:00")
        #expect(state.nextChange == 1_774_764_000)
    }

    @Test func spansPastMidnightAndLocalMoments() {
        let bar = Self.place(["opening_hours": "Fr-Sa 18:00-02:00", "tz": "America/New_York"])
        let saturdayNight = OpeningClock(at: Self.instant("2026-11-28T01:30"))  // local, New York
        #expect(saturdayNight.isOpen(bar.hours))
        #expect(saturdayNight.state(of: bar.hours).openUntil == "2026-11-28T02:00-05:00")
        let sundayNight = OpeningClock(at: Self.instant("2026-11-30T01:30"))
        #expect(!sundayNight.isOpen(bar.hours))
    }

    @Test func unknownIsNeverOpen() {
        let cases: [[String: String]] = [
            ["opening_hours": "Mo-Fr 08:00-20:00"],  // no zone
            ["opening_hours": "Mo-Fr 08:00-20:00", "tz": "Europe/Rom"],  // no such zone
            ["opening_hours": "8.45-19.30 (continuato)", "tz": "Europe/Rome"],  // does not parse
            ["opening_hours": "\"on appointment\"", "tz": "Europe/Rome"],  // a comment: unknown
            ["opening_hours": "Mo-Su 00:00-24:00 unknown", "tz": "Europe/Rome"],
            ["opening_hours": "", "tz": "Europe/Rome"],
            ["tz": "Europe/Rome"],
        ]
        let clock = OpeningClock(at: Self.instant("2026-11-26T10:00Z"))
        for attributes in cases {
            let place = Self.place(attributes)
            #expect(!clock.isOpen(place.hours), "\(attributes)")
            #expect(clock.state(of: place.hours).status == .unknown, "\(attributes)")
            #expect(clock.state(of: place.hours).openUntil == nil)
        }
        #expect(Self.place(["opening_hours": "bad value", "tz": "UTC"]).hours?.hoursProblem != nil)
    }

    @Test func dutyOverridesTheHoursAndChainsWithThem() {
        let place = Self.place([
            "opening_hours": "Mo-Fr 08:30-19:30", "tz": "Europe/Rome",
            "duty": "2026-11-26T19:30/2026-11-27T08:30,2026-11-29T08:30/2026-11-29T19:30",
        ])
        // Thursday 22:00 local: on duty until Friday 08:30, then open by the hours until 19:30.
        let night = OpeningClock(at: Self.instant("2026-11-26T22:00"))
        let state = night.state(of: place.hours)
        #expect(state.status == .open)
        #expect(state.onDuty)
        #expect(state.openUntil == "2026-11-27T19:30+01:00")
        #expect(state.dutyEnds == 1_795_764_600)  // Friday 08:30 in Rome
        // Sunday 10:00 (no hours on Sunday): on duty until 19:30.
        let sunday = OpeningClock(at: Self.instant("2026-11-29T10:00"))
        #expect(sunday.state(of: place.hours).openUntil == "2026-11-29T19:30+01:00")
        // Saturday 10:00: closed, opens with the Sunday duty spell.
        let saturday = OpeningClock(at: Self.instant("2026-11-28T10:00"))
        let closed = saturday.state(of: place.hours)
        #expect(closed.status == .closed && !closed.onDuty)
        #expect(closed.opensAt == "2026-11-29T08:30+01:00")
        // A rota alone: unknown outside its spells, open in them.
        let rotaOnly = Self.place(["tz": "Europe/Rome", "duty": "2026-11-26T19:30/2026-11-27T08:30"])
        #expect(saturday.state(of: rotaOnly.hours).status == .unknown)
        #expect(night.isOpen(rotaOnly.hours))
    }

    @Test func holidaysComeFromTheNamedCalendarOrTheCountry() {
        let calendars = HolidayCalendars(["IT": PublicHolidays([CalendarDate(year: 2026, month: 12, day: 8)])])
        let byCountry = Self.place(
            ["opening_hours": "Mo-Sa 08:30-19:30; PH off", "tz": "Europe/Rome", "country": "IT"])
        let named = Self.place(
            ["opening_hours": "Mo-Sa 08:30-19:30; PH off", "tz": "Europe/Rome", "holidays": "IT", "country": "X"])
        let none = Self.place(["opening_hours": "Mo-Sa 08:30-19:30; PH off", "tz": "Europe/Rome"])
        let feast = OpeningClock(at: Self.instant("2026-12-08T10:00"), calendars: calendars)
        #expect(!feast.isOpen(byCountry.hours))
        #expect(!feast.isOpen(named.hours))
        // Without a calendar whether 8 December is a holiday is not known: unknown, not open.
        #expect(!feast.isOpen(none.hours))
        #expect(feast.state(of: none.hours).status == .unknown)
        // Nor in a year the calendar does not list.
        let later = OpeningClock(at: Self.instant("2028-12-08T10:00"), calendars: calendars)
        #expect(later.state(of: byCountry.hours).status == .unknown)
        // A rule without PH needs no calendar.
        let plain = Self.place(["opening_hours": "Mo-Sa 08:30-19:30", "tz": "Europe/Rome"])
        #expect(later.isOpen(plain.hours))
        #expect(feast.state(of: byCountry.hours).opensAt == "2026-12-09T08:30+01:00")
    }

    @Test func dutyValuesParseStrictly() {
        #expect(DutyRota(parsing: "2026-11-26T19:30/2026-11-27T08:30")?.spells.count == 1)
        #expect(DutyRota(parsing: "")?.spells.isEmpty == true)
        for bad in [
            "2026-11-26T19:30", "2026-11-27T08:30/2026-11-26T19:30", "2026-11-26T19:30/2026-11-26T19:30",
            "2026-11-26 19:30/2026-11-27 08:30", "2026-11-26T19:30/2026-11-27T08:30,", "x/y",
        ] {
            #expect(DutyRota(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func holidayFilesAreReadWithTheirLineOnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holidays-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# Italy\r\n2026-12-08 Immacolata\r\n\r\n2026-12-25\tNatale\r\n".write(
            toFile: folder + "/IT.txt", atomically: true, encoding: .utf8)
        let calendars = try HolidayCalendars.load(folder: folder)
        // Windows line ends too (a CRLF file once read as one line: no holidays at all).
        #expect(calendars["IT"]?.contains(CalendarDate(year: 2026, month: 12, day: 25)) == true)
        #expect(calendars["IT"]?.contains(CalendarDate(year: 2026, month: 12, day: 8)) == true)
        try "2026-12-08\n2026-13-01 bad\n".write(toFile: folder + "/XX.txt", atomically: true, encoding: .utf8)
        #expect(throws: PlacesError.self) { try HolidayCalendars.load(folder: folder) }
        do {
            _ = try HolidayCalendars.read(path: folder + "/XX.txt")
        } catch {
            #expect(error.description.contains("XX.txt:2"))
            #expect(error.description.contains("2026-13-01"))
        }
    }

    @Test func theShippedCalendarsLoad() throws {
        let calendars = try HolidayCalendars.load(folder: ShippedData.path("holidays"))
        #expect(calendars["IT"]?.contains(CalendarDate(year: 2026, month: 12, day: 8)) == true)
        #expect(calendars["GB-ENG"]?.contains(CalendarDate(year: 2026, month: 12, day: 28)) == true)
    }
}
