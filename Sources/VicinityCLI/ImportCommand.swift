import ArgumentParser
import Foundation
import Places
import PlacesSQLite

/// `vicinity import`: places from CSV or GeoJSON files into the database, all or nothing.
struct ImportCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import places from CSV or GeoJSON files into the database, in one transaction.",
        discussion: """
            The files are read, checked and stored piece by piece in one transaction, so an import \
            is stored whole or not at all, and its memory does not grow with the files. The first bad row stops the import with \
            FILE:LINE: what is wrong, unless --skip-invalid (then each skipped row is reported and \
            counted). A file named - is standard input (vicinity export --kind cafe | vicinity \
            import - --kind cafe --db other.sqlite). A place whose kind and id are already stored \
            is updated; --replace first deletes every stored place of the kinds imported. A \
            running server follows the database and serves an import at once.
            """)

    @Argument(help: ArgumentHelp("CSV (id,name,lat,lon,…) or GeoJSON files; - for standard input.", valueName: "file"))
    var files: [String]
    @Option(help: "Kind of the places (a kind column or property overrides it per row).") var kind: String
    @Flag(help: "Delete the stored places of the imported kinds first.") var replace = false
    @Flag(help: "Leave bad rows out, reporting each, instead of stopping at the first.") var skipInvalid = false
    @Option(
        help: ArgumentHelp(
            "Time zone of the places' opening hours where a place has no tz attribute (IANA name, e.g. Europe/Istanbul).",
            valueName: "zone"))
    var tz: String?
    @Option(
        help: ArgumentHelp(
            "Holiday calendar of PH rules where a place has no holidays attribute (NAME of NAME.txt, e.g. IT; default: its country).",
            valueName: "name"))
    var holidays: String?
    @Flag(
        help:
            "Refuse a place whose opening_hours does not parse (FILE:LINE and column) instead of keeping it with its hours unknown."
    )
    var strictHours = false
    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        let kind = self.kind.trimmingCharacters(in: .whitespaces)
        do { try PlaceDirectory.validatePlace(kind: kind, id: "-") } catch { throw CLIError(error) }
        guard !files.isEmpty else {
            throw CLIError.usage("no file to import: give one or more CSV or GeoJSON files, or - for standard input")
        }
        try StandardInput.checkReadOnce(files)
        let zone = try tz.map { text throws(CLIError) in try ArgumentValues.parse(text, Vocabulary.timeZone) }
        let calendar = try holidays.map { text throws(CLIError) in
            try ArgumentValues.parse(text, Vocabulary.attributeValue)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        var skipped = 0
        var imported = 0
        var waitNanoseconds: UInt64 = 0
        // A failed import leaves no database file it made: the input is read while it is stored.
        let made = try database.postgresSettings() == nil ? try ImportCommand.newFile(database.locate()) : nil
        var stored = false
        defer { if !stored, let made { ImportCommand.remove(database: made) } }
        let store = try database.openStore(output: &output)
        let reader = ImportReader(
            files: files.map { $0.trimmingCharacters(in: .whitespaces) }, kind: kind, skipInvalid: skipInvalid,
            strictHours: strictHours, zone: zone, calendar: calendar,
            duty: try replace ? [:] : ImportCommand.storedDuty(store))
        let bar = ProgressBar(total: 0, label: "importing", enabled: output.streaming)
        defer { bar.finish() }
        do {
            try store.storeStreaming(
                replacingKinds: replace ? [kind] : [], replacingEveryKindWritten: replace, progress: nil
            ) { sink in
                // The next piece is read and checked on another thread while this one stores the last.
                let pipeline = ImportPipeline<ImportReader.Piece>(capacity: 1)
                let (input, environment) = (StandardInput.given, CLIEnvironment.current)
                let readerEnded = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    Thread.current.name = "import-reader"
                    StandardInput.$given.withValue(input) {
                        CLIEnvironment.$current.withValue(environment) { reader.run(into: pipeline) }
                    }
                    readerEnded.signal()
                }
                // The reader is waited for only once it has finished by itself (its last piece
                // taken, or its error): when storing fails, it may be blocked reading a slow input,
                // and the error is reported at once (its next `put` stops it).
                var readerFinished = false
                defer {
                    pipeline.cancel()
                    if readerFinished { readerEnded.wait() }
                }
                while true {
                    let waitStarted = DispatchTime.now().uptimeNanoseconds
                    let next: ImportReader.Piece?
                    do {
                        next = try pipeline.take()
                    } catch {
                        readerFinished = true
                        throw error
                    }
                    waitNanoseconds += DispatchTime.now().uptimeNanoseconds - waitStarted
                    guard let piece = next else {
                        readerFinished = true
                        break
                    }
                    for warning in piece.warnings { output.warning(warning) }
                    // The database finds a kind and id read twice; the first place wins.
                    let repeats = try sink.write(piece.batch, origins: piece.origins)
                    for (offset, first) in repeats {
                        let problem = PlacesError.duplicateID(
                            piece.batch.places[offset].id, at: piece.origins[offset], firstAt: first
                        ).description
                        guard skipInvalid else { throw CLIError.data(problem) }
                        output.warning("skipped \(problem)")
                        skipped += 1
                    }
                    imported += piece.batch.places.count - repeats.count
                    bar.update(imported)
                }
                // A store that sorts the pieces aside finds repeats only now, all of them.
                for late in try sink.finish() {
                    let problem = PlacesError.duplicateID(late.id, at: late.at, firstAt: late.firstAt).description
                    guard skipInvalid else { throw CLIError.data(problem) }
                    output.warning("skipped \(problem)")
                    skipped += 1
                    imported -= 1
                }
            }
        } catch let error as CLIError {
            throw error
        } catch let error as PlacesError {
            throw CLIError(error)
        } catch {
            throw CLIError.ioError("\(store.name): \(error)")
        }
        stored = true
        skipped += reader.skipped
        reader.hoursReport.warnings().forEach { output.warning($0) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let readSeconds = Double(reader.readNanoseconds) / 1e9
        let checkSeconds = Double(reader.checkNanoseconds) / 1e9
        let storeSeconds = seconds - Double(waitNanoseconds) / 1e9
        let rate = seconds > 0 ? Int(Double(imported) / seconds) : 0
        let skippedText = skipped > 0 ? "; skipped \(skipped) invalid \(skipped == 1 ? "row" : "rows")" : ""
        output.line(
            "Imported \(imported) \(imported == 1 ? "place" : "places") into \(store.name) in "
                + "\(String(format: "%.2f", seconds)) s (\(rate) rows/s; reading "
                + "\(String(format: "%.2f", readSeconds)) s, checking \(String(format: "%.2f", checkSeconds)) s, "
                + "storing \(String(format: "%.2f", storeSeconds)) s, side by side)"
                + "\(skippedText).")
    }
}

