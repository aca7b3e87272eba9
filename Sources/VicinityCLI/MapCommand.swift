import ArgumentParser
import Foundation
import Geo
import Places
import TextMap

/// `vicinity map`: the neighbourhood as a text map, with the list of places under it.
struct MapCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw the places within a radius of a point as a text map, with the list under it.",
        discussion: """
            Latitude first, in decimal degrees: vicinity map 51.5152 -0.1420 --radius 500
            The map is an azimuthal-equidistant projection centred on the point, so distance and \
            direction from the centre are true; north is up. Places are numbered nearest first; \
            --kind all shows every kind. The size defaults to the terminal's (COLUMNS and LINES, \
            else the terminal itself), or 80 × 24 when output is not a terminal. Colour follows \
            --color; NO_COLOR turns off auto.
            --radius and --extent are at most 20000000 m (20,000 km, about half the Earth's \
            circumference: no point on Earth is farther away); --extent is at least 1 m.
            --json gives near --json's document, each result with its map cell, a "map" object \
            (side, cell_m) and "nearest_outside": the nearest place beyond the radius (id, name, \
            kind, lat, lon, distance_m, bearing_deg) when none is within it, else null.
            """
    )

    @Argument(help: "Latitude of the point, degrees (-90 to 90).") var latitude: String
    @Argument(help: "Longitude of the point, degrees (-180 to 180).") var longitude: String
    @Option(help: ArgumentHelp("Radius in meters, inclusive (0 to 20000000).", valueName: "meters"))
    var radius = "500"
    @Option(
        help: ArgumentHelp(
            "Half the side of the drawn square, meters (1 to 20000000; default 1.2 × the radius).",
            valueName: "meters")
    )
    var extent: String?
    @Option(help: ArgumentHelp("Width in columns (default: the terminal's, else 80).", valueName: "columns"))
    var width: String?
    @Option(help: ArgumentHelp("Height in lines (default: the terminal's, else 24).", valueName: "lines"))
    var height: String?
    @Flag(help: "Draw with plain ASCII instead of box-drawing characters.") var ascii = false
    @Option(
        help: ArgumentHelp(
            "Colour: auto (only on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color = "auto"
    @Flag(help: "A roomier, high-contrast layout: larger map squares, directions in words.") var large = false
    @OptionGroup var query: QueryOptions

    func execute(_ output: inout CommandOutput) throws {
        let center = try ArgumentValues.coordinate(latitude: latitude, longitude: longitude)
        let radiusMeters = try Self.radius(radius)
        let halfExtent = try extent.map { text throws(CLIError) in try Self.halfExtent(text) }
        let size = try screenSize()
        let colored = try useColor()
        let style = MapStyle(characters: ascii ? .ascii : .unicode, color: colored && !query.json, large: large)
        let model = try query.distanceModel()
        let kind = try query.kindName()
        // "all": every kind in the data, unless the data has a kind of that name.
        let everyKind = kind == "all"
        let data = try QueryData.load(query, kind: everyKind ? "place" : kind, output: &output)
        let kinds = everyKind && !data.kinds.contains("all") ? data.kinds : [kind]
        // One kind in the data under "all": the map is of that kind (its plural in the title, no
        // "(pharmacy)" after every name).
        let mapKind = kinds.count == 1 ? kinds[0] : "place"
        let listing = try ResultListing(
            center: center, model: model,
            hits: try Self.hits(in: data, kinds: kinds, center: center, radius: radiusMeters, model: model))
        let markers = try Self.markers(listing)
        var nearest: MapMarker?
        var nearestListing: ResultListing?
        if listing.rows.isEmpty {
            let beyond = try Self.hits(in: data, kinds: kinds, center: center, radius: nil, model: model)
            let beyondListing = try ResultListing(center: center, model: model, hits: beyond)
            nearest = try Self.markers(beyondListing).first
            nearestListing = beyondListing
        }
        let mapModel = MapModel(
            center: center, radiusMeters: radiusMeters, halfExtentMeters: halfExtent,
            kind: mapKind, markers: markers, nearestBeyondRadius: nearest)
        let rendered: RenderedMap
        do throws(TextMapError) {
            rendered = try MapRenderer(width: size.width, height: size.height, style: style).render(mapModel)
        } catch {
            throw CLIError.usage(error.description)
        }
        if kinds == [kind] { data.warnIfMissing(kind: kind, output: &output) }
        if query.json {
            output.line(
                try Self.json(listing, rendered, radiusMeters: radiusMeters, nearestOutside: nearestListing?.rows.first)
            )
            return
        }
        rendered.lines.forEach { output.line($0) }
    }

    /// The places within `radius` (or the nearest one, for nil) over every kind in `kinds`, nearest
    /// first, ties by id as `near` orders them.
    static func hits(
        in data: QueryData, kinds: [String], center: Coordinate, radius: Double?, model: DistanceModel
    ) throws(CLIError) -> [PlaceHit] {
        var hits: [PlaceHit] = []
        for kind in kinds {
            if let radius {
                hits += try data.nearby(center, radiusMeters: radius, kind: kind, model: model)
            } else {
                hits += try data.nearest(1, to: center, kind: kind, model: model)
            }
        }
        if kinds.count > 1 {
            hits.sort {
                ($0.distanceMeters, $0.place.kind, $0.place.id) < ($1.distanceMeters, $1.place.kind, $1.place.id)
            }
        }
        return radius == nil ? Array(hits.prefix(1)) : hits
    }

    /// The listing's places as map markers, placed by the azimuthal-equidistant projection.
    static func markers(_ listing: ResultListing) throws(CLIError) -> [MapMarker] {
        guard !listing.rows.isEmpty else { return [] }
        let offsets: [(x: Double, y: Double)?]
        do throws(GeoError) {
            offsets = try LocalProjection(center: listing.center).project(listing.rows.map(\.hit.place.coordinate))
        } catch {
            throw .internalError(error.description)
        }
        return zip(listing.rows, offsets).map { row, offset in
            MapMarker(
                name: row.hit.place.name, kind: row.hit.place.kind, distanceMeters: row.hit.distanceMeters,
                bearingDegrees: row.bearing, eastMeters: offset?.x ?? .nan, northMeters: offset?.y ?? .nan)
        }
    }

    /// The largest `--radius` and `--extent`, meters: 20,000 km, about half the Earth's
    /// circumference (20,004 km along a meridian on WGS84), so no place on Earth is farther. A ring
    /// larger than that would lie beyond the antipode.
    static let maximumMeters = 20_000_000.0
    /// The smallest `--extent`, meters: below a meter a cell is smaller than any coordinate in the
    /// data can place (`--extent 1e-10` asked for a 34 GB ring before it was refused).
    static let minimumExtentMeters = 1.0

    static func radius(_ typed: String) throws(CLIError) -> Double {
        let value = try ArgumentValues.meters(typed, name: "radius")
        guard value <= maximumMeters else {
            throw .usage(
                "invalid radius \"\(typed.trimmingCharacters(in: .whitespaces))\": a map takes 0 to 20000000 meters "
                    + "(20,000 km, half the way round the Earth)")
        }
        return value
    }

    static func halfExtent(_ typed: String) throws(CLIError) -> Double {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard let value = ArgumentValues.decimal(text), value >= minimumExtentMeters, value <= maximumMeters else {
            throw .usage("invalid extent \"\(text)\": expected a number of meters from 1 to 20000000 (20,000 km)")
        }
        return value
    }
}
