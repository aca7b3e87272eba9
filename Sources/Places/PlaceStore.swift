/// Where a `DurableDirectory` keeps its data: a database that stores changes atomically and
/// durably. `PlacesSQLite.SQLitePlaceStore` is the embedded one.
public protocol PlaceStore: AnyObject, Sendable {
    /// Stores `changes`, in order, in one transaction: all of them or, when it throws, none.
    /// Returns only once the transaction is durable (on disk, surviving a crash or power loss).
    func commit(_ changes: [DirectoryChange]) throws
}