extension ImportCommand {
    /// The database's path when no file is there yet.
    static func newFile(_ database: Database) -> String? {
        FileManager.default.fileExists(atPath: database.path) ? nil : database.path
    }

    /// Removes a database file and SQLite's files beside it.
    static func remove(database path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The place with `--tz` and `--holidays` filled in where it has no value of its own (every
    /// place: one without hours may get a duty rota later, whose times are in its zone).
    static func complete(_ place: inout Place, zone: String?, calendar: String?) {
        if let zone, place.attribute(PlaceHours.zoneAttribute)?.isEmpty ?? true {
            place.setAttribute(PlaceHours.zoneAttribute, to: zone)
        }
        if let calendar, place.attribute(PlaceHours.calendarAttribute)?.isEmpty ?? true {
            place.setAttribute(PlaceHours.calendarAttribute, to: calendar)
        }
    }

    /// The duty spells of every stored place that has some, by kind and id (NUL between): an
    /// import carries them over to a place whose row has no `duty` of its own, since refreshing
    /// a place file must not drop the rota that `import-rota` added.
    static func storedDuty(_ store: any CommandStore) throws(CLIError) -> [String: String] {
        var duty: [String: String] = [:]
        do {
            for place in try store.storedPlaces(withAttribute: PlaceHours.dutyAttribute) {
                if let spells = place.attribute(PlaceHours.dutyAttribute), !spells.isEmpty {
                    duty[place.kind + "\u{0}" + place.id] = spells
                }
            }
        } catch {
            throw CLIError.ioError("\(store.name): \(error)")
        }
        return duty
    }

    /// What an import found in the places' hours: values that do not parse, hours without a zone.
    struct HoursReport {
        var unparsed: [String] = []
        var unparsedCount = 0
        var withoutZone: [String] = []
        var withoutZoneCount = 0
        var withHours = 0

        /// The refusal of a place under `--strict-hours`, or nil; counts what it finds.
        mutating func check(_ place: Place, at origin: SourceLocation, strict: Bool) -> String? {
            guard let hours = place.hours else { return nil }
            let text = place.attribute(PlaceHours.hoursAttribute) ?? ""
            if let problem = hours.hoursProblem {
                let message =
                    "\(origin): opening_hours \(PlacesError.quoted(text)) does not parse at column "
                    + "\(problem.column): \(problem.message)"
                if strict { return message + " (without --strict-hours it is kept, its hours unknown)" }
                unparsedCount += 1
                if unparsed.count < 3 { unparsed.append(message) }
                return nil
            }
            if hours.hours != nil { withHours += 1 }
            if hours.zone == nil {
                withoutZoneCount += 1
                if withoutZone.count < 3 { withoutZone.append("\(origin): \(place.id)") }
            }
            return nil
        }

        /// One warning per kind of problem, with the first examples.
        func warnings() -> [String] {
            var lines: [String] = []
            if unparsedCount > 0 {
                lines.append(
                    "\(unparsedCount) \(unparsedCount == 1 ? "place has" : "places have") opening_hours that do not "
                        + "parse: kept with their hours unknown (--strict-hours refuses them); the first:")
                lines += unparsed.map { "  " + $0 }
            }
            if withoutZoneCount > 0 {
                lines.append(
                    "\(withoutZoneCount) \(withoutZoneCount == 1 ? "place has" : "places have") hours but no tz "
                        + "attribute: their hours are unknown until one is given (--tz ZONE); the first: "
                        + withoutZone.joined(separator: ", "))
            }
            return lines
        }
    }
}
