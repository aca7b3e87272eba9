import Geo

/// The one façade every front end calls: places by kind, users with their visibility, and who
/// may read or change what. Authorization and visibility are enforced here, so no front end can
/// forget them.
///
/// - Anyone may read places and public users.
/// - A private user is in no index; only that user (`.user(id)`) or `.admin` can read the record,
///   and to everybody else it looks exactly like a user that does not exist.
/// - A user with no location is on no map.
/// - Adding a user needs the admin; changing one needs that user or the admin.
///
/// Queries for users (`nearbyUsers`, `nearestUsers`, `countUsers`) return the public users, plus
/// the asking user's own record wherever it is, private or not.
///
/// A value type holding everything in memory; a server wraps one in its own synchronisation.
public struct PlaceDirectory: Sendable {
    /// Places by kind.
    public private(set) var places: PlaceCatalog
    private var registry: UserRegistry
    /// Token digests: the admin's, and each user's (never the tokens themselves).
    private var adminDigest: TokenDigest?
    private var userByDigest: [TokenDigest: String] = [:]
    private var digestOfUser: [String: TokenDigest] = [:]

    /// - Parameter places: the places to serve; users start empty.
    public init(places: PlaceCatalog) {
        self.places = places
        registry = UserRegistry(index: places.emptyIndex)
    }

    // MARK: - Tokens

    /// Makes a new admin token, replacing any previous one, and returns its clear text: the only
    /// time it exists outside the caller's hands.
    public mutating func rotateAdminToken() -> String {
        let (clearText, digest) = Token.issue()
        adminDigest = digest
        return clearText
    }

    /// Who presents this token: no token is `.anonymous`; the admin's is `.admin`; a user's is
    /// `.user(id)`.
    ///
    /// - Throws: `PlacesError.invalidToken` for a token that is neither (it names no one).
    public func principal(presenting token: String?) throws(PlacesError) -> Principal {
        guard let token, !token.isEmpty else { return .anonymous }
        if let adminDigest, adminDigest.matches(token) { return .admin }
        // The lookup is by the digest of what was presented, so its timing says nothing about
        // any stored token.
        if let id = userByDigest[TokenDigest(of: token)] { return .user(id) }
        throw .invalidToken
    }

    // MARK: - Writing users

    /// Adds a user. Only the admin may.
    ///
    /// - Returns: the user's token in clear text, to hand over once; only its digest is kept.
    @discardableResult
    public mutating func addUser(_ user: User, by principal: Principal) throws(PlacesError) -> String {
        guard principal == .admin else { throw .forbidden(action: "adding a user needs the admin token") }
        try PlaceDirectory.check(id: user.id)
        guard registry.users[user.id] == nil else { throw .userExists(user.id) }
        try registry.put(user)
        let (clearText, digest) = Token.issue()
        userByDigest[digest] = user.id
        digestOfUser[user.id] = digest
        return clearText
    }

    /// Moves a user, or forgets where they are (`nil`: off every map).
    public mutating func moveUser(_ id: String, to location: Coordinate?, by principal: Principal)
        throws(PlacesError)
    {
        var user = try ownRecord(id, for: principal, action: "moving a user")
        user.location = location
        try registry.put(user)
    }

    /// Makes a user public or private.
    public mutating func setVisibility(_ id: String, to visibility: Visibility, by principal: Principal)
        throws(PlacesError)
    {
        var user = try ownRecord(id, for: principal, action: "changing a user's visibility")
        user.visibility = visibility
        try registry.put(user)
    }

    /// Removes a user.
    public mutating func removeUser(_ id: String, by principal: Principal) throws(PlacesError) {
        _ = try ownRecord(id, for: principal, action: "removing a user")
        try registry.remove(id)
        if let digest = digestOfUser.removeValue(forKey: id) { userByDigest[digest] = nil }
    }

    // MARK: - Reading users

    /// A user's record: anyone may read a public user; a private one only themselves or the admin.
    public func user(_ id: String, as principal: Principal) throws(PlacesError) -> User {
        guard let user = registry.users[id], user.visibility == .public || principal.owns(id) else {
            throw .noSuchUser(id)
        }
        return user
    }

