import ArgumentParser
import Geo
import Places

/// `vicinity near`: every place within a radius, nearest first.
struct NearCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "near",
        abstract: "List the places within a radius of a point, nearest first.",
        discussion: """
            Latitude first, in decimal degrees: vicinity near 51.508039 -0.128069 --radius 500
            Distances are measured on the WGS84 ellipsoid unless --model says otherwise; the \
            radius is inclusive (a place exactly at the radius is listed).
            """
    )

    @Argument(help: "Latitude of the point, degrees (-90 to 90).") var latitude: String
    @Argument(help: "Longitude of the point, degrees (-180 to 180).") var longitude: String
    @Option(help: ArgumentHelp("Radius in meters, inclusive.", valueName: "meters")) var radius = "500"
    @Option(help: ArgumentHelp("Show at most this many places.", valueName: "n")) var limit: String?
    @OptionGroup var query: QueryOptions

    func execute(_ output: inout CommandOutput) throws {
        let center = try ArgumentValues.coordinate(latitude: latitude, longitude: longitude)
        let radiusMeters = try ArgumentValues.meters(radius.trimmingCharacters(in: .whitespaces), name: "radius")
        let limitCount = try limit.map { text throws(CLIError) in
            try ArgumentValues.count(text.trimmingCharacters(in: .whitespaces), name: "limit")
        }
        let model = try query.distanceModel()
        let catalog = try ShippedData.catalog(paths: query.dataFiles, defaultKind: query.kind)
        let hits: [PlaceHit]
        do throws(PlacesError) {
            hits = try catalog.nearby(
                center, radiusMeters: radiusMeters, kind: query.kind, model: model, limit: limitCount)
        } catch {
            throw CLIError(error)
        }
        let listing = try ResultListing(center: center, model: model, hits: hits)
        if query.json {
            output.line(try listing.json(radiusMeters: radiusMeters, count: nil))
            return
        }
        let what = ResultListing.plural(query.kind, hits.count)
        output.line(
            "\(hits.isEmpty ? "No" : String(hits.count)) \(what) within \(DistanceText.plain(radiusMeters)) m of "
                + "\(center) (\(listing.modelDescription))\(hits.isEmpty ? "." : ":")")
        listing.lines().forEach { output.line($0) }
        if catalog.count(kind: query.kind) == 0 {
            output.warning(
                "no place of kind \"\(query.kind)\" in the data (kinds: \(catalog.kinds.joined(separator: ", ")))")
        }
    }
}

/// `vicinity nearest`: the closest places, however far.
struct NearestCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "List the places nearest to a point.",
        discussion: "Latitude first, in decimal degrees: vicinity nearest 51.530882 -0.123796 --count 5"
    )

    @Argument(help: "Latitude of the point, degrees (-90 to 90).") var latitude: String
    @Argument(help: "Longitude of the point, degrees (-180 to 180).") var longitude: String
    @Option(help: ArgumentHelp("How many places to list.", valueName: "n")) var count = "5"
    @Option(help: ArgumentHelp("Only places within this many meters.", valueName: "meters")) var maxDistance: String?
    @OptionGroup var query: QueryOptions

    func execute(_ output: inout CommandOutput) throws {
        let center = try ArgumentValues.coordinate(latitude: latitude, longitude: longitude)
        let wanted = try ArgumentValues.count(count.trimmingCharacters(in: .whitespaces), name: "count")
        let maxMeters = try maxDistance.map { text throws(CLIError) in
            try ArgumentValues.meters(text.trimmingCharacters(in: .whitespaces), name: "max distance")
        }
        let model = try query.distanceModel()
        let catalog = try ShippedData.catalog(paths: query.dataFiles, defaultKind: query.kind)
        let hits: [PlaceHit]
        do throws(PlacesError) {
            hits = try catalog.nearest(wanted, to: center, kind: query.kind, model: model, maxDistanceMeters: maxMeters)
        } catch {
            throw CLIError(error)
        }
        let listing = try ResultListing(center: center, model: model, hits: hits)
        if query.json {
            output.line(try listing.json(radiusMeters: maxMeters, count: wanted))
            return
        }
        let within = maxMeters.map { " within \(DistanceText.plain($0)) m" } ?? ""
        let what = ResultListing.plural(query.kind, hits.count)
        output.line(
            hits.isEmpty
                ? "No \(what)\(within) of \(center) (\(listing.modelDescription))."
                : "The \(hits.count) \(what) nearest to \(center)\(within) (\(listing.modelDescription)):")
        listing.lines().forEach { output.line($0) }
    }
}
