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
            Every file is read and checked first; then all places are stored in one transaction, \
            so an import is stored whole or not at all. The first bad row stops the import with \
            FILE:LINE: what is wrong, unless --skip-invalid (then each skipped row is reported and \
            counted). A place whose kind and id are already stored is updated; --replace first \
            deletes every stored place of the kinds imported. A running server sees an import \
            after its next start.
            """)

    @Argument(help: ArgumentHelp("CSV (id,name,lat,lon,…) or GeoJSON files.", valueName: "file")) var files: [String]
    @Option(help: "Kind of the places (a kind column or property overrides it per row).") var kind: String
    @Flag(help: "Delete the stored places of the imported kinds first.") var replace = false
    @Flag(help: "Leave bad rows out, reporting each, instead of stopping at the first.") var skipInvalid = false
    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        let kind = self.kind.trimmingCharacters(in: .whitespaces)
        do { try PlaceDirectory.validatePlace(kind: kind, id: "-") } catch { throw CLIError(error) }
        guard !files.isEmpty else { throw CLIError.usage("no file to import: give one or more CSV or GeoJSON files") }
        let started = DispatchTime.now().uptimeNanoseconds
        var places: [Place] = []
        var skipped = 0
        var firstSeen: [String: SourceLocation] = [:]
        for path in files.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let file: PlaceFile
            do { file = try PlaceLoader.load(path: path, defaultKind: kind, skipInvalid: skipInvalid) } catch {
                throw CLIError(error)
            }
            for error in file.skipped { output.warning("skipped \(error.description)") }
            skipped += file.skipped.count
            // Checked in place; the places are copied only when some are left out.
            var problems: [Int: String] = [:]
            // Kinds and ids are stored in Unicode NFC, as the façade stores every write (the
            // reader already took two spellings of one id for a duplicate).
            var read = file.places
            if read.contains(where: { !$0.kind.utf8.allSatisfy { $0 < 0x80 } || !$0.id.utf8.allSatisfy { $0 < 0x80 } })
            {
                for index in read.indices {
                    read[index].kind = PlaceDirectory.composed(read[index].kind)
                    read[index].id = PlaceDirectory.composed(read[index].id)
                }
            }
            for (offset, place) in read.enumerated() {
                var problem: String?
                do { try PlaceDirectory.validatePlace(kind: place.kind, id: place.id) } catch {
                    problem = "\(file.origins[offset]): \(error.description)"
                }
                // Within one file the reader has checked; across files the first one wins.
                if problem == nil, files.count > 1 {
                    let key = place.kind + "\u{0}" + place.id
                    if let first = firstSeen[key] {
                        problem =
                            PlacesError.duplicateID(place.id, at: file.origins[offset], firstAt: first).description
                    } else {
                        firstSeen[key] = file.origins[offset]
                    }
                }
                guard let problem else { continue }
                guard skipInvalid else { throw CLIError.data(problem) }
                output.warning("skipped \(problem)")
                problems[offset] = problem
            }
            skipped += problems.count
            if places.isEmpty && problems.isEmpty {
                places = read
            } else {
                places.reserveCapacity(places.count + read.count - problems.count)
                for (offset, place) in read.enumerated() where problems[offset] == nil { places.append(place) }
            }
        }
        let readSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let store = try database.locate().open(output: &output)
        let kinds = Set(places.map(\.kind)).union([kind])
        let bar = ProgressBar(total: places.count, label: "importing", enabled: output.streaming)
        do {
            try store.importPlaces(places, replacingKinds: replace ? kinds : []) { bar.update($0) }
        } catch {
            bar.finish()
            throw CLIError.ioError("\(store.path): \(error.description)")
        }
        bar.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let rate = seconds > 0 ? Int(Double(places.count) / seconds) : 0
        let skippedText = skipped > 0 ? "; skipped \(skipped) invalid \(skipped == 1 ? "row" : "rows")" : ""
        output.line(
            "Imported \(places.count) \(places.count == 1 ? "place" : "places") into \(store.path) in "
                + "\(String(format: "%.2f", seconds)) s (\(rate) rows/s; reading and checking "
                + "\(String(format: "%.2f", readSeconds)) s, storing \(String(format: "%.2f", seconds - readSeconds)) s)"
                + "\(skippedText).")
    }
}
