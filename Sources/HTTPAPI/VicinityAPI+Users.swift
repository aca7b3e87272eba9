import Geo
import PlaceQueries
import Places

/// `/v1/users…`: people, their locations, their visibility and their precision. The façade
/// decides who may see or change whom, and what of a record each may read (`User.seen(by:)`); a
/// private user looks exactly like a missing one to everybody else (404).
extension VicinityAPI {
    /// Registers a user (the admin token, as `vicinity user add`) and returns their token once.
    func registerUser(_ input: Operations.RegisterUser.Input) async throws -> Operations.RegisterUser.Output {
        // Open registration (`serve --open-registration`) needs no token; the façade decides.
        let token = try RequestToken.current == nil && read(\.openRegistration) ? nil : writerToken()
        guard case .json(let body) = input.body else { throw HTTPAPIError.malformedBody("expected JSON") }
        let id = try BodyValues.userID(body.id)
        let name = try BodyValues.displayName(body.name ?? id, at: "/name")
        let location = try body.location.map { (location) throws(HTTPAPIError) -> Coordinate in
            try BodyValues.coordinate(location.lat, location.lon, at: "/location")
        }
        let visibility: Visibility = body.visibility == ._private ? .private : .public
        // Nil leaves the precision to the server's default (`--user-precision`).
        let precision = body.precision.map(LocationPrecision.init)
        let user = User(id: id, name: name, location: location, visibility: visibility, precision: precision)
        let receipt = try await writeWithReceipt(.addUser(user), token: token)
        let issued = receipt.token ?? ""
        // As the new user reads it (the answer holds their token): the precision the server chose
        // and the location's expiry. Only a removal racing the registration leaves the request's.
        let stored = (try? read { directory throws(PlacesError) in try directory.user(id, as: .user(id)) }) ?? user
        return .created(
            .init(
                headers: .init(
                    vicinityPosition: VicinityAPI.position(receipt),
                    location: "/v1/users/\(VicinityAPI.pathSegment(id))",
                    cacheControl: .noStore),
                body: .json(.init(user: VicinityAPI.record(stored), token: issued))))
    }

    /// The public users within a radius (and yourself, with your own token), nearest first; others
    /// at their published locations with rounded distances. One query about users.
    func findNearbyUsers(_ input: Operations.FindNearbyUsers.Input) async throws
        -> Operations.FindNearbyUsers.Output
    {
        .ok(.init(body: .json(try nearbyUsers(input.query))))
    }

    /// `findNearbyUsers`'s work without the generated layer, shared with `HotRoutes`.
    func nearbyUsers(_ query: Operations.FindNearbyUsers.Input.Query) throws -> Components.Schemas.NearbyUsersResult {
        let center = try QueryValues.coordinate(query.lat, query.lon)
        let radius = try QueryParameter.radius.check(query.radius ?? 500, Vocabulary.radius)
        let limit = try QueryParameter.limit.check(query.limit ?? 1000, Vocabulary.limit)
        let question = PlaceQuery(
            collection: .users, center: center, reach: .within(radiusMeters: radius, limit: limit),
            principal: try principal())
        let answer = try self.answer(question)
        let echo = Components.Schemas.NearbyUsersQuery(
            lat: center.latitude, lon: center.longitude, radiusM: radius, limit: limit)
        return .init(query: echo, results: answer.hits.map(\.userHit), total: answer.total)
    }

    /// A user's record: public users to anyone, a private one to themselves and the admin only;
    /// whole to themselves and the admin, as published to anyone else. Reading someone else's is
    /// one query about users.
    func getUser(_ input: Operations.GetUser.Input) async throws -> Operations.GetUser.Output {
        let id = try PathValues.userID(input.path.id)
        let principal = try principal()
        // Before the read: probing ids that turn out missing or private counts as well.
        if principal != .user(id) { try admitUserQuery(principal) }
        let user = try read { directory throws(PlacesError) in try directory.user(id, as: principal) }
        return .ok(.init(body: .json(VicinityAPI.record(user))))
    }

