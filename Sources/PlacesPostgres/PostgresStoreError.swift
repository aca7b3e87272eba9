import Places

/// Every error the `PlacesPostgres` module throws. Each message is one line, carries its whole
/// cause, and never a password or a token digest.
public enum PostgresStoreError: StoreFailure, CustomStringConvertible, Sendable, Equatable {
    /// The connection URL does not read as `postgres://USER@HOST:PORT/DATABASE` (a typo, another
    /// scheme, a port out of range); `value` is the URL with any password replaced.
    case invalidURL(value: String, reason: String)
    /// A URL given on the command line holds a password, which `ps` and the shell history would
    /// show to anyone; `value` is the URL with the password replaced.
    case passwordOnCommandLine(value: String)
    /// The password file cannot be read (missing, unreadable, empty).
    case unreadablePasswordFile(path: String, reason: String)
    /// The server cannot be reached or refused the login (down, wrong port, wrong password).
    case cannotConnect(database: String, reason: String)
    /// The database has no Vicinity schema yet, or an older one: `vicinity migrate` has not run.
    case notMigrated(database: String, schema: Int, expected: Int)
    /// The database was migrated by a newer Vicinity, with a schema this one does not know; it was
    /// not changed.
    case newerSchema(database: String, schema: Int, writtenBy: String?, supported: Int)
    /// A migration failed; its transaction was rolled back, so the schema is as it was.
    case migrationFailed(database: String, reason: String)
    /// A write was refused (a constraint, a full disk); nothing of its transaction was stored.
    case writeFailed(String)
    /// Stored data that does not read back (edited by hand), or a read that failed.
    case readFailed(String)

    public var description: String {
        switch self {
        case .invalidURL(let value, let reason):
            return "\(PlacesError.quoted(value)) is not a PostgreSQL URL (\(reason)): expected "
                + "postgres://USER@HOST:PORT/DATABASE"
        case .passwordOnCommandLine(let value):
            return "the URL \(PlacesError.quoted(value)) holds a password, which the command line would show to "
                + "every user of this machine: put the URL in $VICINITY_POSTGRES, or the password in $PGPASSWORD "
                + "or in a password file"
        case .unreadablePasswordFile(let path, let reason):
            return "\(path): cannot read the PostgreSQL password: \(reason)"
        case .cannotConnect(let database, let reason):
            return "\(database): cannot connect: \(reason)"
        case .notMigrated(let database, let schema, let expected):
            let holding = schema == 0 ? "has no Vicinity schema" : "holds Vicinity schema \(schema), not \(expected)"
            return "\(database) \(holding): run vicinity migrate --postgres URL first"
        case .newerSchema(let database, let schema, let writtenBy, let supported):
            let writer = writtenBy.map { "Vicinity \($0)" } ?? "a newer Vicinity"
            return "\(database) was made by a newer Vicinity (\(writer), schema \(schema)); this is Vicinity "
                + "\(ProductVersion.current), which reads schema \(supported) at most: upgrade Vicinity to use it; "
                + "it was left untouched"
        case .migrationFailed(let database, let reason):
            return "\(database): the migration failed and was rolled back: \(reason)"
        case .writeFailed(let reason): return "the write was refused and nothing of it was stored: \(reason)"
        case .readFailed(let reason): return "the database could not be read: \(reason)"
        }
    }

    /// The cause alone, for `PlacesError.storeFailed`.
    public var cause: String {
        switch self {
        case .writeFailed(let reason), .readFailed(let reason): return reason
        default: return description
        }
    }
}
