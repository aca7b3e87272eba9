import ArgumentParser
import Foundation
import Places

/// `vicinity import-rota`: duty spells onto stored places, in one transaction.
struct ImportRotaCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-rota",
        abstract: "Import a duty rota: spells when places are open on duty, whatever their hours say.",
        discussion: """
            The file is CSV with the header place_id,start,end: one spell a row, start and end \
            local times YYYY-MM-DDTHH:MM in the place's own zone (its tz attribute), e.g. \
            n306556997,2026-11-26T19:30,2026-11-27T08:30. Each place must be stored already and \
            have a tz. The spells are added to those the place has (spells that have ended are \
            dropped; --replace drops all earlier ones of the places named) and stored in one \
            transaction: all rows or none. During a spell the place is open, "on duty", in every \
            --open query; a running server follows the database and applies them at once.
            """)

    @Argument(help: ArgumentHelp("The rota CSV file (place_id,start,end).", valueName: "file")) var file: String
    @Option(help: "Kind of the places the rota names.") var kind = "pharmacy"
    @Flag(help: "Drop the earlier spells of each place named instead of adding to them.") var replace = false
    @Flag(help: "Keep spells that have already ended (by default they are dropped, old and new).") var keepEnded = false
    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        let kind = self.kind.trimmingCharacters(in: .whitespaces)
        do { try PlaceDirectory.validatePlace(kind: kind, id: "-") } catch { throw CLIError(error) }
        let rota: DutyRotaFile
        do { rota = try DutyRotaFile.read(path: file) } catch { throw CLIError(error) }
        let (store, snapshot) = try database.loadSnapshot(output: &output)
        let directory = snapshot.directory
        var spells: [String: [DutyRota.Spell]] = [:]
        var order: [String] = []
        for entry in rota.entries {
            guard directory.places.place(kind: kind, id: entry.placeID) != nil else {
                throw CLIError.data(
                    "\(entry.origin): no \(kind) \(PlacesError.quoted(entry.placeID)) is stored in \(store.name)")
            }
            if spells[entry.placeID] == nil { order.append(entry.placeID) }
            spells[entry.placeID, default: []].append(entry.spell)
        }
        var batch = PlaceImport()
        let now = Date()
        var dropped = 0
        do throws(PlacesError) {
            for id in order {
                guard let place = directory.places.place(kind: kind, id: id) else { continue }
                let given = spells[id] ?? []
                let updated = try place.addingDuty(given, replacing: replace, keepingEnded: keepEnded, now: now)
                dropped += Set(given).subtracting(updated.hours?.rota?.spells ?? []).count
                try batch.add(updated)
            }
        } catch {
            throw CLIError(error)
        }
        do { try batch.store(into: store) } catch { throw CLIError.ioError("\(store.name): \(error)") }
        let stored = order.reduce(0) { $0 + Set(spells[$1] ?? []).count } - dropped
        let droppedText =
            dropped > 0
            ? "; \(dropped) \(dropped == 1 ? "spell had" : "spells had") already ended and "
                + "\(dropped == 1 ? "was" : "were") left out (--keep-ended keeps them)" : ""
        output.line(
            "Imported \(stored) duty \(stored == 1 ? "spell" : "spells") for \(order.count) "
                + "\(ResultListing.plural(kind, order.count)) into \(store.name)\(droppedText).")
    }
}