    /// Removes the user and their token (that user or the admin).
    func deleteUser(_ input: Operations.DeleteUser.Input) async throws -> Operations.DeleteUser.Output {
        let token = try writerToken()
        let id = try PathValues.userID(input.path.id)
        let receipt = try await writeWithReceipt(.removeUser(id), token: token)
        return .noContent(.init(headers: .init(vicinityPosition: VicinityAPI.position(receipt))))
    }

    /// Moves the user (that user or the admin); answers the record after the move.
    func moveUser(_ input: Operations.MoveUser.Input) async throws -> Operations.MoveUser.Output {
        let token = try writerToken()
        let id = try PathValues.userID(input.path.id)
        guard case .json(let body) = input.body else { throw HTTPAPIError.malformedBody("expected JSON") }
        let location = try BodyValues.coordinate(body.lat, body.lon)
        let receipt = try await writeWithReceipt(.moveUser(id, to: location), token: token)
        return .ok(
            .init(
                headers: .init(vicinityPosition: VicinityAPI.position(receipt)), body: .json(try recordAfterWrite(id))))
    }

    /// Forgets where the user is: on no map until they set a location again.
    func forgetUserLocation(_ input: Operations.ForgetUserLocation.Input) async throws
        -> Operations.ForgetUserLocation.Output
    {
        let token = try writerToken()
        let id = try PathValues.userID(input.path.id)
        let receipt = try await writeWithReceipt(.moveUser(id, to: nil), token: token)
        return .ok(
            .init(
                headers: .init(vicinityPosition: VicinityAPI.position(receipt)), body: .json(try recordAfterWrite(id))))
    }

    /// Makes the user public or private (that user or the admin); private for `for_seconds` only
    /// (ghost mode with a timer) when it is given.
    func setUserVisibility(_ input: Operations.SetUserVisibility.Input) async throws
        -> Operations.SetUserVisibility.Output
    {
        let token = try writerToken()
        let id = try PathValues.userID(input.path.id)
        guard case .json(let body) = input.body else { throw HTTPAPIError.malformedBody("expected JSON") }
        let visibility: Visibility
        var seconds: Int?
        switch body {
        case ._private(let change):
            visibility = .private
            seconds = try change.forSeconds.map { (seconds) throws(HTTPAPIError) -> Int in
                try BodyValues.privateSpell(seconds)
            }
        case ._public:
            visibility = .public
        }
        let receipt = try await writeWithReceipt(.setVisibility(id, visibility, forSeconds: seconds), token: token)
        return .ok(
            .init(
                headers: .init(vicinityPosition: VicinityAPI.position(receipt)), body: .json(try recordAfterWrite(id))))
    }

    /// Sets how precisely others see the user (that user or the admin).
    func setUserPrecision(_ input: Operations.SetUserPrecision.Input) async throws
        -> Operations.SetUserPrecision.Output
    {
        let token = try writerToken()
        let id = try PathValues.userID(input.path.id)
        guard case .json(let body) = input.body else { throw HTTPAPIError.malformedBody("expected JSON") }
        let receipt = try await writeWithReceipt(.setPrecision(id, LocationPrecision(body.precision)), token: token)
        return .ok(
            .init(
                headers: .init(vicinityPosition: VicinityAPI.position(receipt)), body: .json(try recordAfterWrite(id))))
    }

    /// The user's record as the writer now sees it.
    private func recordAfterWrite(_ id: String) throws(HTTPAPIError) -> Components.Schemas.User {
        let principal = try principal()
        return VicinityAPI.record(try read { directory throws(PlacesError) in try directory.user(id, as: principal) })
    }

    /// A record as the façade gave it to the asker (`User.seen(by:)`): the timers are left out
    /// for anyone but the user and the admin there already.
    static func record(_ user: User) -> Components.Schemas.User {
        Components.Schemas.User(
            id: user.id, name: user.name, visibility: user.visibility == .private ? ._private : ._public,
            precision: .init(user.effectivePrecision),
            location: user.location.map { .init(lat: $0.latitude, lon: $0.longitude) },
            locationExpiresAt: user.locationExpiresAt, privateUntil: user.privateUntil)
    }
}
