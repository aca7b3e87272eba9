import Foundation
import Geo
import OpenAPIRuntime
import PlaceQueries
import Places

/// `GET /v1/nearby` and `GET /v1/nearest`: places (or users, `kind=user`) near a point as JSON;
/// `GET /v1/nearby.geojson` and `GET /v1/nearest.geojson`: the same answers as RFC 7946
/// FeatureCollections. A first-version client's `format=geojson` (or `Accept` preferring
/// `application/geo+json`) on the JSON paths is a 303 to the GeoJSON one. A query of users is one
/// of the asker's queries about users (`answer(_:)`); the 303 is not. `open` and `where`
/// (`QueryFilters`) keep the places open at a moment and those with given attributes.
extension VicinityAPI {
    /// What a JSON list operation answers: the document, or a 303 to its GeoJSON form.
    enum ListReply<Document> {
        case list(Document)
        /// The `Location` of the 303 (its `Vary` is `Accept`).
        case seeOther(location: String)
    }

    /// The places within a radius, nearest first, ties by id; `total` counts them all when
    /// `limit` cuts the list.
    func findNearby(_ input: Operations.FindNearby.Input) async throws -> Operations.FindNearby.Output {
        switch try nearbyReply(input.query, accept: input.headers.accept) {
        case .seeOther(let location):
            return .seeOther(.init(headers: .init(location: location, vary: "Accept")))
        case .list(let list):
            // HitsJSONMiddleware sends the list, written by hand; the generated encoder gets none.
            let listSent = HitsJSONMiddleware.handOver(list.jsonBytes)
            let body = listSent ? .init(query: list.query, results: [], total: list.total ?? 0) : list.document
            return .ok(.init(headers: .init(vary: "Accept"), body: .json(body)))
        }
    }

    /// `findNearby`'s work without the generated layer, shared with `HotRoutes`: the parameters
    /// checked, the 303 when GeoJSON is wanted, else the answer; `byHandle`: a list only written
    /// (`jsonBuffer`, `jsonBytes`) may hold its hits by handle (`HitList.handles`).
    func nearbyReply(
        _ query: Operations.FindNearby.Input.Query,
        accept: [AcceptHeaderContentType<Operations.FindNearby.AcceptableContentType>], byHandle: Bool = false
    ) throws -> ListReply<NearbyList> {
        let filters = try QueryFilters(open: query.open, where: query._where)
        let (question, echo) = try nearbyQuestion(
            lat: query.lat, lon: query.lon, radius: query.radius, kind: query.kind, limit: query.limit,
            model: query.model, crs: CompatibilityParameters.crs, filters: filters)
        // Checked first, so that the GeoJSON operation is never sent a query it would refuse.
        if QueryValues.wantsGeoJSON(format: query.format, accept: accept) {
            let items = VicinityAPI.queryItems(
                [
                    ("lat", NumberText.plain(query.lat)), ("lon", NumberText.plain(query.lon)),
                    ("radius", query.radius.map(NumberText.plain)), ("kind", query.kind),
                    ("limit", query.limit.map(String.init)), ("model", query.model?.rawValue),
                    ("crs", CompatibilityParameters.crs),
                ] + filters.queryItems)
            return .seeOther(location: "/v1/nearby.geojson?" + items)
        }
        if byHandle, let handles = try read({ directory throws(PlacesError) in try directory.handleAnswer(question) }) {
            return .list(NearbyList(query: echo, hits: [], total: handles.total, handles: handles))
        }
        let answer = try self.answer(question)
        return .list(NearbyList(query: echo, hits: answer.hits, total: answer.total))
    }

    /// `findNearby`'s answer as a FeatureCollection.
    func findNearbyGeoJSON(_ input: Operations.FindNearbyGeoJSON.Input) async throws
        -> Operations.FindNearbyGeoJSON.Output
    {
        let query = input.query
        let (question, echo) = try nearbyQuestion(
            lat: query.lat, lon: query.lon, radius: query.radius, kind: query.kind, limit: query.limit,
            model: query.model, crs: CompatibilityParameters.crs,
            filters: try QueryFilters(open: query.open, where: query._where))
        let answer = try self.answer(question)
        let collection = Components.Schemas.NearbyFeatureCollection(
            _type: .featureCollection, features: answer.hits.map(\.feature), query: echo, total: answer.total)
        return .ok(.init(body: .applicationGeoJson(collection)))
    }

    /// The `count` places nearest to a point, however far unless `max_distance` says otherwise.
    func findNearest(_ input: Operations.FindNearest.Input) async throws -> Operations.FindNearest.Output {
        switch try nearestReply(input.query, accept: input.headers.accept) {
        case .seeOther(let location):
            return .seeOther(.init(headers: .init(location: location, vary: "Accept")))
        case .list(let list):
            let listSent = HitsJSONMiddleware.handOver(list.jsonBytes)
            let body = listSent ? .init(query: list.query, results: []) : list.document
            return .ok(.init(headers: .init(vary: "Accept"), body: .json(body)))
        }
    }

