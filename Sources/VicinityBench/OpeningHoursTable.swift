import Foundation
import OpeningHours
import Places

/// The table `scripts/opening-hours-reference.sh` compares with the reference parser: every
/// `opening_hours` value evaluated at every local instant, as JSON lines in the shape
/// `Tests/OpeningHoursTests/Reference/reference.py` writes.
///
/// One line per value and instant:
/// `{"value": …, "instant": "YYYY-MM-DDTHH:MM", "state": "open|closed|unknown", "comment": …,
/// "next_change": "YYYY-MM-DDTHH:MM" | null}`, or `"state": "unparseable"` with `"error"` for a
/// value the parser refuses. `comment` is `""` when the deciding rule has none, as the reference
/// writes it.
struct OpeningHoursTable {
    /// A problem in one of the input files, with the file's line.
    struct InputError: Error, CustomStringConvertible {
        var description: String
    }

    /// The values, unescaped (`\t`, `\n`, `\r`, `\\`), in file order.
    var values: [String]
    /// The instants as written and as local times.
    var instants: [(text: String, time: LocalTime)]
    var holidays: PublicHolidays
    /// How far `next_change` looks ahead; the reference script gives its parser 1,000 days.
    var horizonDays: Int

    /// Reads `value<TAB>source` lines (the source is ignored; blank lines are skipped).
    static func values(tsv text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            let field = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return field.allSatisfy(\.isWhitespace) ? nil : unescape(field)
        }
    }

    /// `\t`, `\n`, `\r` and `\\` as `reference.py` reads them; any other escaped character stands for itself.
    static func unescape(_ field: Substring) -> String {
        var result = ""
        var escaped = false
        for character in field {
            if escaped {
                switch character {
                case "t": result.append("\t")
                case "n": result.append("\n")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }

    /// Reads `YYYY-MM-DDTHH:MM` lines; `#` starts a comment line.
    static func instants(_ text: String, file: String) throws(InputError) -> [(text: String, time: LocalTime)] {
        var instants: [(text: String, time: LocalTime)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: "T")
            guard parts.count == 2, let date = date(parts[0]), let minute = minuteOfDay(parts[1]),
                let time = try? LocalTime(date: date, weekday: Weekday(of: date), minute: minute)
            else {
                throw InputError(description: "\(file):\(number + 1): expected YYYY-MM-DDTHH:MM, found \"\(trimmed)\"")
            }
            instants.append((trimmed, time))
        }
        return instants
    }

    /// Reads a holiday file: one `YYYY-MM-DD` a line, optional text after whitespace, `#` comments.
    static func holidays(_ text: String, file: String) throws(InputError) -> PublicHolidays {
        var dates: [CalendarDate] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let field = trimmed.split(whereSeparator: \.isWhitespace)[0]
            guard let date = date(field) else {
                throw InputError(description: "\(file):\(number + 1): expected YYYY-MM-DD, found \"\(field)\"")
            }
            dates.append(date)
        }
        return PublicHolidays(dates)
    }

    /// A `YYYY-MM-DD` date that exists, or nil.
    static func date(_ text: Substring) -> CalendarDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let date = CalendarDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// `HH:MM` as minutes since midnight (00:00–23:59), or nil.
    static func minuteOfDay(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// `YYYY-MM-DDTHH:MM`, the instant format of the reference script.
    static func format(_ time: LocalTime) -> String {
        let text = time.description  // "YYYY-MM-DD HH:MM"
        return text.replacingOccurrences(of: " ", with: "T")
    }

    /// Calls `emit` with each line of the table, value by value in file order.
    func write(_ emit: (String) -> Void) {
        for value in values {
            let hours: OpeningHours
            do {
                hours = try OpeningHours(parsing: value)
            } catch {
                for instant in instants {
                    emit(
                        Self.json([
                            ("value", value), ("instant", instant.text), ("state", "unparseable"),
                            ("error", error.description),
                        ]))
                }
                continue
            }
            for instant in instants {
                let state = hours.state(at: instant.time, holidays: holidays)
                let change = hours.nextChange(after: instant.time, holidays: holidays, withinDays: horizonDays)
                emit(
                    Self.json([
                        ("value", value), ("instant", instant.text), ("state", Self.name(state.status)),
                        ("comment", state.comment ?? ""), ("next_change", change.map { Self.format($0.at) }),
                    ]))
            }
        }
    }

    static func name(_ status: OpeningHours.Status) -> String {
        switch status {
        case .open: "open"
        case .closed: "closed"
        case .unknown: "unknown"
        }
    }

    /// One JSON object with its fields in the given order; nil is `null`.
    static func json(_ fields: [(String, String?)]) -> String {
        "{"
            + fields.map { "\(PlaceWriter.jsonString($0.0)): \($0.1.map(PlaceWriter.jsonString) ?? "null")" }
            .joined(separator: ", ") + "}"
    }
}
