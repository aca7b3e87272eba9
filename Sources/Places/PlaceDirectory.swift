import Foundation
import Geo

/// The one façade every front end calls: places by kind, users with their visibility, and who
/// may read or change what. Authorization and visibility are enforced here, so no front end can
/// forget them.
///
/// - Anyone may read places and public users.
/// - A private user is in no index; only that user (`.user(id)`) or `.admin` can read the record,
///   and to everybody else it looks exactly like a user that does not exist.
/// - A user with no location is on no map.
/// - Adding a user needs the admin, unless `openRegistration` is on: then anyone may add one (and
///   receives its token); changing one needs that user or the admin.
///
/// Queries for users (`nearbyUsers`, `nearestUsers`, `countUsers`) return the public users, plus
/// the asking user's own record wherever it is, private or not.
///
/// A value type holding everything in memory; a server wraps one in its own synchronisation.
public struct PlaceDirectory: Sendable {
    /// Places by kind.
    public private(set) var places: PlaceCatalog
    private(set) var registry: UserRegistry
    /// Token digests: the admin's, and each user's (never the tokens themselves).
    private var adminDigest: TokenDigest?
    private var userByDigest: [TokenDigest: String] = [:]
    private var digestOfUser: [String: TokenDigest] = [:]
    /// Whether anyone, not only the admin, may add a user (a server's `--open-registration`): the
    /// one who adds it receives the new user's token. Off by default. Not stored: each server
    /// process says whether it allows it.
    public var openRegistration = false
    /// The privacy rules this process applies to the writes it plans: the precision of new users,
    /// how long a location lasts, the clock. Not stored (each node says its own).
    public var privacy = PrivacySettings()
    /// The public-holiday calendars places' `PH` rules use (`HolidayCalendars`): configuration,
    /// like the time-zone database, not stored (each process loads its own, `Data/holidays/` by
    /// default).
    public var holidays = HolidayCalendars()

    /// - Parameter places: the places to serve; users start empty.
    public init(places: PlaceCatalog) {
        self.places = places
        registry = UserRegistry(index: places.emptyIndex)
    }

    /// A directory as a store left it: places, users with their token digests, the admin token's.
    ///
    /// - Throws: `PlacesError.userExists` for a user given twice, `.invalidUserID` for a bad id.
    public init(places: PlaceCatalog, users: [(user: User, tokenDigest: TokenDigest)], adminTokenDigest: TokenDigest?)
        throws(PlacesError)
    {
        self.init(places: places)
        adminDigest = adminTokenDigest
        for (user, digest) in users {
            // Stored users are trusted but for their ids' shape (`nearby` included: an older store
            // may hold one).
            guard Vocabulary.isIdentifier(user.id) else { throw .invalidUserID(user.id) }
            guard registry.users[user.id] == nil else { throw .userExists(user.id) }
            try apply(.putUser(user, tokenDigest: digest))
        }
    }

    /// Whether an admin token has been set.
    public var hasAdminToken: Bool { adminDigest != nil }

    /// The digest of the admin token, if one is set.
    var adminTokenDigest: TokenDigest? { adminDigest }

    /// The digest of a user's token, if the user exists.
    func tokenDigest(ofUser id: String) -> TokenDigest? { digestOfUser[id] }

    /// The number of users, public and private.
    public var userCount: Int { registry.users.count }

    /// The number of users on maps (public, with a location): the size of the user index.
    public var publicUserCount: Int { registry.index.count }

    /// What anyone but the user sees now of the user a change names (`User.seen(by:)` of a
    /// public user with a location: the published location, name and precision), or nil when they
    /// see nothing of them (private, no location, absent, or a change that names no user). A
    /// change that leaves this unchanged — a move inside one cell — shows on no key.
    func publicView(of change: DirectoryChange) -> User? {
        guard let id = change.userID, let user = registry.users[id], user.isOnMaps else { return nil }
        return user.seen(by: .anonymous)
    }

