import Geo
import OpenAPIRuntime
import Places

/// `GET /v1/nearby/watch`, `GET /v1/users/nearby/watch` and `GET /v1/users/{id}/nearby/watch`
/// (roaming: centred on a user wherever they go): a radius query kept open as
/// Server-Sent Events (`WatchEventStream`). The parameters are checked as `/v1/nearby` and
/// `/v1/users/nearby` check theirs, with the same messages; the watch is made before the answer
/// starts, so that everything the directory refuses (a roaming watch without the user's token, too
/// many watches) is a problem document with its status, not an event.
extension VicinityAPI {
    /// The places (or users, `kind=user`) within a radius of a point, as they change.
    func watchNearby(_ input: Operations.WatchNearby.Input) async throws -> Operations.WatchNearby.Output {
        let query = input.query
        let kind = try QueryValues.kind(query.kind)
        let center = WatchSpec.Center.point(try QueryValues.coordinate(query.lat, query.lon))
        let radius = try QueryParameter.radius.check(query.radius ?? 500, Vocabulary.radius)
        let model: DistanceModel = query.model == .haversine ? .sphere : .geodesic
        let after = try QueryValues.resumePosition(header: input.headers.lastEventID, query: query.lastEventId)
        let spec = WatchSpec(kind: kind, center: center, radiusMeters: radius, model: model)
        let body = try await openWatch(spec, after: after)
        return .ok(.init(headers: .init(cacheControl: .noStore), body: .textEventStream(body)))
    }

    /// The public users (and yourself, with your own token) within a radius, as they change.
    func watchNearbyUsers(_ input: Operations.WatchNearbyUsers.Input) async throws
        -> Operations.WatchNearbyUsers.Output
    {
        let query = input.query
        let center = WatchSpec.Center.point(try QueryValues.coordinate(query.lat, query.lon))
        let radius = try QueryParameter.radius.check(query.radius ?? 500, Vocabulary.radius)
        let after = try QueryValues.resumePosition(header: input.headers.lastEventID, query: query.lastEventId)
        let spec = WatchSpec(kind: PlaceDirectory.userKind, center: center, radiusMeters: radius)
        let body = try await openWatch(spec, after: after)
        return .ok(.init(headers: .init(cacheControl: .noStore), body: .textEventStream(body)))
    }

    /// A roaming watch: the places (or users, `kind=user`) within a radius of a user wherever
    /// they go, as they change (that user's token or the admin's).
    func watchAroundUser(_ input: Operations.WatchAroundUser.Input) async throws -> Operations.WatchAroundUser.Output {
        let query = input.query
        let id = try PathValues.userID(input.path.id)
        let kind = try QueryValues.kind(query.kind)
        let radius = try QueryParameter.radius.check(query.radius ?? 500, Vocabulary.radius)
        let model: DistanceModel = query.model == .haversine ? .sphere : .geodesic
        let after = try QueryValues.resumePosition(header: input.headers.lastEventID, query: query.lastEventId)
        let spec = WatchSpec(kind: kind, center: .user(id), radiusMeters: radius, model: model)
        let body = try await openWatch(spec, after: after)
        return .ok(.init(headers: .init(cacheControl: .noStore), body: .textEventStream(body)))
    }

    /// Starts the watch with the request's token and returns the stream's body. A resume from a
    /// position this server has not applied yet that the database holds (the client was on a node
    /// ahead of this one; or the database cannot be asked) first waits for it, up to
    /// `resumeWaitSeconds`, rather than start afresh; a position beyond the database's head, which
    /// no write made, is a reset at once. A watch of users is one query about users, taken when it
    /// starts (its events are not counted).
    private func openWatch(_ spec: WatchSpec, after position: LogPosition?) async throws(HTTPAPIError) -> HTTPBody {
        if spec.kind == PlaceDirectory.userKind { try admitUserQuery(try principal()) }
        if let position, position > directory.appliedPosition,
            await directory.storeHead().map({ position <= $0 }) ?? true
        {
            _ = await directory.waitUntilApplied(position, timeout: Self.resumeWaitSeconds)
        }
        do {
            return try WatchEventStream.open(
                spec, presenting: RequestToken.current, after: position, directory: directory,
                settings: watchStreams, channel: RequestChannel.current
            ).body
        } catch {
            throw VicinityAPI.watchError(error)
        }
    }

    /// How long a resume waits for its position to be applied here, seconds.
    static let resumeWaitSeconds = 2.0

    /// A refusal of the directory's, named by the parameter it is about when it is one (the
    /// handler checks them all first: this is for rules only the directory knows).
    static func watchError(_ error: PlacesError) -> HTTPAPIError {
        switch error {
        case .invalidKind, .reservedKind: return .parameter("kind", in: .query, error)
        case .invalidUserID: return .parameter("id", in: .path, error)
        case .invalidValue(let noun, _, _) where ["kind", "radius", "model"].contains(noun):
            return .parameter(noun, in: .query, error)
        default: return .places(error)
        }
    }
}
