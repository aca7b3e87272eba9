import Foundation
import GRDBSQLite

/// A connection that only looks: SQLite's C API opened read-only, and `immutable` when the
/// database has no write-ahead log, so that looking at a file creates no `-wal` or `-shm` beside it
/// and changes nothing in it (GRDB's read-only queue would create both for a WAL database).
///
/// With a write-ahead log present the file is in use or was not closed cleanly: it is opened
/// read-only without `immutable`, so that what the log holds is seen.
final class ReadOnlyConnection {
    /// SQLite's refusal: its result code and message.
    struct Failure: Error {
        let code: Int32
        let message: String
    }

    private var handle: OpaquePointer?

    init(path: String) throws(Failure) {
        let hasLog =
            ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)
            .map { $0.intValue > 0 } ?? false
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let uri = "file:" + ReadOnlyConnection.escaped(absolute) + (hasLog ? "?mode=ro" : "?mode=ro&immutable=1")
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw Failure(code: status, message: message)
        }
        // As the store's own connections: another process (or a closing connection checkpointing
        // the log) makes reading wait, not fail.
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit { sqlite3_close(handle) }

    /// The first column of the first row, as an integer (0 when there is none).
    func integer(_ sql: String) throws(Failure) -> Int {
        var value = 0
        try rows(sql) { statement in value = Int(sqlite3_column_int64(statement, 0)) }
        return value
    }

    /// The first column of every row, as text.
    func texts(_ sql: String) throws(Failure) -> [String] {
        var values: [String] = []
        try rows(sql) { statement in
            values.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return values
    }

    private func rows(_ sql: String, _ row: (OpaquePointer?) -> Void) throws(Failure) {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw failure() }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure() }
            row(statement)
        }
    }

    private func failure() -> Failure {
        Failure(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// The path with the characters a URI gives a meaning to percent-encoded.
    private static func escaped(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