    /// Everything the directory holds, as text that two directories holding the same data print
    /// byte for byte the same: a first line naming `position`, then every place (by kind, then
    /// id, bytewise), every user with their token's digest (by id), and the admin token's digest,
    /// one `ChangeCoding` line each. For the operator only (it holds digests, never tokens): a
    /// node's memory is compared with its database by it.
    public func stateDump(position: LogPosition) -> String {
        var lines = ["# vicinity state at position \(position)"]
        for kind in places.kinds.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let kindPlaces = places.collections[kind]?.places ?? []
            for place in kindPlaces.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
                lines.append(ChangeCoding.encode(.putPlace(place)))
            }
        }
        for id in registry.users.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let user = registry.users[id], let digest = digestOfUser[id] else { continue }
            lines.append(ChangeCoding.encode(.putUser(user, tokenDigest: digest)))
        }
        if let adminDigest { lines.append(ChangeCoding.encode(.setAdminToken(adminDigest))) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Tokens

    /// Makes a new admin token, replacing any previous one, and returns its clear text: the only
    /// time it exists outside the caller's hands. For the operator's own use (it asks no token);
    /// a front end goes through `perform(.rotateAdminToken, by:)`, which needs the admin.
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

    // MARK: - Writing

    /// Checks and makes a write in memory (no store): `plan` then `apply`.
    ///
    /// - Returns: the clear text of a token the write created (`addUser`, `rotateAdminToken`).
    @discardableResult
    public mutating func perform(_ request: DirectoryRequest, by principal: Principal) throws(PlacesError) -> String? {
        let planned = try plan(request, by: principal)
        try apply(planned.change)
        return planned.token
    }

    /// Checks a write against who asks and what is there, without making it.
    ///
    /// - Throws: `.forbidden` for a principal who may not; `.noSuchUser` for a missing user, or a
    ///   private one the principal may not see; `.noSuchPlace`; `.userExists`; the validation
    ///   errors of ids, kinds and names.
    public func plan(_ request: DirectoryRequest, by principal: Principal) throws(PlacesError) -> PlannedChange {
        switch request {
        case .setPlace(let given):
            let place = try PlaceDirectory.checked(given)
            guard principal == .admin else { throw .forbidden(action: "changing a place needs the admin token") }
            return PlannedChange(
                change: .putPlace(place), replaces: places.handle(kind: place.kind, id: place.id) != nil)
        case .removePlace(var kind, var id):
            try PlaceDirectory.validatePlace(kind: kind, id: id)
            (kind, id) = (PlaceDirectory.composed(kind), PlaceDirectory.composed(id))
            guard principal == .admin else { throw .forbidden(action: "removing a place needs the admin token") }
            guard places.handle(kind: kind, id: id) != nil else { throw .noSuchPlace(kind: kind, id: id) }
            return PlannedChange(change: .removePlace(kind: kind, id: id))
        case .addUser(var user):
            user.id = PlaceDirectory.composed(user.id)
            guard principal == .admin || openRegistration else {
                throw .forbidden(
                    action: "adding a user needs the admin token (this server does not allow open registration)")
            }
            _ = try Vocabulary.userID.parse(user.id)
            _ = try Vocabulary.name.parse(user.name)
            guard registry.users[user.id] == nil else { throw .userExists(user.id) }
            user.precision = user.precision ?? privacy.defaultPrecision
            user.locationExpiresAt = user.location == nil ? nil : privacy.expiryOfLocationSetNow
            user.privateUntil = nil
            let (clearText, digest) = Token.issue()
            return PlannedChange(change: .addUser(user, tokenDigest: digest), token: clearText)
        // The changes name the stored record's id, byte for byte: the request's may be another
        // spelling of it that Swift takes as equal and the store (comparing bytes) would miss.
        case .moveUser(let id, let location):
            let user = try ownRecord(id, for: principal, action: "moving a user")
            let expiry = location == nil ? nil : privacy.expiryOfLocationSetNow
            return PlannedChange(change: .moveUser(user.id, to: location, expiresAt: expiry))
        case .setVisibility(let id, let visibility, let seconds):
            let user = try ownRecord(id, for: principal, action: "changing a user's visibility")
            var until: Date?
            if let seconds {
                guard visibility == .private else {
                    throw .invalidValue(
                        noun: "visibility", value: "public for \(seconds) s",
                        expected: "a time limit only with private (public lasts until changed)")
                }
                until = privacy.second.addingTimeInterval(Double(try Vocabulary.privateSpell.check(seconds)))
            }
            return PlannedChange(change: .setVisibility(user.id, visibility, privateUntil: until))
        case .setPrecision(let id, let precision):
            let user = try ownRecord(id, for: principal, action: "changing a user's precision")
            return PlannedChange(change: .setPrecision(user.id, precision))
        case .runTimers(let id):
            guard principal == .admin else { throw .forbidden(action: "running a user's timers needs the admin token") }
            guard let user = registry.users[id] else { throw .noSuchUser(id) }
            let now = privacy.now()
            if let expiry = user.locationExpiresAt, expiry <= now, user.location != nil {
                return PlannedChange(change: .forgetLocation(user.id, expiresAt: expiry))
            }
            if let until = user.privateUntil, until <= now, user.visibility == .private {
                return PlannedChange(change: .endPrivacy(user.id, privateUntil: until))
            }
            throw .invalidValue(noun: "timers of user", value: id, expected: "a timer that is due (none is)")
        case .removeUser(let id):
            let user = try ownRecord(id, for: principal, action: "removing a user")
            return PlannedChange(change: .removeUser(user.id))
        case .replaceUserToken(let id):
            // The whole record as it is, with the new digest: the store keeps it as any user
            // record, and applying it forgets the old digest, so the old token stops working.
            let user = try ownRecord(id, for: principal, action: "replacing a user's token")
            let (clearText, digest) = Token.issue()
            return PlannedChange(change: .putUser(user, tokenDigest: digest), token: clearText)
        case .rotateAdminToken:
            guard principal == .admin else {
                throw .forbidden(action: "replacing the admin token needs the admin token")
            }
            let (clearText, digest) = Token.issue()
            return PlannedChange(change: .setAdminToken(digest), token: clearText)
        }
    }

    /// Makes a checked change in memory. Changes come from `plan` or from a store, so they are
    /// trusted: a user or place that is not there is simply added or stays absent.
    public mutating func apply(_ change: DirectoryChange) throws(PlacesError) {
        switch change {
        case .putPlace(let place):
            try places.upsert(place)
        case .removePlace(let kind, let id):
            places.remove(kind: kind, id: id)
        case .addUser(let user, let digest), .putUser(let user, let digest):
            try registry.put(user)
            if let old = digestOfUser.updateValue(digest, forKey: user.id), old != digest { userByDigest[old] = nil }
            userByDigest[digest] = user.id
        case .moveUser, .setVisibility, .setPrecision, .forgetLocation, .endPrivacy:
            guard let id = change.userID, let user = registry.users[id] else { return }
            let changed = PlaceDirectory.user(user, after: change)
            if changed != user { try registry.put(changed) }
        case .removeUser(let id):
            try registry.remove(id)
            if let digest = digestOfUser.removeValue(forKey: id) { userByDigest[digest] = nil }
        case .setAdminToken(let digest):
            adminDigest = digest
        }
    }

    /// A user record after a change that names it (`moveUser`, `setVisibility`, `setPrecision`, a
    /// timer; unchanged for a timer that is no longer due, and for any other change).
    public static func user(_ user: User, after change: DirectoryChange) -> User {
        var user = user
        switch change {
        case .moveUser(_, let location, let expiry):
            user.location = location
            user.locationExpiresAt = location == nil ? nil : expiry
        case .setVisibility(_, let visibility, let until):
            user.visibility = visibility
            user.privateUntil = visibility == .private ? until : nil
        case .setPrecision(_, let precision):
            user.precision = precision
        case .forgetLocation(_, let expiry):
            guard user.locationExpiresAt == expiry else { break }
            user.location = nil
            user.locationExpiresAt = nil
        case .endPrivacy(_, let until):
            guard user.privateUntil == until, user.visibility == .private else { break }
            user.visibility = .public
            user.privateUntil = nil
        default:
            break
        }
        return user
    }

    /// `apply(.putPlace(_:))` for many places at once, in order.
    public mutating func applyPlaces(_ places: [Place]) throws(PlacesError) {
        try self.places.upsert(contentsOf: places)
    }

    /// Adds a user. Only the admin may.
    ///
    /// - Returns: the user's token in clear text, to hand over once; only its digest is kept.
    @discardableResult
    public mutating func addUser(_ user: User, by principal: Principal) throws(PlacesError) -> String {
        try perform(.addUser(user), by: principal) ?? ""
    }

    /// Moves a user, or forgets where they are (`nil`: off every map).
    public mutating func moveUser(_ id: String, to location: Coordinate?, by principal: Principal)
        throws(PlacesError)
    {
        try perform(.moveUser(id, to: location), by: principal)
    }

    /// Makes a user public or private.
    public mutating func setVisibility(_ id: String, to visibility: Visibility, by principal: Principal)
        throws(PlacesError)
    {
        try perform(.setVisibility(id, visibility), by: principal)
    }

    /// Removes a user.
    public mutating func removeUser(_ id: String, by principal: Principal) throws(PlacesError) {
        try perform(.removeUser(id), by: principal)
    }

    // MARK: - Reading users

    /// A user's record: anyone may read a public user, as others see it (`User.seen(by:)`: the
    /// published location, no timers); a private one only themselves or the admin, who read the
    /// whole record.
    public func user(_ id: String, as principal: Principal) throws(PlacesError) -> User {
        guard let user = registry.users[id], user.visibility == .public || principal.owns(id) else {
            throw .noSuchUser(id)
        }
        return user.seen(by: principal)
    }

    /// A user as maps show them to `principal` (the `user` key of the Redis commands, `GEOPOS`):
    /// the user themselves at their exact location, everyone else — the admin too — at the
    /// published one, as every query answers (`User.onMap(for:)`).
    ///
    /// - Throws: `.noSuchUser` for a missing user, or a private one that is not the asker's.
    public func userOnMap(_ id: String, as principal: Principal) throws(PlacesError) -> User {
        guard let user = registry.users[id], user.visibility == .public || principal == .user(id) else {
            throw .noSuchUser(id)
        }
        return user.onMap(for: principal)
    }

    /// Users within `radiusMeters` of `center`, nearest first, ties by id: the public ones at their
    /// published locations (`User.onMap(for:)`), and the asking user at their exact location,
    /// wherever their own record puts them. Distances are to those locations, not rounded (the
    /// query layer rounds them, `UserHit.distanceStepMeters`).
    public func nearbyUsers(
        _ center: Coordinate, radiusMeters: Double, model: DistanceModel = .geodesic, limit: Int? = nil,
        as principal: Principal
    ) throws(PlacesError) -> [UserHit] {
        var hits = try publicUsers(principal) { index, order throws(GeoError) in
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

    /// The `count` users nearest to `center` that the principal may see, as `nearbyUsers` gives
    /// them.
    public func nearestUsers(
        _ count: Int, to center: Coordinate, model: DistanceModel = .geodesic, maxDistanceMeters: Double? = nil,
        as principal: Principal
    ) throws(PlacesError) -> [UserHit] {
        // One more than asked when the asker is in the index: their published entry is dropped.
        let asked = count < Int.max && ownIndexed(principal) ? count + 1 : count
        var hits = try publicUsers(principal) { index, order throws(GeoError) in
            try index.nearest(asked, to: center, model: model, maxDistanceMeters: maxDistanceMeters, tieOrder: order)
        }
        if let own = try ownHit(principal, from: center, model: model),
            own.distanceMeters <= (maxDistanceMeters ?? .infinity)
        {
            hits = merged(hits, with: own)
        }
        if hits.count > count { hits.removeSubrange(count...) }
        return hits
    }

    /// How many users within `radiusMeters` the principal may see (the same as `nearbyUsers().count`).
    public func countUsers(
        _ center: Coordinate, radiusMeters: Double, model: DistanceModel = .geodesic, as principal: Principal
    ) throws(PlacesError) -> Int {
        try nearbyUsers(center, radiusMeters: radiusMeters, model: model, as: principal).count
    }

    /// The earliest timer of any user (a location's expiry, the end of a private spell), or nil.
    public var nextUserTimer: Date? { registry.nextTimer }

    /// Applies in memory, without a store, every user timer due by `privacy.now`: for a reader of
    /// a database that no server keeps (the command line), so that an expired location or an
    /// ended private spell reads as it will once a server runs the timer.
    public mutating func applyDueTimers() {
        for id in usersWithTimersDue(at: privacy.now()) {
            for _ in 0..<2 {
                guard let planned = try? plan(.runTimers(id), by: .admin) else { break }
                try? apply(planned.change)
            }
        }
    }

    /// The users whose timers are due at `now`, in id order.
    public func usersWithTimersDue(at now: Date) -> [String] { registry.timersDue(at: now) }

    // MARK: - Internals

    /// Checks a place's kind and id: kinds have 1 to 64 characters without spaces or control
    /// characters and are not `user`; ids have 1 to 128 characters without control characters
    /// (`Vocabulary.placeKind`, `Vocabulary.placeID`).
    ///
    /// - Throws: `PlacesError.invalidKind`, `.reservedKind` or `.invalidPlaceID`.
    public static func validatePlace(kind: String, id: String) throws(PlacesError) {
        _ = try Vocabulary.placeKind.parse(kind)
        _ = try Vocabulary.placeID.parse(id)
    }

    /// A place as the directory stores it, or the error for the first rule it breaks: its kind and
    /// id (`validatePlace`), its name, at most `Vocabulary.maximumAttributes` attributes with valid
    /// names and values; kind and id composed to Unicode NFC. Every write of a place — `setPlace`
    /// on any surface, `vicinity import`, the first run's seeding — is checked by this alone.
    public static func checked(_ place: consuming Place) throws(PlacesError) -> Place {
        try check(&place)
        return place
    }

    /// `checked` in place: the place is left as it was when it breaks a rule.
    public static func check(_ place: inout Place) throws(PlacesError) {
        try validatePlace(kind: place.kind, id: place.id)
        _ = try Vocabulary.name.parse(place.name)
        let names = place.attributeNames
        guard names.count <= Vocabulary.maximumAttributes else {
            throw .invalidValue(
                noun: "attributes", value: "\(names.count) attributes",
                expected: "at most \(Vocabulary.maximumAttributes)")
        }
        for (name, value) in zip(names, place.attributeValues) {
            _ = try Vocabulary.attributeName.parse(name)
            try Vocabulary.checkAttribute(name: name, value: value)
        }
        if !place.kind.utf8.allSatisfy({ $0 < 0x80 }) { place.kind = composed(place.kind) }
        if !place.id.utf8.allSatisfy({ $0 < 0x80 }) { place.id = composed(place.id) }
    }

    /// The text in Unicode normalization form C, as every kind and id is stored. Swift compares
    /// strings by canonical equivalence and SQLite by bytes: `café` written as `cafe` + U+0301 and
    /// as U+00E9 are one place in memory, so they must be one row too (as two rows the server
    /// would refuse to load its database: a duplicate id).
    public static func composed(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    }

    /// The kind name front ends use for users (`--kind user`); no place may have it.
    public static let userKind = "user"

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

    private func publicUsers(
        _ principal: Principal, _ query: (GridIndex, TieOrder) throws(GeoError) -> [GridHit]
    ) throws(PlacesError) -> [UserHit] {
        let registry = self.registry
        let order: TieOrder = { (registry.id(of: $0) ?? "") < (registry.id(of: $1) ?? "") }
        let own: String? = if case .user(let id) = principal { id } else { nil }
        do {
            return try query(registry.index, order).compactMap { hit in
                // The asker's own entry is at the published location: `ownHit` adds the exact one.
                guard let id = registry.id(of: hit.handle), id != own, let user = registry.users[id] else {
                    return nil
                }
                return UserHit(
                    user: user.onMap(for: principal), distanceMeters: hit.distanceMeters,
                    distanceStepMeters: user.distanceStep(for: principal))
            }
        } catch {
            throw .geo(error)
        }
    }

    /// Whether the asker is a user with an entry in the index.
    private func ownIndexed(_ principal: Principal) -> Bool {
        guard case .user(let id) = principal, let user = registry.users[id] else { return false }
        return user.isOnMaps
    }

    /// The asking user's own record at its exact location and distance.
    private func ownHit(_ principal: Principal, from center: Coordinate, model: DistanceModel) throws(PlacesError)
        -> UserHit?
    {
        guard case .user(let id) = principal, let user = registry.users[id], let location = user.location else {
            return nil
        }
        do {
            return UserHit(user: user, distanceMeters: try model.distance(center, location), distanceStepMeters: 0)
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
    /// The user as the asker sees them (`User.onMap(for:)`).
    public var user: User
    /// To `user.location`, not rounded.
    public var distanceMeters: Double
    /// What a reply rounds the distance to (`LocationPrecision.cellMeters`); 0 for the asker's own
    /// record and exact users.
    public var distanceStepMeters: Double

    public init(user: User, distanceMeters: Double, distanceStepMeters: Double = 0) {
        self.user = user
        self.distanceMeters = distanceMeters
        self.distanceStepMeters = distanceStepMeters
    }
}
