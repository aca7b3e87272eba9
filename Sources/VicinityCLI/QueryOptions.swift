import ArgumentParser
import Foundation
import Geo

/// Options shared by `near` and `nearest`.
struct QueryOptions: ParsableArguments {
    @Option(help: "Kind of place to search (a data file's kind column overrides it per row).")
    var kind = "pharmacy"
    @Option(help: "Distance model: geodesic (WGS84, exact), haversine (sphere) or projected (planar CRS).")
    var model = "geodesic"
    @Option(help: "CRS for --model projected: auto (UTM zone of the query point) or e.g. EPSG:32635.")
    var crs = "auto"
    @Option(
        help: ArgumentHelp(
            "Sphere radius for --model haversine, meters (default 6371008.8, the IUGG mean radius).",
            valueName: "meters"))
    var sphereRadius: String?
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "CSV (id,name,lat,lon,…) or GeoJSON file of places; repeat for several. Default: the shipped pharmacies.",
            valueName: "file")
    )
    var dataFiles: [String] = []
    @Flag(help: "Print one JSON document.") var json = false

    /// The distance model named by --model, --crs and --sphere-radius.
    func distanceModel() throws(CLIError) -> DistanceModel {
        switch model.trimmingCharacters(in: .whitespaces).lowercased() {
        case "geodesic":
            return .geodesic
        case "haversine":
            return .haversine(try QueryOptions.sphere(sphereRadius))
        case "projected":
            let choice = try QueryOptions.projection(crs)
            if case .crs(let name) = choice {
                do { try ProjectionPool.shared.validate(crs: name) } catch { throw .usage(error.description) }
            }
            return .projected(choice)
        default:
            throw .usage("invalid model \"\(model)\": expected geodesic, haversine or projected")
        }
    }

    static func sphere(_ text: String?) throws(CLIError) -> Haversine {
        guard let text else { return .iuggMean }
        guard let radius = ArgumentValues.decimal(text.trimmingCharacters(in: .whitespaces)), radius > 0 else {
            throw .usage(
                "invalid sphere radius \"\(text.trimmingCharacters(in: .whitespaces))\": expected a number of meters above 0"
            )
        }
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
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}

/// JSON documents for `--json`: keys sorted, no escaped slashes.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
