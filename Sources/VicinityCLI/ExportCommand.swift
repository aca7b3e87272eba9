import ArgumentParser
import Places

/// `vicinity export`: the stored places of a kind as CSV or GeoJSON on standard output.
struct ExportCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the stored places of a kind as CSV or GeoJSON (import reads it back).",
        discussion: """
            CSV: id,name,lat,lon and the attributes (a kind column too with --kind all). GeoJSON: a \
            FeatureCollection of Points, [longitude, latitude]. Places are in id order; coordinates \
            in the shortest text that reads back to the same number. Users are not exported: their \
            records are theirs.
            """)

    @Option(help: "Kind of places to export; all for every kind.") var kind: String
    @Option(help: "csv or geojson.") var format = "csv"
    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        let kind = self.kind.trimmingCharacters(in: .whitespaces)
        let format = self.format.trimmingCharacters(in: .whitespaces).lowercased()
        guard format == "csv" || format == "geojson" else {
            throw CLIError.usage("invalid format \"\(ResultListing.printable(self.format))\": expected csv or geojson")
        }
        if kind != Vocabulary.everyKind {
            do { try PlaceDirectory.validatePlace(kind: kind, id: "-") } catch { throw CLIError(error) }
        }
        let store = try database.locate().open(output: &output)
        let places: [Place]
        do { places = try kind == Vocabulary.everyKind ? store.places() : store.places(kind: kind) } catch {
            throw CLIError.data("\(store.path): \(error.description)")
        }
        if places.isEmpty { output.warning("no place of kind \"\(ResultListing.printable(kind))\" in \(store.path)") }
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
