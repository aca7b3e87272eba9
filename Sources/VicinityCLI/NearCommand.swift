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
    @Option(
        help: ArgumentHelp("Print text, json (as --json) or geojson (a FeatureCollection).", valueName: "format"),
        completion: .list(ListingFormat.allCases.map(\.rawValue)))
    var format: String?
    @OptionGroup var query: QueryOptions

    func execute(_ output: inout CommandOutput) throws {
        let center = try ArgumentValues.coordinate(latitude: latitude, longitude: longitude) {
            "vicinity near \($0) \($1)"
        }
        let radiusMeters = try ArgumentValues.parse(radius, Vocabulary.radius)
        let limitCount = try limit.map { text throws(CLIError) in try ArgumentValues.parse(text, Vocabulary.limit) }
        let model = try query.distanceModel()
        let listingFormat = try ListingFormat.chosen(format, json: query.json)
        let kind = try query.kindName()
        let data = try QueryData.load(query, kind: kind, output: &output)
        let kinds = data.kinds(for: kind)
        let answer = try data.answer(
            kinds, center: center, reach: .within(radiusMeters: radiusMeters, limit: limitCount), model: model)
        let (hits, total) = (answer.hits, answer.total)
        let listing = ResultListing(center: center, model: model, hits: hits)
        if kinds == [kind] { data.warnIfMissing(kind: kind, output: &output) }
        switch listingFormat {
        case .json:
            output.line(
                try listing.json(radiusMeters: radiusMeters, count: nil, limit: limitCount, total: total, filters: data)
            )
            return
        case .geojson:
            output.line(listing.geoJSON())
            return
        case .text: break
        }
        let what = ResultListing.plural(QueryData.noun(kinds), total)
        let shown = total > hits.count ? ", the nearest \(hits.count)" : ""
        output.line(
            "\(total == 0 ? "No" : String(total)) \(what)\(data.filterText) within \(DistanceText.plain(radiusMeters)) m of "
                + "\(center) (\(listing.modelDescription))\(shown)\(total == 0 ? "." : ":")")
        listing.lines().forEach { output.line($0) }
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
    @Option(
        help: ArgumentHelp("Print text, json (as --json) or geojson (a FeatureCollection).", valueName: "format"),
        completion: .list(ListingFormat.allCases.map(\.rawValue)))
    var format: String?
    @OptionGroup var query: QueryOptions

    func execute(_ output: inout CommandOutput) throws {
        let center = try ArgumentValues.coordinate(latitude: latitude, longitude: longitude) {
            "vicinity nearest \($0) \($1)"
        }
        let wanted = try ArgumentValues.parse(count, Vocabulary.count)
        let maxMeters = try maxDistance.map { text throws(CLIError) in
            try ArgumentValues.parse(text, Vocabulary.maxDistance)
        }
        let model = try query.distanceModel()
        let listingFormat = try ListingFormat.chosen(format, json: query.json)
        let kind = try query.kindName()
        let data = try QueryData.load(query, kind: kind, output: &output)
        let kinds = data.kinds(for: kind)
        let hits = try data.answer(
            kinds, center: center, reach: .nearest(count: wanted, maxDistanceMeters: maxMeters), model: model
        ).hits
        let listing = ResultListing(center: center, model: model, hits: hits)
        if kinds == [kind] { data.warnIfMissing(kind: kind, output: &output) }
        switch listingFormat {
        case .json:
            output.line(try listing.json(radiusMeters: maxMeters, count: wanted, filters: data))
            return
        case .geojson:
            output.line(listing.geoJSON())
            return
        case .text: break
        }
        let noun = QueryData.noun(kinds)
        let within = maxMeters.map { " within \(DistanceText.plain($0)) m of \(center)" } ?? " in the data"
        output.line(
            hits.isEmpty
                ? "No \(ResultListing.plural(noun, 0))\(data.filterText)\(within) (\(listing.modelDescription))."
                : "The \(hits.count) \(ResultListing.plural(noun, hits.count))\(data.filterText) nearest to \(center)"
                    + "\(maxMeters.map { " within \(DistanceText.plain($0)) m" } ?? "") (\(listing.modelDescription)):")
        listing.lines().forEach { output.line($0) }
    }
}
