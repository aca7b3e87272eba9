import Geo
import Places
import RedisGeo

/// Vicinity's collections as Redis GEO keys, read through the façade: a key is a place kind (or
/// `user`, the users the asker may see), a member is a place id (a user id), and its score is
/// `GeoHash.encode` of the place's exact position (a user's, see below), so every command sees
/// Redis's quantized view.
///
/// In the `user` key every member but the asker is at their published location
/// (`PlaceDirectory.userOnMap`: the centre of their cell at their precision), for everyone, the
/// admin included — the map is the same for all; only the asker's own member is exact. Scores,
/// positions, hashes and searches therefore depend on nothing finer than the cell, and distances
/// to a member seen at a precision are rounded to its cell size (`shownPrecision`).
///
/// Places and users with |latitude| > 85.05112878 (`GeoHash.latitudeLimit`; imported by other
/// paths, since GEOADD refuses them) cannot be encoded and are in no key: Redis commands neither
/// count, find, position nor delete them.
///
/// The `user` key holds the public users with a location and the asker's own record; a private
/// user is missing for everybody else, exactly as `PlaceDirectory` hides it.
struct RedisGeoKeyspace {
    let directory: PlaceDirectory
    let principal: Principal

    /// Extra meters added to a search's reach when candidates are fetched from the grid index.
    ///
    /// Redis tests a member's decoded position (its cell's centre), Vicinity indexes the exact
    /// one; the two are at most half a cell apart: 180/2^26 degrees of longitude and
    /// 85.05112878/2^26 of latitude, at most 2.97e-6 degrees of arc, 0.33 m on Redis's sphere.
    /// By the triangle inequality every member Redis can report lies within reach + 0.33 m of the
    /// exact position; 2 m also covers the rounding of the two haversine evaluations (asin near
    /// the antipode loses up to ~1e-8 rad, 0.07 m).
    static let quantizationMarginMeters = 2.0
    /// Half the circumference of Redis's sphere, π R ≈ 20,015,087 m, rounded up: no two points
    /// are farther apart, so larger (or infinite) reaches are cut to it.
    static let maximumReachMeters = 20_016_000.0

    /// The score of a member (nil when the key does not hold it).
    func score(key: String, member: String) -> Double? {
        if key == PlaceDirectory.userKind {
            guard let location = userOnMap(member)?.location else { return nil }
            return Self.score(location)
        }
        guard let place = try? directory.place(kind: key, id: member) else { return nil }
        return Self.score(place.coordinate)
    }

    /// The sorted-set score of a position: nil beyond Redis's latitude limit.
    static func score(_ coordinate: Coordinate) -> Double? {
        score(longitude: coordinate.longitude, latitude: coordinate.latitude)
    }

    /// The sorted-set score of a position in degrees: nil beyond Redis's latitude limit.
    static func score(longitude: Double, latitude: Double) -> Double? {
        guard let bits = try? GeoHash.encode(longitude: longitude, latitude: latitude) else { return nil }
        return Double(bits)
    }

    /// The number of members (ZCARD): the kind's places minus those beyond the latitude limit,
    /// which the index finds in the two polar caps; for `user`, the same for the public users,
    /// plus the asker's own private record.
    func cardinality(key: String) throws(PlacesError) -> Int {
        if key == PlaceDirectory.userKind {
            var count = directory.publicUserCount
            for pole in [90.0, -90.0] {
                count -= try usersBeyondLimit(near: pole)
            }
            if case .user(let id) = principal, let own = try? directory.user(id, as: principal),
                own.visibility == .private, let location = own.location, Self.score(location) != nil
            {
                count += 1
            }
            return count
        }
        let total = directory.places.count(kind: key)
        guard total > 0 else { return 0 }
        let limit = GeoHash.latitudeLimit
        let north = try directory.inBox(south: limit.nextUp, west: -180, north: 90, east: 180, kind: key)
        let south = try directory.inBox(south: -90, west: -180, north: (-limit).nextDown, east: 180, kind: key)
        return total - north.count - south.count
    }

    /// The ids of every place of a kind that Redis commands see (for DEL), in id order.
    func placeIDs(kind: String) throws(PlacesError) -> [String] {
        let limit = GeoHash.latitudeLimit
        return try directory.inBox(south: -limit, west: -180, north: limit, east: 180, kind: kind).map(\.id)
    }

