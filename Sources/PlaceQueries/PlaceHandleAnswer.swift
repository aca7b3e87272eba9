import Geo
import Places

/// `PlaceDirectory.answer(_:)` for a radius query of one place kind without filters, its hits by
/// handle (`PlaceHandleHits`): the same hits, distances and bearings as that answer's
/// `QueryHit`s, for front ends that write them straight into a reply
/// (`PlaceDirectory.handleAnswer`).
public struct PlaceHandleAnswer: Sendable {
    /// Nearest first, ties by id; distances as `QueryHit.distanceMeters` has them.
    public var hits: PlaceHandleHits
    /// Each hit's bearing, as `QueryHit.bearingDegrees` (degrees clockwise from north, [0, 360)).
    public var bearings: [Double]
    /// Each hit's coordinate, WGS84 degrees, as `QueryHit.coordinate` (not rounded yet): read once
    /// from the index for the bearings, and kept for the reply.
    public var coordinates: [Coordinate]
    /// As `QueryAnswer.total`.
    public var total: Int
}

extension PlaceDirectory {
    /// The answer to a query that `answer(_:)` would answer with places of one kind within a
    /// radius, unfiltered and without opening states, whose hits it would not replace by the
    /// nearest beyond the radius; nil for any other query (ask `answer(_:)`).
    ///
    /// - Throws: what `answer(_:)` throws for the same query.
    public func handleAnswer(_ query: PlaceQuery) throws(PlacesError) -> PlaceHandleAnswer? {
        guard !query.filters, query.open == nil, query.hoursAt == nil, case .places(let kinds) = query.collection,
            kinds.count == 1, case .within(let radius, let limit) = query.reach
        else { return nil }
        let kind = kinds[0]
        var found = try places.nearbyHandles(
            query.center, radiusMeters: radius, kind: kind, model: query.model, limit: limit)
        if query.namesNearestBeyond, found.hits.isEmpty { return nil }
        // Counting all is needed only when the limit may have cut the list, and asked for.
        let cut = limit.map { found.hits.count >= $0 } ?? false
        let total =
            cut && query.countsAll
            ? try count(query.center, radiusMeters: radius, kind: kind, model: query.model) : found.hits.count
        var bearings = [Double](repeating: 0, count: found.hits.count)
        let coordinates = found.coordinates()
        do throws(GeoError) {
            switch query.measures {
            case .indexed:
                // One frame for every hit, as `answer(_:)` measures.
                let frame = BearingFrame(from: query.center, model: query.model)
                for index in found.hits.indices {
                    bearings[index] = try frame.bearing(to: coordinates[index])
                }
            case .exact:
                for index in found.hits.indices {
                    let measure = try query.model.measure(query.center, coordinates[index])
                    found.hits[index].distanceMeters = measure.distanceMeters
                    bearings[index] = measure.bearing
                }
            }
        } catch {
            throw .geo(error)
        }
        // A hit served at 0 m has bearing 0, as in `answer(_:)`.
        for index in found.hits.indices where ServedPrecision.distance(found.hits[index].distanceMeters) == 0 {
            bearings[index] = 0
        }
        return PlaceHandleAnswer(hits: found, bearings: bearings, coordinates: coordinates, total: total)
    }
}
