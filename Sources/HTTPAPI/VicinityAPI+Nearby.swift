import Geo
import PlaceQueries
import Places

/// `GET /v1/nearby` and `GET /v1/nearest`: places (or users, `kind=user`) near a point, as JSON
/// or as an RFC 7946 FeatureCollection.
extension VicinityAPI {
    /// The places within a radius, nearest first, ties by id; `total` counts them all when
    /// `limit` cuts the list.
    func findNearby(_ input: Operations.FindNearby.Input) async throws -> Operations.FindNearby.Output {
        let query = input.query
        let center = try QueryValues.coordinate(query.lat, query.lon)
        let radius = try QueryParameter.radius.check(query.radius ?? 500, Vocabulary.radius)
        let kind = try QueryValues.kind(query.kind)
        let limit = try QueryParameter.limit.check(query.limit ?? 1000, Vocabulary.limit)
        let model = try QueryValues.model(query.model, crs: query.crs, center: center)
        let question = PlaceQuery(
            kind: kind, center: center, reach: .within(radiusMeters: radius, limit: limit), model: model.model,
            principal: try principal())
        let answer = try read { directory throws(PlacesError) in try directory.answer(question) }
        let (hits, total) = (answer.hits, answer.total)
        let echo = Components.Schemas.NearbyQuery(
            lat: center.latitude, lon: center.longitude, radiusM: radius, kind: kind, limit: limit, model: model.name,
            crs: model.crs, sphereRadiusM: model.sphereRadiusMeters)
        let body: Operations.FindNearby.Output.Ok.Body
        if QueryValues.wantsGeoJSON(format: query.format, accept: input.headers.accept) {
            body = .applicationGeoJson(
                .init(_type: .featureCollection, features: hits.map(\.feature), query: echo, total: total))
        } else {
            let result = Components.Schemas.NearbyResult(query: echo, results: hits.map(\.placeHit), total: total)
            // HitsJSONMiddleware sends the list, written by hand; the generated encoder gets none.
            let listSent = HitsJSONMiddleware.handOver(result.jsonBytes)
            body = .json(listSent ? .init(query: echo, results: [], total: total) : result)
        }
        return .ok(.init(headers: .init(vary: "Accept"), body: body))
    }

    /// The `count` places nearest to a point, however far unless `max_distance` says otherwise.
    func findNearest(_ input: Operations.FindNearest.Input) async throws -> Operations.FindNearest.Output {
        let query = input.query
        let center = try QueryValues.coordinate(query.lat, query.lon)
        let count = try QueryParameter.count.check(query.count ?? 5, Vocabulary.count)
        let maximum = try query.maxDistance.map { (value: Double) throws(HTTPAPIError) -> Double in
            try QueryParameter.maxDistance.check(value, Vocabulary.maxDistance)
        }
        let kind = try QueryValues.kind(query.kind)
        let model = try QueryValues.model(query.model, crs: query.crs, center: center)
        let question = PlaceQuery(
            kind: kind, center: center, reach: .nearest(count: count, maxDistanceMeters: maximum), model: model.model,
            principal: try principal())
        let hits = try read { directory throws(PlacesError) in try directory.answer(question) }.hits
        let echo = Components.Schemas.NearestQuery(
            lat: center.latitude, lon: center.longitude, count: count, maxDistanceM: maximum, kind: kind,
            model: model.name, crs: model.crs, sphereRadiusM: model.sphereRadiusMeters)
        let body: Operations.FindNearest.Output.Ok.Body
        if QueryValues.wantsGeoJSON(format: query.format, accept: input.headers.accept) {
            body = .applicationGeoJson(.init(_type: .featureCollection, features: hits.map(\.feature), query: echo))
        } else {
            let result = Components.Schemas.NearestResult(query: echo, results: hits.map(\.placeHit))
            let listSent = HitsJSONMiddleware.handOver(result.jsonBytes)
            body = .json(listSent ? .init(query: echo, results: []) : result)
        }
        return .ok(.init(headers: .init(vary: "Accept"), body: body))
    }
}
