import ArgumentParser
import Foundation
import Geo
import PlaceQueries
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
            --kind all shows every kind. --width × --height is the size of the whole output: the map's \
            size depends on it alone, a quarter of the height is kept for the list, and a longer list \
            ends in "… and N more". The size defaults to the terminal's (COLUMNS and LINES, else the \
            terminal itself), or 80 × 24 when output is not a terminal. Colour follows \
            --color; NO_COLOR turns off auto.
            --radius and --extent are at most 20000000 m (20,000 km, about half the Earth's \
            circumference: no point on Earth is farther away); --extent is at least 1 m.
            --json gives near --json's document, each result with its map cell, a "map" object \
            (side, cell_m) and "nearest_outside": the nearest place beyond the radius (id, name, \
            kind, lat, lon, distance_m, bearing_deg) when none is within it, else null.
            --open TIME marks each place open, closed or hours unknown at that time (the legend says \
            how) instead of leaving the closed ones out; --where keeps only the places it matches.
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
    @Option(
        help: ArgumentHelp(
            "Width of the whole output in columns, 30 to 1000 (default: the terminal's, else 80).",
            valueName: "columns"))
    var width: String?
    @Option(
        help: ArgumentHelp(
            "Height of the whole output in lines, 10 to 1000 (default: the terminal's, else 24).",
            valueName: "lines"))
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
        let radiusMeters = try ArgumentValues.parse(radius, Vocabulary.radius)
        let halfExtent = try extent.map { text throws(CLIError) in try ArgumentValues.parse(text, Vocabulary.mapExtent)
        }
        let size = try screenSize()
        let colored = try useColor()
        let style = MapStyle(characters: ascii ? .ascii : .unicode, color: colored && !query.json, large: large)
        let model = try query.distanceModel()
        let kind = try query.kindName()
        let data = try QueryData.load(query, kind: kind, output: &output)
        let kinds = data.kinds(for: kind)
        // One kind in the data under "all": the map is of that kind (its plural in the title, no
        // "(pharmacy)" after every name).
        let mapKind = kinds.count == 1 ? kinds[0] : "place"
        let answer = try data.answer(
            kinds, center: center, reach: .within(radiusMeters: radiusMeters, limit: nil), model: model,
            namesNearestBeyond: true, marksHours: true)
        let listing = ResultListing(center: center, model: model, hits: answer.hits)
        let mapModel: MapModel
        do throws(PlacesError) {
            mapModel = try MapView.model(
                answer, center: center, radiusMeters: radiusMeters, halfExtentMeters: halfExtent, kind: mapKind)
        } catch {
            throw CLIError.internalError(error.description)
        }
        let rendered: RenderedMap
        do throws(TextMapError) {
            rendered = try MapRenderer(width: size.width, height: size.height, style: style).render(mapModel)
        } catch {
            throw CLIError.usage(error.description)
        }
        if kinds == [kind] { data.warnIfMissing(kind: kind, output: &output) }
        if query.json {
            output.line(
                try Self.json(listing, rendered, radiusMeters: radiusMeters, nearestOutside: answer.nearestBeyondRadius)
            )
            return
        }
        rendered.lines.forEach { output.line($0) }
    }
}
