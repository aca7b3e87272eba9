import Foundation
import OpeningHours

/// A place's opening hours, compiled once from its attributes when the place is made, so that a
/// query asks "open at this moment?" in tens of nanoseconds per candidate.
///
/// The attributes:
/// - `opening_hours`: OpenStreetMap's syntax (module `OpeningHours`); a value it cannot parse is
///   kept as written and makes the hours unknown.
/// - `tz`: the IANA zone the hours are in (`Europe/Rome`). Without a zone the hours cannot be
///   placed in time and are unknown; `vicinity import --tz` fills it in for a file.
/// - `holidays`: the name of the holiday calendar its `PH` rules use; by default the `country`
///   attribute (`IT` → `Data/holidays/IT.txt`).
/// - `duty`: duty-rota spells (`DutyRota`): open, "on duty", whatever the hours say.
public final class PlaceHours: Sendable {
    /// The attribute names read.
    public static let hoursAttribute = "opening_hours"
    public static let zoneAttribute = "tz"
    public static let calendarAttribute = "holidays"
    public static let dutyAttribute = "duty"
    public static let countryAttribute = "country"

    /// The parsed hours; nil when the place has none or they do not parse.
    public let hours: OpeningHours?
    /// Why the hours did not parse, or nil.
    public let hoursProblem: OpeningHoursError?
    /// The zone and its `TimeZones` id; nil without a `tz` or with one the system does not know.
    public let zone: TimeZone?
    let zoneID: Int
    /// The holiday calendar's name, or nil.
    public let calendar: String?
    /// The duty spells as written; nil when there is no `duty` attribute or it does not parse.
    public let rota: DutyRota?
    /// The duty spells in absolute time, merged (empty without a zone).
    let duty: [ClosedOpenSeconds]
    /// Whether the hours have a `PH` rule (then the calendar is consulted).
    let usesHolidays: Bool

    private init(hours: String?, zone zoneName: String?, calendar: String?, duty dutyText: String?) {
        var parsed: OpeningHours?
        var problem: OpeningHoursError?
        if let hours, !hours.isEmpty {
            do { parsed = try OpeningHours(parsing: hours) } catch { problem = error }
        }
        self.hours = parsed
        self.hoursProblem = problem
        let zone = zoneName.flatMap(TimeZones.zone(named:))
        self.zone = zone?.zone
        self.zoneID = zone?.id ?? -1
        self.calendar = calendar
        let rota = dutyText.flatMap(DutyRota.init(parsing:))
        self.rota = rota
        self.duty = zone.map { rota?.intervals(in: $0.zone) ?? [] } ?? []
        self.usesHolidays = parsed?.usesPublicHolidays ?? false
    }

    /// Whether the hours say open at a local time (false without hours), evaluated in place.
    @inline(__always)
    func openByHours(at local: LocalTime, holidays: PublicHolidays) -> Bool {
        guard let hours else { return false }
        return hours.state(at: local, holidays: holidays).status == .open
    }

    /// The hours of a place with these attributes, or nil when it has neither `opening_hours` nor
    /// `duty` (the common case, decided without looking at the other names twice).
    static func compile(names: [String], values: [String]) -> PlaceHours? {
        var hours: String?
        var duty: String?
        for (index, name) in names.enumerated() {
            let length = name.utf8.count
            if length == 13, name == hoursAttribute { hours = values[index] }
            if length == 4, name == dutyAttribute { duty = values[index] }
        }
        guard hours?.isEmpty == false || duty?.isEmpty == false else { return nil }
        var zone: String?
        var calendar: String?
        var country: String?
        for (index, name) in names.enumerated() {
            switch name {
            case zoneAttribute: zone = values[index]
            case calendarAttribute: calendar = values[index]
            case countryAttribute: country = values[index]
            default: break
            }
        }
        let chosen = [calendar, country].compactMap { $0 }.first { !$0.isEmpty }
        return shared.hours(hours: hours, zone: zone, calendar: chosen, duty: duty)
    }

    /// Compiled hours by their inputs: places with the same hours, zone and calendar (most of a
    /// chain's, a city's) share one object, parsed once, small enough to stay in the cache while a
    /// query evaluates thousands of candidates.
    private final class Interned: @unchecked Sendable {
        struct Key: Hashable {
            var hours: String?
            var zone: String?
            var calendar: String?
            var duty: String?
        }

        let lock = NSLock()
        var table: [Key: PlaceHours] = [:]
        /// Beyond this many distinct inputs the table starts afresh (a bound on memory).
        static let capacity = 65_536

        func hours(hours: String?, zone: String?, calendar: String?, duty: String?) -> PlaceHours {
            let key = Key(hours: hours, zone: zone, calendar: calendar, duty: duty)
            lock.lock()
            if let found = table[key] {
                lock.unlock()
                return found
            }
            lock.unlock()
            let made = PlaceHours(hours: hours, zone: zone, calendar: calendar, duty: duty)
            lock.lock()
            defer { lock.unlock() }
            if table.count >= Interned.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = made
            return made
        }
    }

    private static let shared = Interned()

    /// Whether a name is one of those the hours are compiled from.
    static func isHoursAttribute(_ name: String) -> Bool {
        [hoursAttribute, zoneAttribute, calendarAttribute, dutyAttribute, countryAttribute].contains(name)
    }

    /// Whether the place is on duty at an instant (seconds since 1970).
    func onDuty(at instant: Int64) -> Bool {
        // The last spell starting at or before the instant.
        var low = 0
        var high = duty.count
        while low < high {
            let middle = (low + high) / 2
            if duty[middle].start <= instant { low = middle + 1 } else { high = middle }
        }
        return low > 0 && instant < duty[low - 1].end
    }

    /// The end of the duty spell holding an instant, or nil when none does.
    func dutyEnd(at instant: Int64) -> Int64? {
        duty.first { $0.start <= instant && instant < $0.end }?.end
    }

    /// The first duty boundary (a spell's start or end) after an instant, or nil.
    func nextDutyBoundary(after instant: Int64) -> Int64? {
        for spell in duty {
            if spell.start > instant { return spell.start }
            if spell.end > instant { return spell.end }
        }
        return nil
    }
}
