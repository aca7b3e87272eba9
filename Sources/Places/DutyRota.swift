import Foundation
import OpeningHours

/// A place's duty spells (`duty` attribute): the times it is open on a rota whatever its hours
/// say, such as a pharmacy's night or holiday duty.
///
/// The attribute holds spells `START/END` separated by commas, each end a local time in the
/// place's zone (`tz`) written `YYYY-MM-DDTHH:MM`, the start before the end:
/// `2026-12-24T19:30/2026-12-25T08:30,2026-12-31T08:30/2026-12-31T20:00`. `vicinity import-rota`
/// writes it; spells may touch or overlap (they are merged).
public struct DutyRota: Sendable, Hashable {
    /// One spell in local wall-clock times.
    public struct Spell: Sendable, Hashable, Comparable {
        public var start: LocalTime
        public var end: LocalTime

        public init(start: LocalTime, end: LocalTime) {
            self.start = start
            self.end = end
        }

        public static func < (lhs: Spell, rhs: Spell) -> Bool {
            (CivilTime.seconds(ofWallClock: lhs.start), CivilTime.seconds(ofWallClock: lhs.end))
                < (CivilTime.seconds(ofWallClock: rhs.start), CivilTime.seconds(ofWallClock: rhs.end))
        }

        /// `START/END` as the attribute writes it.
        public var text: String { "\(DutyRota.text(start))/\(DutyRota.text(end))" }
    }

    /// The spells, sorted by start, as written.
    public var spells: [Spell]

    public init(spells: [Spell]) { self.spells = spells.sorted() }

    /// What a `duty` value must be, for messages.
    public static let expected =
        "spells START/END separated by commas, local times YYYY-MM-DDTHH:MM, each START before its END"

    /// Reads a `duty` value; nil when it is not the form `expected` describes. An empty value is
    /// no spells.
    public init?(parsing text: String) {
        var spells: [Spell] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty && text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let ends = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            guard ends.count == 2, let start = DutyRota.localTime(ends[0]), let end = DutyRota.localTime(ends[1]),
                CivilTime.seconds(ofWallClock: start) < CivilTime.seconds(ofWallClock: end)
            else { return nil }
            spells.append(Spell(start: start, end: end))
        }
        self.init(spells: spells)
    }

    /// The attribute's text: spells sorted, comma-separated.
    public var text: String { spells.map(\.text).joined(separator: ",") }

    /// `YYYY-MM-DDTHH:MM` (seconds `:00` allowed) as a local time; nil for anything else, a date
    /// that does not exist, a year outside 1900–9999 or an hour outside 00–23.
    public static func localTime(_ text: some StringProtocol) -> LocalTime? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16 || (bytes.count == 19 && bytes[16] == UInt8(ascii: ":")) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
            (1900...9999).contains(year), (1...12).contains(month),
            (1...CalendarDate.daysInMonth(month, year: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute)
        else { return nil }
        if bytes.count == 19 { guard number(17..<19) == 0 else { return nil } }
        return try? LocalTime(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    /// `YYYY-MM-DDTHH:MM`.
    public static func text(_ time: LocalTime) -> String {
        let hour = time.minute / 60
        let minute = time.minute % 60
        return "\(time.date)T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }

    /// The spells as absolute half-open intervals of seconds since 1970 in `zone`, sorted and
    /// merged where they touch or overlap.
    func intervals(in zone: TimeZone) -> [ClosedOpenSeconds] {
        var merged: [ClosedOpenSeconds] = []
        let absolute = spells.map {
            ClosedOpenSeconds(
                start: CivilTime.instant(of: $0.start, in: zone), end: CivilTime.instant(of: $0.end, in: zone))
        }
        for interval in absolute.sorted(by: { $0.start < $1.start }) where interval.start < interval.end {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1].end = max(last.end, interval.end)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }
}

/// A half-open interval of seconds since 1970: `start` included, `end` not.
struct ClosedOpenSeconds: Sendable, Hashable {
    var start: Int64
    var end: Int64
}