    /// The members within `reachMeters` of a centre on Redis's sphere, plus the quantization
    /// margin, in no particular order: a superset of what any Redis search within that reach can
    /// report, for `RedisGeoSearch.hits` to choose and order from.
    ///
    /// - Parameters:
    ///   - longitude, latitude: the search centre, degrees, inside Redis's limits.
    ///   - reachMeters: 0 or more; a radius, or for a box half its width plus half its height.
    func candidates(key: String, longitude: Double, latitude: Double, reachMeters: Double) throws(PlacesError)
        -> RedisGeoCandidates
    {
        let center: Coordinate
        do { center = try Coordinate(latitude: latitude, longitude: longitude) } catch { throw .geo(error) }
        let reach = min(reachMeters, Self.maximumReachMeters) + Self.quantizationMarginMeters
        if key == PlaceDirectory.userKind {
            var candidates = RedisGeoCandidates()
            let model = DistanceModel.haversine(.redis)
            for hit in try directory.nearbyUsers(center, radiusMeters: reach, model: model, as: principal) {
                guard let location = hit.user.location, let score = Self.score(location) else { continue }
                candidates.append(score: score, member: hit.user.id)
            }
            return candidates
        }
        guard let ids = directory.places.ids(kind: key) else { return RedisGeoCandidates() }
        // The places of the cells around the cap, straight from the index's scan: a superset of
        // those within reach, which is all the search needs; coded all at once after.
        let angle = reach / RedisGeo.earthRadiusMeters
        let filter = CapPrefilter(latitude: latitude, longitude: longitude, angularRadius: angle)
        return directory.places.withPlaces(kind: key, inCapAround: center, angularRadius: angle) { runs, count in
            // Each point written, then kept or overwritten by the next (no branch to mispredict).
            withUnsafeTemporaryAllocation(of: (longitude: Double, latitude: Double).self, capacity: count) { kept in
                var next = 0
                let handles = [UInt32](unsafeUninitializedCapacity: count) { keptHandles, keptHandleCount in
                    for run in runs {
                        for slot in run.handles.indices {
                            let point = run.positions[slot]
                            kept[next] = (point.longitude, point.latitude)
                            keptHandles[next] = run.handles[slot]
                            next += filter.mayHold(latitude: point.latitude, longitude: point.longitude) ? 1 : 0
                        }
                    }
                    keptHandleCount = next
                }
                return RedisGeoCandidates(
                    ids: ids, positions: UnsafeBufferPointer(rebasing: kept[..<next]), handles: handles)
            }
        }
    }

    /// The distance in meters on Redis's sphere, between exact positions, from the centre to the
    /// `rank`-th nearest place of `key` within `reachMeters` (plus the quantization margin); nil
    /// when fewer places lie there, and always for the `user` key (it holds few members, and its
    /// candidates come through the privacy filter).
    func distanceToNearest(rank: Int, key: String, longitude: Double, latitude: Double, reachMeters: Double)
        throws(PlacesError) -> Double?
    {
        guard key != PlaceDirectory.userKind, rank > 0 else { return nil }
        let center: Coordinate
        do { center = try Coordinate(latitude: latitude, longitude: longitude) } catch { throw .geo(error) }
        let reach = min(reachMeters, Self.maximumReachMeters) + Self.quantizationMarginMeters
        let nearest = try directory.nearest(
            rank, to: center, kind: key, model: .haversine(.redis), maxDistanceMeters: reach)
        return nearest.count == rank ? nearest.last?.distanceMeters : nil
    }

    /// A member of the `user` key as the asker's map shows it: the asker's own record exact,
    /// anyone else's at the published location; nil for a user the key does not hold (missing,
    /// private and not the asker's, or without a location).
    func userOnMap(_ id: String) -> User? {
        guard let user = try? directory.userOnMap(id, as: principal), user.location != nil else { return nil }
        return user
    }

    /// The precision distances to a member are rounded to for the asker
    /// (`LocationPrecision.rounded(distanceMeters:)`): a user's precision in the `user` key; nil
    /// (not rounded) for places, the asker's own member and a member the key does not hold.
    func shownPrecision(key: String, member: String) -> LocationPrecision? {
        guard key == PlaceDirectory.userKind, principal != .user(member), let user = userOnMap(member) else {
            return nil
        }
        return user.effectivePrecision
    }

    /// The coarser of two precisions (nil: not rounded), for a distance between two members.
    static func coarser(_ a: LocationPrecision?, _ b: LocationPrecision?) -> LocationPrecision? {
        guard let a else { return b }
        guard let b else { return a }
        return a.cellMeters >= b.cellMeters ? a : b
    }

    /// A distance as the reply gives it: rounded to `precision`'s cell size (unchanged for nil),
    /// in meters, before any conversion to the reply's unit.
    static func shown(distanceMeters: Double, _ precision: LocationPrecision?) -> Double {
        precision?.rounded(distanceMeters: distanceMeters) ?? distanceMeters
    }

    /// Public users with a location beyond the latitude limit, around one pole.
    private func usersBeyondLimit(near pole: Double) throws(PlacesError) -> Int {
        let center: Coordinate
        do { center = try Coordinate(latitude: pole, longitude: 0) } catch { throw .geo(error) }
        // From the pole to the limit along a meridian: (90 − 85.05112878)° on Redis's sphere.
        let capMeters = RedisGeo.latitudeDistance(90, GeoHash.latitudeLimit) + Self.quantizationMarginMeters
        let hits = try directory.nearbyUsers(
            center, radiusMeters: capMeters, model: .haversine(.redis), as: principal)
        return hits.filter { hit in
            hit.user.visibility == .public
                && (hit.user.location.map { abs($0.latitude) > GeoHash.latitudeLimit } ?? false)
        }.count
    }
}
