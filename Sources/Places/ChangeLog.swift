import Foundation

/// A position in a store's change log: 0 before the first change, and each stored change takes
/// the next number. Numbers are gap-free in commit order: once a reader has seen position N
/// committed, every position below N is committed too, so "everything after N" never skips a
/// change that commits later.
public typealias LogPosition = UInt64

/// One change as the log holds it.
public struct LoggedChange: Sendable, Hashable {
    /// Where it is in the log.
    public var position: LogPosition
    /// The change as stored (a user change is the user's whole record, `putUser`).
    public var change: DirectoryChange
    /// When its transaction committed, in seconds since 1970 (the store's clock).
    public var committedAt: Double

    public init(position: LogPosition, change: DirectoryChange, committedAt: Double) {
        self.position = position
        self.change = change
        self.committedAt = committedAt
    }
}

/// What a store answers for a committed transaction.
public struct StoredCommit: Sendable {
    /// The changes as stored, in order, one for each change given: for the directory to apply.
    public var changes: [DirectoryChange]
    /// For each change, whether it replaced a stored record (a place set over an existing one), as
    /// the database decided inside the transaction; nil where the store cannot tell.
    public var replaced: [Bool?]
    /// The log position of the transaction's last change; the first is at
    /// `position - changes.count + 1`.
    public var position: LogPosition

    public init(changes: [DirectoryChange], replaced: [Bool?]? = nil, position: LogPosition) {
        self.changes = changes
        self.replaced = replaced ?? Array(repeating: nil, count: changes.count)
        self.position = position
    }

    /// The position of the change at `offset`.
    public func position(ofChangeAt offset: Int) -> LogPosition {
        position - LogPosition(changes.count - 1 - offset)
    }
}

/// The answer to "what changed after position N".
public enum LogRead: Sendable {
    /// Whole transactions after the position asked, in order (empty: nothing newer yet).
    case changes([LoggedChange])
    /// The log no longer holds the change right after the position asked (it was trimmed): the
    /// reader must load a fresh snapshot instead of guessing.
    case trimmed(oldestKept: LogPosition)
}

/// Everything a store holds, as of one log position: what a node loads before following the log.
public struct DirectorySnapshot: Sendable {
    /// The directory as stored.
    public var directory: PlaceDirectory
    /// The last change the snapshot reflects.
    public var position: LogPosition
    /// When that change committed (seconds since 1970), or nil for an empty log.
    public var committedAt: Double?

    public init(directory: PlaceDirectory, position: LogPosition, committedAt: Double? = nil) {
        self.directory = directory
        self.position = position
        self.committedAt = committedAt
    }

    /// `PlaceDirectory.stateDump(position:)` of the snapshot.
    public var stateDump: String { directory.stateDump(position: position) }
}

/// The newest position a store has committed, and when.
public struct LogHead: Sendable, Hashable {
    public var position: LogPosition
    /// Seconds since 1970; nil before the first change.
    public var committedAt: Double?

    public init(position: LogPosition, committedAt: Double?) {
        self.position = position
        self.committedAt = committedAt
    }
}

/// How long a store keeps its change log: an entry goes only once it is both older than `seconds`
/// and more than `changes` entries behind the newest, so a follower that was away for less than
/// either can still catch up.
public struct LogRetention: Sendable, Hashable {
    /// Entries always kept, counted back from the newest.
    public var changes: UInt64
    /// Seconds an entry is always kept.
    public var seconds: Double

    /// A million changes or 24 hours, whichever keeps more.
    public static let `default` = LogRetention(changes: 1_000_000, seconds: 24 * 3600)

    public init(changes: UInt64, seconds: Double) {
        self.changes = changes
        self.seconds = seconds
    }
}
