/// Where a `DurableDirectory` keeps its data: a database that stores changes atomically and
/// durably. `PlacesSQLite.SQLitePlaceStore` is the embedded one.
public protocol PlaceStore: AnyObject, Sendable {
    /// Stores `changes`, in order, in one transaction: all of them or, when it throws, none.
    /// Returns only once the transaction is durable (on disk, surviving a crash or power loss).
    ///
    /// A change to part of a user's record (`moveUser`, `setVisibility`) changes only that part
    /// of the stored record, so a write from a stale copy cannot undo another writer's change to
    /// another part; a change to a user or place that is no longer stored, or an `addUser` for an
    /// id stored meanwhile, throws the `PlacesError` that says so.
    ///
    /// - Returns: the changes as stored, in order, for the directory to apply: a store that can
    ///   answers a user change with `putUser` and the user's whole stored record (so memory follows
    ///   the database), else with the change as given.
    func commit(_ changes: [DirectoryChange]) throws -> [DirectoryChange]
}

/// An error of a store that can state its cause without the words a message puts around it, so
/// that `PlacesError.storeFailed` says "the write was not stored …: database or disk is full"
/// once, not wrapped twice.
public protocol StoreFailure: Error {
    /// The cause, one line (e.g. "database or disk is full (SQLite error 13)").
    var cause: String { get }
}