    /// `findNearest`'s work without the generated layer, shared with `HotRoutes`.
    func nearestReply(
        _ query: Operations.FindNearest.Input.Query,
        accept: [AcceptHeaderContentType<Operations.FindNearest.AcceptableContentType>]
    ) throws -> ListReply<NearestList> {
        let filters = try QueryFilters(open: query.open, where: query._where)
        let (question, echo) = try nearestQuestion(
            lat: query.lat, lon: query.lon, count: query.count, maxDistance: query.maxDistance, kind: query.kind,
            model: query.model, crs: CompatibilityParameters.crs, filters: filters)
        if QueryValues.wantsGeoJSON(format: query.format, accept: accept) {
            let items = VicinityAPI.queryItems(
                [
                    ("lat", NumberText.plain(query.lat)), ("lon", NumberText.plain(query.lon)),
                    ("count", query.count.map(String.init)),
                    ("max_distance", query.maxDistance.map(NumberText.plain)), ("kind", query.kind),
                    ("model", query.model?.rawValue), ("crs", CompatibilityParameters.crs),
                ] + filters.queryItems)
            return .seeOther(location: "/v1/nearest.geojson?" + items)
        }
        let hits = try self.answer(question).hits
        return .list(NearestList(query: echo, hits: hits, total: nil))
    }

    /// `findNearest`'s answer as a FeatureCollection.
    func findNearestGeoJSON(_ input: Operations.FindNearestGeoJSON.Input) async throws
        -> Operations.FindNearestGeoJSON.Output
    {
        let query = input.query
        let (question, echo) = try nearestQuestion(
            lat: query.lat, lon: query.lon, count: query.count, maxDistance: query.maxDistance, kind: query.kind,
            model: query.model, crs: CompatibilityParameters.crs,
            filters: try QueryFilters(open: query.open, where: query._where))
        let hits = try self.answer(question).hits
        let collection = Components.Schemas.NearestFeatureCollection(
            _type: .featureCollection, features: hits.map(\.feature), query: echo)
        return .ok(.init(body: .applicationGeoJson(collection)))
    }

    /// The radius query both representations ask, its parameters checked, and the query the
    /// answer echoes.
    private func nearbyQuestion(
        lat: Double, lon: Double, radius: Double?, kind: String?, limit: Int?,
        model: Components.Schemas.DistanceModelName?, crs: String?, filters: QueryFilters
    ) throws -> (PlaceQuery, Components.Schemas.NearbyQuery) {
        let center = try QueryValues.coordinate(lat, lon)
        let radius = try QueryParameter.radius.check(radius ?? 500, Vocabulary.radius)
        let kind = try QueryValues.kind(kind)
        let limit = try QueryParameter.limit.check(limit ?? 1000, Vocabulary.limit)
        let model = try QueryValues.model(model, crs: crs, center: center)
        let question = filters.filtering(
            PlaceQuery(
                kind: kind, center: center, reach: .within(radiusMeters: radius, limit: limit), model: model.model,
                principal: try principal()))
        let echo = Components.Schemas.NearbyQuery(
            lat: center.latitude, lon: center.longitude, radiusM: radius, kind: kind, limit: limit, model: model.name,
            crs: model.crs, sphereRadiusM: model.sphereRadiusMeters, open: filters.openText,
            _where: filters.attributeTexts)
        return (question, echo)
    }

    /// The nearest-places query both representations ask, its parameters checked, and the query
    /// the answer echoes.
    private func nearestQuestion(
        lat: Double, lon: Double, count: Int?, maxDistance: Double?, kind: String?,
        model: Components.Schemas.DistanceModelName?, crs: String?, filters: QueryFilters
    ) throws -> (PlaceQuery, Components.Schemas.NearestQuery) {
        let center = try QueryValues.coordinate(lat, lon)
        let count = try QueryParameter.count.check(count ?? 5, Vocabulary.count)
        let maximum = try maxDistance.map { (value: Double) throws(HTTPAPIError) -> Double in
            try QueryParameter.maxDistance.check(value, Vocabulary.maxDistance)
        }
        let kind = try QueryValues.kind(kind)
        let model = try QueryValues.model(model, crs: crs, center: center)
        let question = filters.filtering(
            PlaceQuery(
                kind: kind, center: center, reach: .nearest(count: count, maxDistanceMeters: maximum),
                model: model.model, principal: try principal()))
        let echo = Components.Schemas.NearestQuery(
            lat: center.latitude, lon: center.longitude, count: count, maxDistanceM: maximum, kind: kind,
            model: model.name, crs: model.crs, sphereRadiusM: model.sphereRadiusMeters, open: filters.openText,
            _where: filters.attributeTexts)
        return (question, echo)
    }

    /// `name=value&…` for the parameters given, each value percent-encoded (RFC 3986 unreserved
    /// characters kept).
    static func queryItems(_ items: [(name: String, value: String?)]) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return items.compactMap { item in
            item.value.map { "\(item.name)=\($0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? $0)" }
        }.joined(separator: "&")
    }
}
