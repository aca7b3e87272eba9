import Geo
import Places

extension PlaceDirectory {
    /// Answers a query: the places or the users (those `query.principal` may see) it reaches,
    /// nearest first, ties by id, each with its distance and bearing.
    ///
    /// - Throws: `PlacesError.geo` for a radius, count or model the index refuses, or a hit the
    ///   projected model cannot measure.
    public func answer(_ query: PlaceQuery) throws(PlacesError) -> QueryAnswer {
        if query.filters, case .users = query.collection {
            throw .invalidValue(
                noun: query.open != nil ? "open filter" : "attribute filter", value: PlaceDirectory.userKind,
                expected: "a place kind: users have no opening hours or attributes to filter on")
        }
        let clock = (query.open ?? query.hoursAt).map { OpeningClock(at: $0, calendars: holidays) }
        var (hits, total) = try found(query.collection, query.reach, query, clock)
        try PlaceDirectory.measure(&hits, query)
        var answer = QueryAnswer(hits: hits, total: total)
        if query.namesNearestBeyond, hits.isEmpty, case .within = query.reach {
            var (beyond, _) = try found(query.collection, .nearest(count: 1, maxDistanceMeters: nil), query, clock)
            try PlaceDirectory.measure(&beyond, query)
            answer.nearestBeyondRadius = beyond.first
        }
        return answer
    }

