import ArgumentParser
import Places
import PlacesSQLite

/// `vicinity export`: the stored places of a kind as CSV or GeoJSON on standard output.
struct ExportCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the stored places of a kind as CSV or GeoJSON (import reads it back).",
        discussion: """
            CSV: id,name,lat,lon and the attributes (a kind column too with --kind all). GeoJSON: a \
            FeatureCollection of Points, [longitude, latitude]. Places are in id order; coordinates \
            in the shortest text that reads back to the same number. Users are not exported: their \
            records are theirs; only --state, the operator's check that a server's memory equals its \
            database, prints them (with token digests, never tokens).
            """)

    @Option(help: "Kind of places to export; all for every kind.") var kind: String?
    @Option(help: "csv or geojson.") var format = "csv"
    @Flag(
        help: """
            Print everything stored instead (places, users with their token digests, the admin \
            token's digest, one change-log line each, and the log position): byte for byte what \
            NODE.STATE prints of a server's memory once it has applied that position.
            """)
    var state = false
    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        if state {
            guard kind == nil else { throw CLIError.usage("--state prints every kind: leave out --kind") }
            output.write(try database.loadSnapshot(output: &output).1.stateDump)
            return
        }
        guard let kind = self.kind?.trimmingCharacters(in: .whitespaces) else {
            throw CLIError.usage("missing --kind KIND (all for every kind), or --state for everything stored")
        }
        let format = self.format.trimmingCharacters(in: .whitespaces).lowercased()
        guard format == "csv" || format == "geojson" else {
            throw CLIError.usage("invalid format \"\(ResultListing.printable(self.format))\": expected csv or geojson")
        }
        if kind != Vocabulary.everyKind {
            do { try PlaceDirectory.validatePlace(kind: kind, id: "-") } catch { throw CLIError(error) }
        }
        let store = try database.openStore(output: &output)
        let places: [Place]
        do {
            places = try kind == Vocabulary.everyKind ? store.storedPlaces() : store.storedPlaces(kind: kind)
        } catch {
            throw CLIError.data("\(store.name): \(CLIError.reason(error))")
        }
        if places.isEmpty { output.warning("no place of kind \"\(ResultListing.printable(kind))\" in \(store.name)") }
        if format == "csv" {
            for name in PlaceWriter.csvReservedAttributes(places) {
                output.warning(
                    "attribute \"\(ResultListing.printable(name))\" is named like a CSV column and is left out; "
                        + "--format geojson keeps it")
            }
        }
        let text =
            format == "csv"
            ? PlaceWriter.csv(places, withKind: kind == Vocabulary.everyKind) : PlaceWriter.geoJSON(places)
        output.write(text)
    }
}
