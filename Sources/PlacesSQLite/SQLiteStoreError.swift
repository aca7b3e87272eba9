/// Every error the `PlacesSQLite` module throws.
public enum SQLiteStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The database file cannot be opened or migrated (permissions, a directory, not SQLite).
    case cannotOpen(path: String, reason: String)
    /// A write was refused (a constraint, a full disk); nothing of its transaction was stored.
    case writeFailed(String)
    /// Stored data that does not read back (edited by hand, or a newer schema).
    case corrupt(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): cannot open the database: \(reason)"
        case .writeFailed(let reason): return "the write was refused and nothing of it was stored: \(reason)"
        case .corrupt(let reason): return "the database holds data that does not read back: \(reason)"
        }
    }
}
