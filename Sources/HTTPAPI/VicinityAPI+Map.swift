import Geo
import OpenAPIRuntime
import Places
import TextMap

/// `GET /v1/map`: the neighbourhood as a text map, the same drawing as `vicinity map` and the line
/// protocol's `MAP`.
extension VicinityAPI {
    /// The places of `kind` within `radius` meters drawn on a local azimuthal-equidistant
    /// projection centred on the point (north up), with the numbered list under it; with nothing
    /// in the radius, the nearest place beyond it is named. No colour; one `\n` after each line.
    func renderMap(_ input: Operations.RenderMap.Input) async throws -> Operations.RenderMap.Output {
        let query = input.query
        let center = try QueryValues.coordinate(query.lat, query.lon)
        let radius = try QueryParameter.radius.check(query.radius ?? 500)
        let kind = try QueryValues.kind(query.kind)
        let width = try QueryParameter.width.check(query.width ?? 80)
        let height = try QueryParameter.height.check(query.height ?? 24)
        let principal = try principal()
        let (hits, nearest) = try read { directory throws(PlacesError) in
            let hits = try QueryHit.find(
                in: directory, kind: kind, from: center, model: .geodesic,
                users: { directory throws(PlacesError) in
                    try directory.nearbyUsers(center, radiusMeters: radius, as: principal)
                },
                places: { directory throws(PlacesError) in
                    try directory.nearby(center, radiusMeters: radius, kind: kind)
                }
            )
            guard hits.isEmpty else { return (hits, nil as QueryHit?) }
            let beyond = try QueryHit.find(
                in: directory, kind: kind, from: center, model: .geodesic,
                users: { directory throws(PlacesError) in try directory.nearestUsers(1, to: center, as: principal) },
                places: { directory throws(PlacesError) in try directory.nearest(1, to: center, kind: kind) })
            return (hits, beyond.first)
        }
        let text: String
        do {
            let projection = try LocalProjection(center: center)
            func marker(_ hit: QueryHit) -> MapMarker {
                MapMarker(
                    name: hit.name, kind: kind, coordinate: hit.coordinate, distanceMeters: hit.distanceMeters,
                    bearingDegrees: hit.bearingDegrees, projection: projection)
            }
            let model = MapModel(
                center: center, radiusMeters: radius, kind: kind, markers: hits.map(marker),
                nearestBeyondRadius: nearest.map(marker))
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
