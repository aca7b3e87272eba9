import Foundation
import OpeningHours

/// Answers "open at this moment?" for many places: the moment is converted into each zone's local
/// time once, then each place costs one evaluation of its compiled hours (`PlaceHours`).
///
/// A value made for one query over one unchanging set of places (it remembers answers by the
/// `PlaceHours` object, which places with the same hours share); not shared between threads.
public final class OpeningClock {
    /// The moment, with `.now` resolved.
    public let moment: OpeningMoment
    private let calendars: HolidayCalendars
    /// By zone id: the moment in that zone (local time and instant).
    @exclusivity(unchecked) private var points: [(local: LocalTime, instant: Int64)?] = []
    private var lastCalendarName: String?
    private var lastCalendar: PublicHolidays?

    /// The empty calendar, held so that evaluations do not reach for a global.
    private let noHolidays = PublicHolidays([])

    /// How far ahead the next change is looked for.
    public static let horizonSeconds: Int64 = 8 * 86_400

    /// A clock for `moment`; `.now` becomes `now`.
    public init(at moment: OpeningMoment, calendars: HolidayCalendars = HolidayCalendars(), now: Date = Date()) {
        if case .now = moment {
            self.moment = .instant(Int64(now.timeIntervalSince1970.rounded(.down)))
        } else {
            self.moment = moment
        }
        self.calendars = calendars
    }

    /// The moment in the zone of `hours` (which has one).
    @inline(__always)
    private func point(_ hours: PlaceHours) -> (local: LocalTime, instant: Int64) {
        let id = hours.zoneID
        if id < points.count, let point = points[id] { return point }
        return newPoint(hours)
    }

    private func newPoint(_ hours: PlaceHours) -> (local: LocalTime, instant: Int64) {
        let id = hours.zoneID
        guard let zone = hours.zone else { preconditionFailure("a zone id without a zone") }
        if id >= points.count { points += Array(repeating: nil, count: max(id + 1, TimeZones.count) - points.count) }
        let point: (LocalTime, Int64)
        switch moment {
        case .instant(let instant):
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
            point = (CivilTime.local(instant, offsetSeconds: offset), instant)
        case .local(let local):
            point = (local, CivilTime.instant(of: local, in: zone))
        case .now:
            preconditionFailure("resolved in init")
        }
        points[id] = point
        return point
    }

    private func holidays(_ hours: PlaceHours) -> PublicHolidays? {
        guard hours.usesHolidays, let name = hours.calendar else { return nil }
        if name != lastCalendarName {
            lastCalendarName = name
            lastCalendar = calendars[name]
        }
        return lastCalendar
    }

    /// Whether `PH` rules can be decided at a local time: the hours have none, or the place's
    /// calendar lists holidays of that year (and of the previous day's, for spans past midnight).
    /// Otherwise whether the day is a holiday is not known, and neither is the state.
    private func decidable(_ hours: PlaceHours, _ local: LocalTime) -> Bool {
        guard hours.usesHolidays else { return true }
        guard let calendar = holidays(hours) else { return false }
        let date = local.date
        return calendar.covers(year: date.year)
            && (date.month > 1 || date.day > 1 || calendar.covers(year: date.year - 1))
    }

    /// Whether a place is open at the moment: on duty, or its hours say open. Unknown is not open.
    public func isOpen(_ hours: PlaceHours?) -> Bool {
        guard let hours, hours.zoneID >= 0 else { return false }
        // Places with the same hours share one object, and the answer is the same for all of them
        // at one moment: a direct-mapped memo by object answers most candidates of a query.
        let key = UInt(bitPattern: ObjectIdentifier(hours))
        let slot = Int(truncatingIfNeeded: (key >> 4) & UInt(OpeningClock.memoSlots - 1))
        if memoKeys[slot] == key { return memoValues[slot] }
        let open = evaluate(hours)
        memoKeys[slot] = key
        memoValues[slot] = open
        return open
    }

    private static let memoSlots = 256
    @exclusivity(unchecked) private var memoKeys = [UInt](repeating: 0, count: OpeningClock.memoSlots)
    @exclusivity(unchecked) private var memoValues = [Bool](repeating: false, count: OpeningClock.memoSlots)

    /// `isOpen` without the memo: the cost of evaluating one place's hours.
    public func evaluate(_ hours: PlaceHours) -> Bool {
        let (local, instant) = point(hours)
        if !hours.duty.isEmpty, hours.onDuty(at: instant) { return true }
        guard decidable(hours, local) else { return false }
        return hours.openByHours(
            at: local, holidays: hours.usesHolidays ? holidays(hours) ?? noHolidays : noHolidays)
    }

    /// The status at an instant in a zone, without the next change.
    private func status(_ hours: PlaceHours, instant: Int64, local: LocalTime)
        -> (status: OpeningState.Status, onDuty: Bool, comment: String?)
    {
        if hours.onDuty(at: instant) { return (.open, true, nil) }
        guard let parsed = hours.hours, decidable(hours, local) else { return (.unknown, false, nil) }
        let state = parsed.state(at: local, holidays: holidays(hours) ?? noHolidays)
        let status: OpeningState.Status =
            switch state.status {
            case .open: .open
            case .closed: .closed
            case .unknown: .unknown
            }
        return (status, false, state.comment)
    }

    /// The place's state at the moment with its next change (within 8 days).
    public func state(of hours: PlaceHours?) -> OpeningState {
        guard let hours, let zone = hours.zone else { return .unknown }
        let (local, instant) = point(hours)
        let now = status(hours, instant: instant, local: local)
        var state = OpeningState(status: now.status, onDuty: now.onDuty, comment: now.comment)
        if now.onDuty { state.dutyEnds = hours.dutyEnd(at: instant) }
        guard now.status != .unknown else { return state }
        let holidays = holidays(hours) ?? noHolidays
        var current = (local: local, instant: instant)
        for _ in 0..<64 {
            var candidates: [Int64] = []
            if let boundary = hours.nextDutyBoundary(after: current.instant) { candidates.append(boundary) }
            if let change = hours.hours?.nextChange(after: current.local, holidays: holidays) {
                candidates.append(max(CivilTime.instant(of: change.at, in: zone), current.instant + 60))
            }
            guard let next = candidates.min(), next <= instant + OpeningClock.horizonSeconds else { break }
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(next)))
            let nextLocal = CivilTime.local(next, offsetSeconds: offset)
            let then = status(hours, instant: next, local: nextLocal)
            if then.status != now.status {
                state.nextChange = next
                state.nextStatus = then.status
                state.nextChangeOffsetSeconds = offset
                state.nextChangeAheadSeconds = next - instant
                break
            }
            current = (nextLocal, next)
        }
        return state
    }
}
