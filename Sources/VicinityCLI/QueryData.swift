import Geo
import Places

/// What `near`, `nearest` and `map` search: the `--data` files, or the database (places, and the
/// users a principal may see for `--kind user`). In files, `user` is a kind like any other.
struct QueryData {
    var directory: PlaceDirectory
    /// Who asks: anonymous, or the user whose token was given.
    var principal: Principal
    var fromDatabase: Bool

    /// Loads the data the options name.
    static func load(_ query: QueryOptions, kind: String, output: inout CommandOutput) throws(CLIError) -> QueryData {
        if !query.dataFiles.isEmpty {
            if query.database.db != nil {
                throw .usage("--data and --db exclude each other: --data searches files, --db a database")
            }
            let catalog = try ShippedData.catalog(paths: query.dataFiles, defaultKind: kind)
            return QueryData(directory: PlaceDirectory(places: catalog), principal: .anonymous, fromDatabase: false)
        }
        let (_, directory) = try query.database.locate().loadDirectory(output: &output)
        var principal = Principal.anonymous
        if kind == PlaceDirectory.userKind {
            do { principal = try directory.principal(presenting: TokenOption.resolve(query.token)) } catch {
                throw CLIError(error)
            }
        }
        return QueryData(directory: directory, principal: principal, fromDatabase: true)
    }

    /// The place kinds present.
    var kinds: [String] { directory.places.kinds }

    /// Everything of `kind` within `radius` meters, nearest first, ties by id.
    func nearby(_ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel) throws(CLIError)
        -> [PlaceHit]
    {
        do throws(PlacesError) {
            if fromDatabase && kind == PlaceDirectory.userKind {
                return try directory.nearbyUsers(center, radiusMeters: radiusMeters, model: model, as: principal)
                    .compactMap(QueryData.hit)
            }
            return try directory.nearby(center, radiusMeters: radiusMeters, kind: kind, model: model)
        } catch {
            throw CLIError(error)
        }
    }

    /// The `count` nearest of `kind`, within `maxDistanceMeters` if given.
    func nearest(
        _ count: Int, to center: Coordinate, kind: String, model: DistanceModel, maxDistanceMeters: Double? = nil
    ) throws(CLIError) -> [PlaceHit] {
        do throws(PlacesError) {
            if fromDatabase && kind == PlaceDirectory.userKind {
                return try directory.nearestUsers(
                    count, to: center, model: model, maxDistanceMeters: maxDistanceMeters, as: principal
                ).compactMap(QueryData.hit)
            }
            return try directory.nearest(
                count, to: center, kind: kind, model: model, maxDistanceMeters: maxDistanceMeters)
        } catch {
            throw CLIError(error)
        }
    }

    /// A warning when the data holds nothing of the kind searched (a typo in --kind).
    func warnIfMissing(kind: String, output: inout CommandOutput) {
        guard !fromDatabase || kind != PlaceDirectory.userKind else { return }
        ShippedData.warnIfMissing(kind: kind, in: directory.places, output: &output)
    }

    /// A user found as a place of kind `user`, for the listings and the map.
    private static func hit(_ hit: UserHit) -> PlaceHit? {
        guard let location = hit.user.location else { return nil }
        let place = Place(
            id: hit.user.id, kind: PlaceDirectory.userKind, name: hit.user.name, coordinate: location,
            attributes: hit.user.visibility == .private ? ["visibility": "private"] : [:])
        return PlaceHit(place: place, distanceMeters: hit.distanceMeters)
    }
}
