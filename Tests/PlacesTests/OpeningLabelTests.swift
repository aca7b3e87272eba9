import Geo
import OpeningHours
import PlaceQueries
import Places
import Testing
import TextMap

/// Short labels for opening states (issue 19): the map's list and `vicinity near --open` print
/// "Thu 19:30" where `OpeningState` gives `2026-11-26T19:30+01:00`.
@Suite struct OpeningLabelTests {
    @Test(arguments: [
        ("2026-11-26T19:30+01:00", "Thu 19:30"),
        ("2026-11-30T08:30+01:00", "Mon 08:30"),
        ("2026-03-29T03:00+02:00", "Sun 03:00"),  // the spring change in Europe
        ("2024-02-29T00:00-05:00", "Thu 00:00"),  // a leap day
        ("2027-01-01T23:59Z", "Fri 23:59"),
        ("2026-11-26T19:30:45+01:00", "Thu 19:30"),
        ("2026-11-26t07:05+03:00", "Thu 07:05"),
    ])
    func aLocalDateTimeReadsAsWeekdayAndTime(rfc3339: String, label: String) {
        #expect(OpeningLabel.short(rfc3339) == label)
    }

    @Test(arguments: [
        "", "19:30", "2026-11-26", "2026-11-26 19:30", "2026-13-01T10:00+01:00", "2026-02-29T10:00+01:00",
        "2026-11-26T24:00+01:00", "2026-11-26T19:60+01:00", "2026-1x-26T19:30+01:00", "２０２６-11-26T19:30",
    ])
    func anythingElseIsNoLabel(text: String) {
        #expect(OpeningLabel.short(text) == nil)
    }

    /// A change a week away names its date: "Thu 10:00" on a Thursday would read as within the hour.
    @Test func aChangeAWeekAwayNamesItsDate() throws {
        let place = Place(
            id: "p", kind: "pharmacy", name: "P", coordinate: try Coordinate(latitude: 45, longitude: 7),
            attributes: ["opening_hours": "Dec 03 10:00-12:00", "tz": "Europe/Rome"])
        let thursday = OpeningClock(at: .local(try LocalTime(year: 2026, month: 11, day: 26, hour: 9, minute: 0)))
        #expect(OpeningLabel.text(thursday.state(of: place.hours)) == "closed, opens Thu 3 Dec 10:00")
        let wednesday = OpeningClock(at: .local(try LocalTime(year: 2026, month: 12, day: 2, hour: 9, minute: 0)))
        #expect(OpeningLabel.text(wednesday.state(of: place.hours)) == "closed, opens Thu 10:00")
    }

    /// "On duty until" names the spell's end; a place that stays open by its hours after the spell
    /// is "open until" its closing time.
    @Test func onDutyUntilOnlyWhenTheSpellIsWhatEnds() throws {
        let place = Place(
            id: "p", kind: "pharmacy", name: "P", coordinate: try Coordinate(latitude: 45, longitude: 7),
            attributes: [
                "opening_hours": "Mo-Fr 08:30-19:30", "tz": "Europe/Rome",
                "duty": "2026-11-26T19:30/2026-11-27T08:30,2026-11-29T08:30/2026-11-29T19:30",
            ])
        let thursdayNight = OpeningClock(at: .local(try LocalTime(year: 2026, month: 11, day: 26, hour: 22, minute: 0)))
        let night = thursdayNight.state(of: place.hours)
        #expect(night.onDuty)
        #expect(OpeningLabel.text(night) == "open until Fri 19:30")
        let sunday = OpeningClock(at: .local(try LocalTime(year: 2026, month: 11, day: 29, hour: 10, minute: 0)))
        #expect(OpeningLabel.text(sunday.state(of: place.hours)) == "on duty until Sun 19:30")
    }

    @Test func statesBecomeTheMapsStatesWithShortLabels() {
        let open = OpeningState(
            status: .open, nextChange: 1_795_717_800, nextStatus: .closed, nextChangeOffsetSeconds: 3_600)
        #expect(open.openUntil == "2026-11-26T19:30+01:00")
        #expect(OpeningLabel.mapOpening(open) == .open(until: "Thu 19:30"))
        #expect(OpeningLabel.text(open) == "open until Thu 19:30")

        let duty = OpeningState(
            status: .open, onDuty: true, nextChange: 1_795_764_600, nextStatus: .closed,
            nextChangeOffsetSeconds: 3_600)
        #expect(OpeningLabel.text(duty) == "on duty until Fri 08:30")

        let closed = OpeningState(
            status: .closed, nextChange: 1_795_764_600, nextStatus: .open, nextChangeOffsetSeconds: 3_600)
        #expect(OpeningLabel.mapOpening(closed) == .closed(opensAt: "Fri 08:30"))
        #expect(OpeningLabel.text(closed) == "closed, opens Fri 08:30")

        // Closed until the hours turn unknown: no opening time to give.
        let closedThenUnknown = OpeningState(
            status: .closed, nextChange: 1_795_764_600, nextStatus: .unknown, nextChangeOffsetSeconds: 3_600)
        #expect(OpeningLabel.text(closedThenUnknown) == "closed")
        #expect(OpeningLabel.text(OpeningState(status: .open)) == "open")
        #expect(OpeningLabel.mapOpening(.unknown) == .unknown)
        #expect(OpeningLabel.text(.unknown) == "hours unknown")
    }

    /// The map's view model carries each hit's state, so `vicinity map --open` marks it.
    @Test func mapMarkersCarryTheHitsStates() throws {
        let center = try Coordinate(latitude: 45.0703, longitude: 7.6869)
        let closed = OpeningState(
            status: .closed, nextChange: 1_795_764_600, nextStatus: .open, nextChangeOffsetSeconds: 3_600)
        let hits = [
            QueryHit(
                id: "a", name: "A", kind: "pharmacy", coordinate: try Coordinate(latitude: 45.0712, longitude: 7.6869),
                distanceMeters: 100, bearingDegrees: 0, opening: closed),
            QueryHit(
                id: "b", name: "B", kind: "pharmacy", coordinate: try Coordinate(latitude: 45.0703, longitude: 7.6890),
                distanceMeters: 165, bearingDegrees: 90),
        ]
        let markers = try MapView.markers(hits, center: center)
        #expect(markers.map(\.opening) == [.closed(opensAt: "Fri 08:30"), nil])
    }
}