    /// The hits with the index's distances (bearings still 0), and how many there are.
    private func found(
        _ collection: PlaceQuery.Collection, _ reach: PlaceQuery.Reach, _ query: PlaceQuery,
        _ clock: OpeningClock?
    ) throws(PlacesError) -> (hits: [QueryHit], total: Int) {
        if query.filters, case .places(let kinds) = collection {
            return try filtered(kinds, reach, query, clock)
        }
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
                    QueryHit(
                        id: hit.user.id, name: hit.user.name, kind: PlaceDirectory.userKind, coordinate: $0,
                        distanceMeters: hit.distanceMeters, bearingDegrees: 0, visibility: hit.user.visibility,
                        precision: query.principal == .user(hit.user.id) ? nil : hit.user.effectivePrecision)
                }
            }
            return PlaceDirectory.cut(hits, reach)
        case .places(let kinds) where kinds.count == 1:
            let kind = kinds[0]
            switch reach {
            case .within(let radius, let limit):
                let places = try nearby(
                    query.center, radiusMeters: radius, kind: kind, model: query.model, limit: limit)
                // Counting all is needed only when the limit may have cut the list, and asked for.
                let cut = limit.map { places.count >= $0 } ?? false
                let total =
                    cut && query.countsAll
                    ? try count(query.center, radiusMeters: radius, kind: kind, model: query.model) : places.count
                return (places.map { PlaceDirectory.hit($0, clock) }, total)
            case .nearest(let count, let maximum):
                let places = try nearest(
                    count, to: query.center, kind: kind, model: query.model, maxDistanceMeters: maximum)
                return (places.map { PlaceDirectory.hit($0, clock) }, places.count)
            }
        case .places(let kinds):
            var hits: [QueryHit] = []
            for kind in kinds {
                switch reach {
                case .within(let radius, _):
                    hits += try nearby(query.center, radiusMeters: radius, kind: kind, model: query.model)
                        .map { PlaceDirectory.hit($0, clock) }
                case .nearest(let count, let maximum):
                    hits += try nearest(
                        count, to: query.center, kind: kind, model: query.model, maxDistanceMeters: maximum
                    ).map { PlaceDirectory.hit($0, clock) }
                }
            }
            hits.sort { ($0.distanceMeters, $0.kind, $0.id) < ($1.distanceMeters, $1.kind, $1.id) }
            return PlaceDirectory.cut(hits, reach)
        }
    }

    /// The places of `kinds` that pass the query's filters (opening hours, attributes), each with
    /// its opening state when the query asks for it.
    private func filtered(
        _ kinds: [String], _ reach: PlaceQuery.Reach, _ query: PlaceQuery, _ clock: OpeningClock?
    ) throws(PlacesError) -> (hits: [QueryHit], total: Int) {
        let matches = query.attributes
        let opensOnly = query.open != nil
        var hits: [QueryHit] = []
        var total = 0
        for kind in kinds {
            var found: [PlaceHit]
            switch reach {
            case .within(let radius, let limit):
                found = try places.nearby(
                    query.center, radiusMeters: radius, kind: kind, model: query.model, limit: nil
                ) { (place: borrowing Place) in
                    PlaceDirectory.passes(place, matches, opensOnly ? clock : nil)
                }
                total += found.count
                if let limit, kinds.count == 1, found.count > limit { found.removeSubrange(limit...) }
            case .nearest(let count, let maximum):
                found = try places.nearest(
                    count, to: query.center, kind: kind, model: query.model, maxDistanceMeters: maximum
                ) { (place: borrowing Place) in
                    PlaceDirectory.passes(place, matches, opensOnly ? clock : nil)
                }
                total += found.count
            }
            hits += found.map { PlaceDirectory.hit($0, clock) }
        }
        guard kinds.count > 1 else { return (hits, total) }
        hits.sort { ($0.distanceMeters, $0.kind, $0.id) < ($1.distanceMeters, $1.kind, $1.id) }
        return PlaceDirectory.cut(hits, reach)
    }

    /// Whether a place matches every attribute condition and, given a clock, is open by it.
    @inline(__always)
    private static func passes(_ place: borrowing Place, _ matches: [AttributeMatch], _ clock: OpeningClock?) -> Bool {
        for match in matches where !match.matches(place) { return false }
        guard let clock else { return true }
        return clock.isOpen(place.hours)
    }

    private static func hit(_ hit: PlaceHit, _ clock: OpeningClock?) -> QueryHit {
        var result = PlaceDirectory.hit(hit)
        if let clock { result.opening = clock.state(of: hit.place.hours) }
        return result
    }

    private static func hit(_ hit: PlaceHit) -> QueryHit {
        QueryHit(
            id: hit.place.id, name: hit.place.name, kind: hit.place.kind, coordinate: hit.place.coordinate,
            distanceMeters: hit.distanceMeters, bearingDegrees: 0)
    }

    /// The hits cut to the reach's limit or count, and how many there were.
    private static func cut(_ hits: [QueryHit], _ reach: PlaceQuery.Reach) -> (hits: [QueryHit], total: Int) {
        switch reach {
        case .within(_, let limit):
            guard let limit, hits.count > limit else { return (hits, hits.count) }
            return (Array(hits.prefix(limit)), hits.count)
        case .nearest(let count, _):
            return (Array(hits.prefix(count)), min(hits.count, count))
        }
    }

    /// Fills in each hit's bearing (and, for `.exact`, the model's own distance), in place.
    private static func measure(_ hits: inout [QueryHit], _ query: PlaceQuery) throws(PlacesError) {
        do throws(GeoError) {
            switch query.measures {
            case .indexed:
                // One frame for every hit: normal-section bearings within 5 km (BearingFrame).
                let bearings = BearingFrame(from: query.center, model: query.model)
                for index in hits.indices {
                    hits[index].bearingDegrees = try bearings.bearing(to: hits[index].coordinate)
                }
            case .exact:
                for index in hits.indices {
                    let measure = try query.model.measure(query.center, hits[index].coordinate)
                    hits[index].distanceMeters = measure.distanceMeters
                    hits[index].bearingDegrees = measure.bearing
                }
            }
        } catch {
            throw .geo(error)
        }
        // Distances to users others see at a precision are rounded to it, after the bearing and
        // the exact measure, which are taken from the published location. A hit served at 0 m
        // (under half a millimetre away) has bearing 0 (`ServedPrecision`): closer than that the
        // direction is the coordinates' last bits.
        for index in hits.indices {
            if ServedPrecision.distance(hits[index].distanceMeters) == 0 { hits[index].bearingDegrees = 0 }
            if let precision = hits[index].precision {
                hits[index].distanceMeters = precision.rounded(distanceMeters: hits[index].distanceMeters)
            }
        }
    }
}
