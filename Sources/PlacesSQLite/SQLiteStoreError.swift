import GRDB
import GRDBSQLite
import Places

#if canImport(Glibc)
    import Glibc
#endif

/// Every error the `PlacesSQLite` module throws. Each message is one line and carries its whole
/// cause (SQLite's words and, for a refused file write, the system's).
public enum SQLiteStoreError: StoreFailure, CustomStringConvertible, Sendable, Equatable {
    /// The database file cannot be opened or migrated (permissions, a directory, not SQLite).
    case cannotOpen(path: String, reason: String)
    /// A new database could not be made; nothing of it was left behind.
    case cannotCreate(path: String, reason: String)
    /// The file is not a Vicinity database (another application's SQLite file); it was not changed.
    case notVicinity(path: String, holding: String)
    /// The file was written by a newer Vicinity, with a schema this one does not know; it was not
    /// changed.
    case newerSchema(path: String, schema: Int, writtenBy: String?, supported: Int)
    /// A write was refused (a constraint, a full disk, a file-size limit); nothing of its
    /// transaction was stored.
    case writeFailed(String)
    /// Stored data that does not read back (edited by hand, or a newer schema).
    case corrupt(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): cannot open the database: \(reason)"
        case .cannotCreate(let path, let reason):
            return "\(path): cannot create the database: \(reason); no file was left behind"
        case .notVicinity(let path, let holding):
            return "\(path) is not a Vicinity database (\(holding)); it was left untouched: pass --db with the "
                + "path of a Vicinity database or of a new file"
        case .newerSchema(let path, let schema, let writtenBy, let supported):
            let writer = writtenBy.map { "Vicinity \($0)" } ?? "a newer Vicinity"
            return "\(path) was written by \(writer) (schema \(schema)); this is Vicinity \(ProductVersion.current), "
                + "which reads schema \(supported) at most: upgrade Vicinity to open it; it was left untouched"
        case .writeFailed(let reason): return "the write was refused and nothing of it was stored: \(reason)"
        case .corrupt(let reason): return "the database holds data that does not read back: \(reason)"
        }
    }

    /// The cause alone, for `PlacesError.storeFailed`.
    public var cause: String {
        switch self {
        case .writeFailed(let reason), .corrupt(let reason): return reason
        default: return description
        }
    }

    /// The cause of a failure, on one line: SQLite's message and code, without the SQL statement
    /// GRDB appends, and the system's reason when a file operation failed (`errno`, e.g. "File too
    /// large" under a file-size limit, where SQLite says only "disk I/O error").
    ///
    /// - Parameters:
    ///   - error: what GRDB or the store threw.
    ///   - systemErrno: the connection's `sqlite3_system_errno`, 0 when unknown.
    static func reason(of error: any Error, systemErrno: Int32 = 0) -> String {
        var text: String
        if let error = error as? DatabaseError {
            text = (error.message ?? "SQLite error") + " (SQLite error \(error.extendedResultCode.rawValue))"
        } else if let error = error as? SQLiteStoreError {
            text = error.cause
        } else {
            text = "\(error)"
        }
        let fileFailure: [ResultCode] = [.SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN]
        guard let code = (error as? DatabaseError)?.resultCode, fileFailure.contains(code) else {
            return String(text.map { $0.isNewline ? " " : $0 })
        }
        if systemErrno != 0, let system = strerror(systemErrno) {
            text += ": " + String(cString: system)
        }
        // SQLite does not keep the errno of a failed write (EFBIG): say what limit is in force.
        var limit = rlimit()
        if code == .SQLITE_IOERR, systemErrno != EFBIG,
            getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0,
            limit.rlim_cur != rlim_t.max
        {
            text += "; this process may write files of at most \(limit.rlim_cur) bytes (ulimit -f, LimitFSIZE=)"
        }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
