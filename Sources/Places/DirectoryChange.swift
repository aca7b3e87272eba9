import Foundation
import Geo

/// One change to the directory's data, as a store keeps it: what a `DirectoryRequest` comes to
/// once it is checked. Stores write changes; `PlaceDirectory.apply(_:)` makes them in memory.
public enum DirectoryChange: Sendable, Hashable {
    /// A place added or replaced (by kind and id).
    case putPlace(Place)
    /// A place removed.
    case removePlace(kind: String, id: String)
    /// A new user with the digest of their token.
    case addUser(User, tokenDigest: TokenDigest)
    /// A user's location changed (nil: unknown, on no map) with when it expires (nil: never);
    /// nothing else of the record.
    case moveUser(String, to: Coordinate?, expiresAt: Date? = nil)
    /// A user's visibility changed, with when a private user turns public again (nil: never);
    /// nothing else of the record.
    case setVisibility(String, Visibility, privateUntil: Date? = nil)
    /// A user's precision changed; nothing else of the record.
    case setPrecision(String, LocationPrecision)
    /// A timer: the user's location is forgotten, if it still expires at `expiresAt` (a move in
    /// between made a new expiry, and then this change does nothing).
    case forgetLocation(String, expiresAt: Date)
    /// A timer: the user turns public, if still private until `privateUntil`.
    case endPrivacy(String, privateUntil: Date)
    /// A user's whole record as stored: what a store answers for the user changes it made, and
    /// how a directory is loaded.
    case putUser(User, tokenDigest: TokenDigest)
    /// A user removed, and with them their token.
    case removeUser(String)
    /// A new admin token (its digest); the previous one stops working.
    case setAdminToken(TokenDigest)
}

extension DirectoryChange {
    /// The user a change names, or nil for a change about places or the admin token.
    public var userID: String? {
        switch self {
        case .addUser(let user, _), .putUser(let user, _): return user.id
        case .moveUser(let id, _, _), .setVisibility(let id, _, _), .setPrecision(let id, _),
            .forgetLocation(let id, _),
            .endPrivacy(let id, _), .removeUser(let id):
            return id
        case .putPlace, .removePlace, .setAdminToken: return nil
        }
    }
}

/// A write asked of the directory, before it is checked against who asks and what is there.
public enum DirectoryRequest: Sendable, Hashable {
    /// Add or replace a place (admin).
    case setPlace(Place)
    /// Remove a place (admin).
    case removePlace(kind: String, id: String)
    /// Add a user (admin); the reply carries the user's new token.
    case addUser(User)
    /// Move a user, or forget their location with nil (that user or admin).
    case moveUser(String, to: Coordinate?)
    /// Make a user public or private (that user or admin); private for `forSeconds` only (ghost
    /// mode with a timer: 1 second to 10 years) or, with nil, until changed.
    case setVisibility(String, Visibility, forSeconds: Int? = nil)
    /// Set how precisely others see a user (that user or admin).
    case setPrecision(String, LocationPrecision)
    /// Run the timers of a user that are due now: forget an expired location, end a timed
    /// private spell (the admin: a server runs them as the operator).
    case runTimers(String)
    /// Remove a user (that user or admin).
    case removeUser(String)
    /// Replace the admin token (admin); the reply carries the new token.
    case rotateAdminToken
    /// Give a user a new token (that user or admin); the old one stops working as the change is
    /// applied, and the reply carries the new one.
    case replaceUserToken(String)

    /// What the request changes: two requests with the same subject are never planned against the
    /// same state, so the second sees the first's effect.
    var subject: String {
        switch self {
        case .setPlace(let place): return "place\u{0}\(place.kind)\u{0}\(place.id)"
        case .removePlace(let kind, let id): return "place\u{0}\(kind)\u{0}\(id)"
        case .addUser(let user): return "user\u{0}\(user.id)"
        case .moveUser(let id, _), .setVisibility(let id, _, _), .setPrecision(let id, _), .runTimers(let id),
            .removeUser(let id), .replaceUserToken(let id):
            return "user\u{0}\(id)"
        case .rotateAdminToken: return "admin"
        }
    }
}

/// A checked request: the change to store and apply, and the token to hand over once it is stored.
public struct PlannedChange: Sendable {
    public var change: DirectoryChange
    /// The clear text of a token the change creates (user added, admin token rotated), else nil.
    public var token: String?
    /// True when the change replaces a record that was there when it was planned (a place set
    /// over an existing one); false when it creates one or is not a replacement at all.
    public var replaces: Bool

    public init(change: DirectoryChange, token: String? = nil, replaces: Bool = false) {
        self.change = change
        self.token = token
        self.replaces = replaces
    }

    /// What the writer learns once the change is stored.
    public var receipt: WriteReceipt { WriteReceipt(token: token, replaced: replaces) }
}

/// What a stored write tells its writer.
public struct WriteReceipt: Sendable, Hashable {
    /// The clear text of a token the write created (`addUser`, `rotateAdminToken`,
    /// `replaceUserToken`), else nil.
    public var token: String?
    /// True when the write replaced a record that was there just before it (`setPlace` over an
    /// existing place). Writes to one record are planned one after another, so of two writers
    /// racing to create the same place exactly one hears false.
    public var replaced: Bool
    /// The change-log position the write was stored at (0 until it is stored): a read that asks
    /// for at least this position, on any node, sees the write.
    public var position: LogPosition

    public init(token: String? = nil, replaced: Bool = false, position: LogPosition = 0) {
        self.token = token
        self.replaced = replaced
        self.position = position
    }
}
