import Foundation

/// How far a `DurableDirectory` has followed its store's change log, for `/healthz`, `/metrics`
/// and `INFO replication`.
public struct ReplicationStatus: Sendable, Hashable {
    /// The last log position applied to memory: every read answers from at least this position.
    public var applied: LogPosition
    /// When the change at `applied` committed (seconds since 1970), if known.
    public var appliedCommittedAt: Double?
    /// The newest position the store was last seen to hold (≥ `applied` once read).
    public var latest: LogPosition = 0
    /// When `latest` committed, if known.
    public var latestCommittedAt: Double?
    /// Since when (seconds since 1970) memory has been behind `latest`; nil when caught up.
    public var behindSince: Double?
    /// Changes applied that other writers made (other processes, other nodes).
    public var followedChanges: UInt64 = 0
    /// Changes applied that this directory's own writer made.
    public var ownChanges: UInt64 = 0
    /// Snapshots loaded because the log no longer held what came next.
    public var reloads: UInt64 = 0
    /// Since when (seconds since 1970) the store has not answered; nil while it does (both reads
    /// of its log and commits).
    public var unreachableSince: Double? {
        switch (readsUnreachableSince, writesUnreachableSince) {
        case (nil, nil): return nil
        case (let reads?, nil): return reads
        case (nil, let writes?): return writes
        case (let reads?, let writes?): return min(reads, writes)
        }
    }
    /// Since when reads of the log have failed; nil while they work.
    public var readsUnreachableSince: Double?
    /// Since when commits have failed for want of the database; nil since one worked.
    public var writesUnreachableSince: Double?
    /// The last failure to reach or read the store, one line.
    public var lastError: String?
    /// Whether a follower thread runs (`follow`).
    public var following = false

    public init(applied: LogPosition, appliedCommittedAt: Double? = nil) {
        self.applied = applied
        self.appliedCommittedAt = appliedCommittedAt
        latest = applied
        latestCommittedAt = appliedCommittedAt
    }

    /// Seconds memory is behind the store: 0 when it has applied everything the store was seen to
    /// hold, else how long it has been behind; while the store is unreachable, how long since it
    /// was last reached (the data may be stale by that much).
    public func lagSeconds(now: Double = Date().timeIntervalSince1970) -> Double {
        if let unreachableSince { return max(0, now - unreachableSince) }
        guard let behindSince, latest > applied else { return 0 }
        return max(0, now - behindSince)
    }
}

/// A caller waiting until a position is applied.
struct PositionWaiter: Sendable {
    let id: UInt64
    let position: LogPosition
    let completion: @Sendable (Bool) -> Void
}

/// The follower thread's life.
enum FollowerState {
    case idle
    case running
    case stopping
    case stopped
}
