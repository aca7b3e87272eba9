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
public struct User: Sendable, Hashable {
    /// Unique among users: 1 to 128 characters, no control characters.
    public var id: String
    /// The name shown on maps and lists.
    public var name: String
    /// Where the user is, or nil when unknown.
    public var location: Coordinate?
    /// Whether others can see the user.
    public var visibility: Visibility

    public init(id: String, name: String, location: Coordinate? = nil, visibility: Visibility = .public) {
        self.id = id
        self.name = name
        self.location = location
        self.visibility = visibility
    }

    /// Whether the user belongs in the queryable index: public and with a known location.
    var isOnMaps: Bool { visibility == .public && location != nil }
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
