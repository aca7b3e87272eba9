import Foundation
import Geo

/// Who may see a user on a map.
public enum Visibility: String, Sendable, Hashable, CaseIterable {
    /// On every map and in every query.
    case `public`
    /// On no map and in no query but the user's own (and an admin's reading of the record).
    case `private`
}

/// A person who may appear on maps.
///
/// A user without a location is on no map: there is no default position, least of all 0°, 0°.
/// Others never see `location` itself, only `publishedLocation` (see `LocationPrecision`).
public struct User: Sendable, Hashable {
    /// Unique among users: 1 to 128 characters, no control characters; new ids also have no `%`
    /// and are not `nearby` (`Vocabulary.userID`).
    public var id: String
    /// The name shown on maps and lists.
    public var name: String
    /// Where the user is, exactly, or nil when unknown.
    public var location: Coordinate?
    /// Whether others can see the user.
    public var visibility: Visibility
    /// How precisely others see `location`. Nil only in a registration that leaves it to the
    /// directory (`PrivacySettings.defaultPrecision`); a stored user always has one.
    public var precision: LocationPrecision?
    /// When `location` is forgotten unless the user moves before (whole seconds); nil: never.
    public var locationExpiresAt: Date?
    /// When a private user turns public again by themselves (ghost mode with a timer, whole
    /// seconds); nil: private until changed, or public.
    public var privateUntil: Date?

    public init(
        id: String, name: String, location: Coordinate? = nil, visibility: Visibility = .public,
        precision: LocationPrecision? = nil, locationExpiresAt: Date? = nil, privateUntil: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.location = location
        self.visibility = visibility
        self.precision = precision
        self.locationExpiresAt = locationExpiresAt
        self.privateUntil = privateUntil
    }

    /// Whether the user belongs in the queryable index: public and with a known location.
    var isOnMaps: Bool { visibility == .public && location != nil }

    /// The precision in force (`LocationPrecision.stored` for a record that names none).
    public var effectivePrecision: LocationPrecision { precision ?? .stored }

    /// Where others see the user: the centre of their location's cell at their precision.
    public var publishedLocation: Coordinate? { location.map(effectivePrecision.published) }

    /// The record as `principal` may read it: whole for the user and the admin; for anyone else
    /// the published location in place of the exact one, and neither timer (when a location was
    /// last set would tell a move inside one cell from no move).
    public func seen(by principal: Principal) -> User {
        guard !principal.owns(id) else { return self }
        var seen = self
        seen.location = publishedLocation
        seen.precision = effectivePrecision
        seen.locationExpiresAt = nil
        seen.privateUntil = nil
        return seen
    }

    /// The record as a query answers it to `principal`: whole for the user alone; for anyone
    /// else, the admin included, as `seen(by:)` shows it to others (the map is the same for all).
    func onMap(for principal: Principal) -> User {
        principal == .user(id) ? self : seen(by: .anonymous)
    }

    /// The step distances to this user are rounded to for `principal` (0: not rounded).
    func distanceStep(for principal: Principal) -> Double {
        principal == .user(id) ? 0 : effectivePrecision.cellMeters
    }
}

/// Who is asking. Every read and write of `PlaceDirectory` names one.
public enum Principal: Sendable, Hashable {
    /// Anyone: may read public data only.
    case anonymous
    /// A user, authenticated by their own token: may also read and change their own record.
    case user(String)
    /// The operator, authenticated by the admin token: may read and change everything.
    case admin

    /// Whether this principal may read or change the record of user `id`.
    func owns(_ id: String) -> Bool {
        switch self {
        case .admin: return true
        case .user(let own): return own == id
        case .anonymous: return false
        }
    }
}
