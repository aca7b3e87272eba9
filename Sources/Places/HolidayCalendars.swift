import Foundation
import OpeningHours

/// Public-holiday calendars by name (`IT`, `GB-ENG`): the dates a place's `PH` rules select.
///
/// A calendar is a text file `NAME.txt`: one date `YYYY-MM-DD` per line, optionally followed by
/// whitespace and the holiday's name; blank lines and lines starting with `#` are skipped. A place
/// uses the calendar its `holidays` attribute names, else the one its `country` names; with none
/// (or an unknown name) `PH` selects no day.
public struct HolidayCalendars: Sendable {
    /// The calendars by name.
    public var calendars: [String: PublicHolidays]

    public init(_ calendars: [String: PublicHolidays] = [:]) { self.calendars = calendars }

    /// The calendar of this name, or nil.
    public subscript(name: String) -> PublicHolidays? { calendars[name] }

    /// Every `*.txt` file of a folder, each named by its file name without `.txt`.
    ///
    /// - Throws: `PlacesError.cannotRead` for a folder or file that cannot be read,
    ///   `.invalidValue` naming `FILE:LINE` for a line that is not a date.
    public static func load(folder: String) throws(PlacesError) -> HolidayCalendars {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .cannotRead(file: folder, reason: "cannot list the folder")
        }
        var calendars = HolidayCalendars()
        for file in names.sorted() where file.hasSuffix(".txt") {
            calendars.calendars[String(file.dropLast(4))] = try read(path: folder + "/" + file)
        }
        return calendars
    }

    /// Reads one calendar file.
    public static func read(path: String) throws(PlacesError) -> PublicHolidays {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .cannotRead(file: path, reason: "cannot read it as UTF-8 text")
        }
        var dates: [CalendarDate] = []
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let word = trimmed.prefix { !$0.isWhitespace }
            guard let time = DutyRota.localTime(word + "T00:00") else {
                throw .invalidValue(
                    noun: "holiday date at \(path):\(number + 1)", value: String(word),
                    expected: "a date YYYY-MM-DD, optionally followed by a space and the holiday's name")
            }
            dates.append(time.date)
        }
        return PublicHolidays(dates)
    }
}
