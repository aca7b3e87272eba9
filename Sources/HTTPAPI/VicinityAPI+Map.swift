import Geo
import OpenAPIRuntime
import PlaceQueries
import Places
import TextMap

/// `GET /v1/map`: the neighbourhood as a text map, the same drawing as `vicinity map` and the line
/// protocol's `MAP`.
extension VicinityAPI {
    /// The places of `kind` within `radius` meters drawn on a local azimuthal-equidistant
    /// projection centred on the point (north up), with the numbered list under it; with nothing
    /// in the radius, the nearest place beyond it is named. No colour; one `\n` after each line.
    /// `width` × `height` is the whole text's size, laid out by `MapRenderer` as on every surface:
    /// the map's size depends on it alone and a list too long is cut with "… and N more". `where`
    /// keeps the places with those attributes; `open` keeps them all, each with its state then.
    func renderMap(_ input: Operations.RenderMap.Input) async throws -> Operations.RenderMap.Output {
        let query = input.query
        let center = try QueryValues.coordinate(query.lat, query.lon)
        let radius = try QueryParameter.radius.check(query.radius ?? 500, Vocabulary.radius)
        let kind = try QueryValues.kind(query.kind)
        let width = try QueryParameter.width.check(query.width ?? 80, Vocabulary.mapWidth)
        let height = try QueryParameter.height.check(query.height ?? 24, Vocabulary.mapHeight)
        let filters = try QueryFilters(open: query.open, where: query._where)
        let question = filters.marking(
            PlaceQuery(
                kind: kind, center: center, reach: .within(radiusMeters: radius, limit: nil),
                principal: try principal(), namesNearestBeyond: true))
        let answer = try self.answer(question)
        let text: String
        do {
            let model = try MapView.model(answer, center: center, radiusMeters: radius, kind: kind)
            let style = MapStyle(characters: query.ascii == true ? .ascii : .unicode, color: false)
            let rendered = try MapRenderer(width: width, height: height, style: style).render(model)
            text = rendered.lines.joined(separator: "\n") + "\n"
        } catch {
            // Width, height and radius are checked above: what is left is the server's fault.
            throw HTTPAPIError.internalError(operation: "GET /v1/map")
        }
        return .ok(.init(body: .plainText(HTTPBody(text))))
    }
}
