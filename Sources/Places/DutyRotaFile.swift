import Foundation
import OpeningHours

/// A duty-rota file (`vicinity import-rota`): CSV with the header `place_id,start,end` (more
/// columns are ignored), one duty spell a row, `start` and `end` local times `YYYY-MM-DDTHH:MM` in
/// the place's own zone, the start before the end.
public struct DutyRotaFile: Sendable {
    /// One row.
    public struct Entry: Sendable, Hashable {
        public var placeID: String
        public var spell: DutyRota.Spell
        public var origin: SourceLocation
    }

    public var entries: [Entry]

    /// The columns a rota file needs.
    public static let requiredColumns = ["place_id", "start", "end"]

    /// Reads a rota file.
    ///
    /// - Throws: `PlacesError.cannotRead`, the CSV errors of `PlaceCSVReader`, `.missingColumn`,
    ///   and `.invalidValue` naming `FILE:LINE` for a bad time or a spell that ends before it starts.
    public static func read(path: String) throws(PlacesError) -> DutyRotaFile {
        let bytes = try SourceFile.bytes(atPath: path)
        var scanner = CSVScanner(bytes: bytes, file: path)
        var fields: [CSVScanner.Field] = []
        guard try scanner.next(into: &fields) != nil else { throw .missingHeader(file: path) }
        let header = fields.map { scanner.string($0) ?? "" }
        var columns: [Int] = []
        for name in requiredColumns {
            guard let index = header.firstIndex(of: name) else { throw .missingColumn(file: path, column: name) }
            columns.append(index)
        }
        var entries: [Entry] = []
        while let line = try scanner.next(into: &fields) {
            let origin = SourceLocation(file: path, position: .line(line))
            guard fields.count == header.count else {
                throw .wrongFieldCount(origin, expected: header.count, found: fields.count)
            }
            let values = columns.map { scanner.string(fields[$0]) ?? "" }
            let id = values[0].trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty else { throw .emptyID(origin) }
            func time(_ text: String, _ noun: String) throws(PlacesError) -> LocalTime {
                guard let time = DutyRota.localTime(text.trimmingCharacters(in: .whitespaces)) else {
                    throw .invalidValue(
                        noun: "\(noun) at \(origin)", value: text,
                        expected: "a local time YYYY-MM-DDTHH:MM in the place's zone")
                }
                return time
            }
            let start = try time(values[1], "start")
            let end = try time(values[2], "end")
            guard CivilTime.seconds(ofWallClock: start) < CivilTime.seconds(ofWallClock: end) else {
                throw .invalidValue(
                    noun: "duty spell at \(origin)", value: "\(values[1])/\(values[2])",
                    expected: "a start before its end")
            }
            entries.append(Entry(placeID: id, spell: DutyRota.Spell(start: start, end: end), origin: origin))
        }
        return DutyRotaFile(entries: entries)
    }
}

extension Place {
    /// The place with duty spells added to its `duty` attribute: spells that ended before `now`
    /// (in the place's zone) are dropped unless `keepingEnded`, the rest kept sorted; `replacing`
    /// drops every earlier spell first.
    ///
    /// - Throws: `PlacesError.invalidValue` when the place has no valid `tz` (local times could not
    ///   be placed in time) or its current `duty` does not parse.
    public func addingDuty(
        _ spells: [DutyRota.Spell], replacing: Bool = false, keepingEnded: Bool = false, now: Date = Date()
    )
        throws(PlacesError) -> Place
    {
        guard let zoneName = attribute(PlaceHours.zoneAttribute), let zone = TimeZones.zone(named: zoneName) else {
            throw .invalidValue(
                noun: "place for a duty rota", value: "\(kind) \(id)",
                expected: "a place with a tz attribute (import it with --tz ZONE): a rota's times are local")
        }
        var kept: [DutyRota.Spell] = []
        if !replacing, let text = attribute(PlaceHours.dutyAttribute), !text.isEmpty {
            guard let rota = DutyRota(parsing: text) else {
                throw .invalidValue(noun: "duty rota of \(kind) \(id)", value: text, expected: DutyRota.expected)
            }
            kept = rota.spells
        }
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let all = Set(kept + spells).filter {
            keepingEnded || CivilTime.instant(of: $0.end, in: zone.zone) > nowSeconds
        }
        var place = self
        place.setAttribute(PlaceHours.dutyAttribute, to: DutyRota(spells: Array(all)).text)
        return place
    }
}
