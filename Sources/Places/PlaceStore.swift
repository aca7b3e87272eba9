/// Where a `DurableDirectory` keeps its data: a database that stores changes atomically and
/// durably, each committed transaction appending its changes to an ordered change log in the same
/// transaction. `PlacesSQLite.SQLitePlaceStore` is the embedded one, `PlacesPostgres` the one
/// several nodes share.
///
/// Any number of processes may write one store: each follows the others through the log
/// (`changes(after:limit:)`), woken by `waitForChanges(after:timeout:)`.
public protocol PlaceStore: AnyObject, Sendable {
    /// Stores `changes`, in order, in one transaction, and appends them to the change log in the
    /// same transaction: all of them or, when it throws, none. Returns only once the transaction
    /// is durable (on disk, surviving a crash or power loss).
    ///
    /// A change to part of a user's record (`moveUser`, `setVisibility`) changes only that part
    /// of the stored record, so a write from a stale copy cannot undo another writer's change to
    /// another part; a change to a user or place that is no longer stored, or an `addUser` for an
    /// id stored meanwhile, throws the `PlacesError` that says so.
    ///
    /// - Returns: the changes as stored, in order, with their log positions: a store that can
    ///   answers a user change with `putUser` and the user's whole stored record (so memory follows
    ///   the database), else with the change as given. The log holds the changes as returned.
    /// - Throws: a `PlacesError` for a change the data refuses; `PlacesError.storeUnavailable`
    ///   when the database cannot be reached (nothing was stored); any other error for a failed
    ///   write (nothing was stored).
    func commit(_ changes: [DirectoryChange]) throws -> StoredCommit

    /// The newest committed position.
    func head() throws -> LogHead

    /// Whole transactions committed after `position`, in position order: at least one transaction
    /// when there is one, and about `limit` changes at most (a transaction is never split).
    func changes(after position: LogPosition, limit: Int) throws -> LogRead

    /// Everything stored, read in one consistent snapshot together with the log position it
    /// reflects.
    ///
    /// - Parameter cellSizeMeters: the grid cell side of every index, or nil for the default.
    func snapshot(cellSizeMeters: Double?) throws -> DirectorySnapshot

    /// Blocks until a change after `position` may have been committed by anyone, or `timeout`
    /// seconds have passed; it may return early for nothing. A wake-up only: the reader then asks
    /// `changes(after:limit:)`.
    func waitForChanges(after position: LogPosition, timeout: Double)

    /// Deletes log entries that `retention` no longer keeps; returns how many went.
    func trimLog(keeping retention: LogRetention) throws -> Int

    /// True only for a store deliberately numbering its log unsafely (a test's broken mode): a
    /// follower then tails it as a naive reader would, applying whatever is greater than the last
    /// position it applied, gaps and all, instead of waiting for the positions in between.
    var tailsNaively: Bool { get }
}

extension PlaceStore {
    public var tailsNaively: Bool { false }
}

/// An error of a store that can state its cause without the words a message puts around it, so
/// that `PlacesError.storeFailed` says "the write was not stored …: database or disk is full"
/// once, not wrapped twice.
public protocol StoreFailure: Error {
    /// The cause, one line (e.g. "database or disk is full (SQLite error 13)").
    var cause: String { get }
}
