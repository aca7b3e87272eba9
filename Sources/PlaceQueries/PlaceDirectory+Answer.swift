import Geo
import Places

extension PlaceDirectory {
    /// Answers a query: the places or the users (those `query.principal` may see) it reaches,
    /// nearest first, ties by id, each with its distance and bearing.
    ///
    /// - Throws: `PlacesError.geo` for a radius, count or model the index refuses, or a hit the
    ///   projected model cannot measure.
    public func answer(_ query: PlaceQuery) throws(PlacesError) -> QueryAnswer {
        let (found, total) = try found(query.collection, query.reach, query)
        var answer = QueryAnswer(hits: try measured(found, query), total: total)
        if query.namesNearestBeyond, found.isEmpty, case .within = query.reach {
            let (beyond, _) = try self.found(query.collection, .nearest(count: 1, maxDistanceMeters: nil), query)
            answer.nearestBeyondRadius = try measured(beyond, query).first
        }
        return answer
    }

    /// A hit before its bearing: what and how far under the query's model.
    private struct Found {
        var id: String
        var name: String
        var kind: String
        var coordinate: Coordinate
        var distanceMeters: Double
        var visibility: Visibility?
        var place: Place?
    }

    private func found(_ collection: PlaceQuery.Collection, _ reach: PlaceQuery.Reach, _ query: PlaceQuery)
        throws(PlacesError) -> (hits: [Found], total: Int)
    {
        switch collection {
        case .users:
            let users: [UserHit]
            switch reach {
            case .within(let radius, _):
                users = try nearbyUsers(query.center, radiusMeters: radius, model: query.model, as: query.principal)
            case .nearest(let count, let maximum):
                users = try nearestUsers(
                    count, to: query.center, model: query.model, maxDistanceMeters: maximum, as: query.principal)
            }
            // A user without a location is on no map; the directory never returns one.
            let hits = users.compactMap { hit in
                hit.user.location.map {
                    Found(
                        id: hit.user.id, name: hit.user.name, kind: PlaceDirectory.userKind, coordinate: $0,
                        distanceMeters: hit.distanceMeters, visibility: hit.user.visibility)
                }
            }
            return PlaceDirectory.cut(hits, reach)
        case .places(let kinds) where kinds.count == 1:
            let kind = kinds[0]
            switch reach {
            case .within(let radius, let limit):
                let places = try nearby(
                    query.center, radiusMeters: radius, kind: kind, model: query.model, limit: limit)
                // Counting all is needed only when the limit may have cut the list.
                let total =
                    limit.map { places.count < $0 } ?? true
                    ? places.count : try count(query.center, radiusMeters: radius, kind: kind, model: query.model)
                return (places.map(PlaceDirectory.found), total)
            case .nearest(let count, let maximum):
                let places = try nearest(
                    count, to: query.center, kind: kind, model: query.model, maxDistanceMeters: maximum)
                return (places.map(PlaceDirectory.found), places.count)
            }
        case .places(let kinds):
            var hits: [Found] = []
            for kind in kinds {
                switch reach {
                case .within(let radius, _):
                    hits += try nearby(query.center, radiusMeters: radius, kind: kind, model: query.model)
                        .map(PlaceDirectory.found)
                case .nearest(let count, let maximum):
                    hits += try nearest(
                        count, to: query.center, kind: kind, model: query.model, maxDistanceMeters: maximum
                    ).map(PlaceDirectory.found)
                }
            }
            hits.sort { ($0.distanceMeters, $0.kind, $0.id) < ($1.distanceMeters, $1.kind, $1.id) }
            return PlaceDirectory.cut(hits, reach)
        }
    }

    private static func found(_ hit: PlaceHit) -> Found {
        Found(
            id: hit.place.id, name: hit.place.name, kind: hit.place.kind, coordinate: hit.place.coordinate,
            distanceMeters: hit.distanceMeters, place: hit.place)
    }

    /// The hits cut to the reach's limit or count, and how many there were.
    private static func cut(_ hits: [Found], _ reach: PlaceQuery.Reach) -> (hits: [Found], total: Int) {
        switch reach {
        case .within(_, let limit):
            guard let limit, hits.count > limit else { return (hits, hits.count) }
            return (Array(hits.prefix(limit)), hits.count)
        case .nearest(let count, _):
            return (Array(hits.prefix(count)), min(hits.count, count))
        }
    }

    private func measured(_ found: [Found], _ query: PlaceQuery) throws(PlacesError) -> [QueryHit] {
        var hits: [QueryHit] = []
        hits.reserveCapacity(found.count)
        do throws(GeoError) {
            switch query.measures {
            case .indexed:
                // One frame for every hit: normal-section bearings within 5 km (BearingFrame).
                let bearings = BearingFrame(from: query.center, model: query.model)
                for hit in found {
                    hits.append(
                        QueryHit(
                            id: hit.id, name: hit.name, kind: hit.kind, coordinate: hit.coordinate,
                            distanceMeters: hit.distanceMeters,
                            bearingDegrees: try bearings.bearing(to: hit.coordinate),
                            visibility: hit.visibility, place: hit.place))
                }
            case .exact:
                for hit in found {
                    let measure = try query.model.measure(query.center, hit.coordinate)
                    hits.append(
                        QueryHit(
                            id: hit.id, name: hit.name, kind: hit.kind, coordinate: hit.coordinate,
                            distanceMeters: measure.distanceMeters, bearingDegrees: measure.bearing,
                            visibility: hit.visibility, place: hit.place))
                }
            }
        } catch {
            throw .geo(error)
        }
        return hits
    }
}
