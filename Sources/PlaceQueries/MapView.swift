import Geo
import Places
import TextMap

/// The map's view model from a query's answer: every surface's map (`vicinity map`, the line
/// protocol's `MAP`, `GET /v1/map`) is drawn from this one.
public enum MapView {
    /// The answer's hits as markers on a local azimuthal-equidistant projection centred on the
    /// query point, with the nearest hit beyond the radius when the answer names one.
    ///
    /// - Parameters:
    ///   - radiusMeters: the ring, meters.
    ///   - halfExtentMeters: half the drawn square's side, meters; nil for the default.
    ///   - kind: what the title calls the hits (`pharmacy`, or `place` for several kinds).
    /// - Throws: `PlacesError.geo` when PROJ cannot make the projection.
    public static func model(
        _ answer: QueryAnswer, center: Coordinate, radiusMeters: Double, halfExtentMeters: Double? = nil,
        kind: String
    ) throws(PlacesError) -> MapModel {
        let beyond = answer.nearestBeyondRadius.map { [$0] } ?? []
        let markers = try markers(answer.hits + beyond, center: center)
        return MapModel(
            center: center, radiusMeters: radiusMeters, halfExtentMeters: halfExtentMeters, kind: kind,
            markers: Array(markers.prefix(answer.hits.count)),
            nearestBeyondRadius: beyond.isEmpty ? nil : markers.last)
    }

    /// The hits as markers, in order; a hit the projection cannot place (the antipode) is listed
    /// as outside the map. A hit with an opening state (a query with `open` or `hoursAt`) carries
    /// it with short labels (`OpeningLabel`), so the map marks open and closed places apart.
    public static func markers(_ hits: [QueryHit], center: Coordinate) throws(PlacesError) -> [MapMarker] {
        guard !hits.isEmpty else { return [] }
        let offsets: [(x: Double, y: Double)?]
        do {
            offsets = try LocalProjection(center: center).project(hits.map(\.coordinate))
        } catch {
            throw .geo(error)
        }
        return zip(hits, offsets).map { hit, offset in
            MapMarker(
                name: hit.name, kind: hit.kind, distanceMeters: hit.distanceMeters, bearingDegrees: hit.bearingDegrees,
                eastMeters: offset?.x ?? .nan, northMeters: offset?.y ?? .nan,
                opening: hit.opening.map(OpeningLabel.mapOpening))
        }
    }
}