    /// Users within `radiusMeters` of `center`, nearest first, ties by id: the public ones, and the
    /// asking user wherever their own record puts them.
    public func nearbyUsers(
        _ center: Coordinate, radiusMeters: Double, model: DistanceModel = .geodesic, limit: Int? = nil,
        as principal: Principal
    ) throws(PlacesError) -> [UserHit] {
        var hits = try publicUsers { index, order throws(GeoError) in
            try index.within(radiusMeters: radiusMeters, of: center, model: model, tieOrder: order)
        }
        if let own = try ownHit(principal, from: center, model: model), own.distanceMeters <= radiusMeters {
            hits = merged(hits, with: own)
        }
        if let limit {
            guard limit >= 1 else { throw .geo(.invalidCount(limit)) }
            if hits.count > limit { hits.removeSubrange(limit...) }
        }
        return hits
    }

    /// The `count` users nearest to `center` that the principal may see.
    public func nearestUsers(
        _ count: Int, to center: Coordinate, model: DistanceModel = .geodesic, maxDistanceMeters: Double? = nil,
        as principal: Principal
    ) throws(PlacesError) -> [UserHit] {
        var hits = try publicUsers { index, order throws(GeoError) in
            try index.nearest(count, to: center, model: model, maxDistanceMeters: maxDistanceMeters, tieOrder: order)
        }
        if let own = try ownHit(principal, from: center, model: model),
            own.distanceMeters <= (maxDistanceMeters ?? .infinity)
        {
            hits = merged(hits, with: own)
            if hits.count > count { hits.removeSubrange(count...) }
        }
        return hits
    }

    /// How many users within `radiusMeters` the principal may see (the same as `nearbyUsers().count`).
    public func countUsers(
        _ center: Coordinate, radiusMeters: Double, model: DistanceModel = .geodesic, as principal: Principal
    ) throws(PlacesError) -> Int {
        try nearbyUsers(center, radiusMeters: radiusMeters, model: model, as: principal).count
    }

    // MARK: - Internals

    private static func check(id: String) throws(PlacesError) {
        let controls = id.unicodeScalars.contains { $0.properties.generalCategory == .control }
        guard !id.isEmpty, id.count <= 128, !controls else { throw .invalidUserID(id) }
    }

    /// The record `principal` may change, or the error to give: a private user that is not theirs
    /// looks missing; a public one is forbidden.
    private func ownRecord(_ id: String, for principal: Principal, action: String) throws(PlacesError) -> User {
        guard let user = registry.users[id] else { throw .noSuchUser(id) }
        guard principal.owns(id) else {
            if user.visibility == .private { throw .noSuchUser(id) }
            throw .forbidden(action: "\(action) needs that user's token or the admin token")
        }
        return user
    }

    private func publicUsers(_ query: (GridIndex, TieOrder) throws(GeoError) -> [GridHit]) throws(PlacesError)
        -> [UserHit]
    {
        let registry = self.registry
        let order: TieOrder = { (registry.id(of: $0) ?? "") < (registry.id(of: $1) ?? "") }
        do {
            return try query(registry.index, order).compactMap { hit in
                registry.id(of: hit.handle).flatMap { registry.users[$0] }.map {
                    UserHit(user: $0, distanceMeters: hit.distanceMeters)
                }
            }
        } catch {
            throw .geo(error)
        }
    }

    /// The asking user's own record at its distance, when it is not in the public index.
    private func ownHit(_ principal: Principal, from center: Coordinate, model: DistanceModel) throws(PlacesError)
        -> UserHit?
    {
        guard case .user(let id) = principal, let user = registry.users[id], !user.isOnMaps,
            let location = user.location
        else { return nil }
        do {
            return UserHit(user: user, distanceMeters: try model.distance(center, location))
        } catch {
            throw .geo(error)
        }
    }

    private func merged(_ hits: [UserHit], with own: UserHit) -> [UserHit] {
        var hits = hits
        let position =
            hits.firstIndex {
                $0.distanceMeters > own.distanceMeters
                    || ($0.distanceMeters == own.distanceMeters && $0.user.id > own.user.id)
            } ?? hits.count
        hits.insert(own, at: position)
        return hits
    }
}

/// A user found by a query, at a distance in meters under the query's model.
public struct UserHit: Sendable, Hashable {
    public var user: User
    public var distanceMeters: Double
}
