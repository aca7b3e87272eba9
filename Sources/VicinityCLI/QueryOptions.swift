import ArgumentParser
import Foundation
import Geo
import Places

/// Options shared by `near` and `nearest`.
struct QueryOptions: ParsableArguments {
    @Option(
        help: """
            Kind of place to search (a data file's kind column overrides it per row); all: every \
            kind; user: the public users in the database (and yourself, with your --token).
            """)
    var kind = "pharmacy"
    @Option(help: "Distance model: geodesic (WGS84, exact), haversine (sphere) or projected (planar CRS).")
    var model = "geodesic"
    @Option(help: "CRS for --model projected: auto (UTM zone of the query point, the default) or e.g. EPSG:32635.")
    var crs: String?
    @Option(
        help: ArgumentHelp(
            "Sphere radius for --model haversine, meters (default 6371008.8, the IUGG mean radius).",
            valueName: "meters"))
    var sphereRadius: String?
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "CSV (id,name,lat,lon,…) or GeoJSON file (- for standard input) to search instead of the database; repeatable.",
            valueName: "file")
    )
    var dataFiles: [String] = []
    @OptionGroup var database: DatabaseOptions
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Your user token, to see yourself with --kind user even when private (default: $VICINITY_TOKEN).",
            valueName: "token"))
    var token: String?
    @Flag(help: "Print one JSON document.") var json = false
    @Option(
        help: ArgumentHelp(
            "Only places open at this time: now, a time with its offset (2026-12-24T22:00+01:00) or a local time read in each place's zone (2026-12-24T22:00). Unknown hours are not open.",
            valueName: "time"))
    var open: String?
    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Only places whose attribute NAME is VALUE exactly, e.g. dispensing=yes; repeatable (all must hold).",
            valueName: "name=value"))
    var conditions: [String] = []
    @Option(
        help: ArgumentHelp(
            "Folder of holiday calendars NAME.txt for PH rules (default: the shipped Data/holidays).",
            valueName: "folder"))
    var holidays: String?

    /// `--open`, read.
    func openingMoment() throws(CLIError) -> OpeningMoment? {
        try open.map { text throws(CLIError) in try ArgumentValues.parse(text, Vocabulary.openingMoment) }
    }

    /// `--where`, read.
    func attributeMatches() throws(CLIError) -> [AttributeMatch] {
        try conditions.map { text throws(CLIError) in try ArgumentValues.parse(text, Vocabulary.attributeMatch) }
    }

    /// The holiday calendars: `--holidays`, else the shipped `Data/holidays` (none when it is
    /// missing).
    func holidayCalendars() throws(CLIError) -> HolidayCalendars {
        try ShippedData.holidays(folder: holidays)
    }

    /// The distance model named by --model, --crs and --sphere-radius. An option that does not
    /// apply to the chosen model is an error, not silently ignored.
    func distanceModel() throws(CLIError) -> DistanceModel {
        let typed = model.trimmingCharacters(in: .whitespaces)
        // Option words in any letter case, as the line protocol takes them.
        guard let name = ModelName(rawValue: typed.lowercased()) else {
            throw .usage(Vocabulary.model.invalid(typed).description)
        }
        if crs != nil && name != .projected { throw .usage("--crs applies only to --model projected") }
        if sphereRadius != nil && name != .haversine {
            throw .usage("--sphere-radius applies only to --model haversine")
        }
        switch name {
        case .geodesic:
            return .geodesic
        case .haversine:
            return .haversine(try QueryOptions.sphere(sphereRadius))
        case .projected:
            let choice = try QueryOptions.projection(crs ?? "auto")
            if case .crs(let name) = choice {
                do { try ProjectionPool.shared.validate(crs: name) } catch { throw .usage(error.description) }
            }
            return .projected(choice)
        }
    }

    /// The kind to search: `Vocabulary.queryKind` in the database, `Vocabulary.dataKind` in
    /// `--data` files (which may hold kinds a database would refuse).
    func kindName() throws(CLIError) -> String {
        try ArgumentValues.parse(kind, dataFiles.isEmpty ? Vocabulary.queryKind : Vocabulary.dataKind)
    }

    static func sphere(_ text: String?) throws(CLIError) -> Haversine {
        guard let text else { return .iuggMean }
        let radius = try ArgumentValues.parse(text, Vocabulary.sphereRadius)
        do { return try Haversine(radiusMeters: radius) } catch { throw .usage(error.description) }
    }

    static func projection(_ text: String) throws(CLIError) -> ProjectionChoice {
        do { return try ProjectionChoice(parsing: text) } catch { throw .usage(error.description) }
    }
}

/// How distances read in text output.
enum DistanceText {
    /// For lists: one decimal below 1 km ("131.9 m"), three above ("1.235 km").
    static func short(_ meters: Double) -> String {
        meters < 1000 ? String(format: "%.1f m", meters) : String(format: "%.3f km", meters / 1000)
    }

    /// For `dist`: millimeters ("131.936 m").
    static func precise(_ meters: Double) -> String { String(format: "%.3f m", meters) }

    /// A number without needless zeros ("500", "6371008.8").
    static func plain(_ value: Double) -> String { NumberText.plain(value) }
}

/// JSON documents for `--json`: keys sorted, no escaped slashes.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
