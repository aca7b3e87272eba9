import Foundation
import GRDB
import GRDBSQLite
import Places

/// The change log on SQLite: `change_log` holds each change's text under its position, and the
/// one row of `change_log_head` the newest position. A writer takes its positions by updating the
/// head inside its transaction, which holds the database's write lock until it commits: no other
/// writer can take a number in between, so the numbers are gap-free in commit order.
extension SQLitePlaceStore {
    /// Appends changes (`ChangeCoding` text) to the log under the next positions, inside the
    /// caller's write transaction.
    ///
    /// - Returns: the position of the last one (the head as it was, for none).
    @discardableResult
    static func appendToLog(_ encoded: some Sequence<String>, in db: Database) throws -> LogPosition {
        let texts = Array(encoded)
        return try appendToLog(count: texts.count, in: db) { texts[$0] }
    }

    /// `appendToLog(_:in:)` for `count` changes whose text `text(offset)` makes one at a time.
    @discardableResult
    static func appendToLog(count: Int, in db: Database, text: (Int) throws -> String) throws -> LogPosition {
        try appendToLog(count: count, in: db) { offset, statement, parameter in
            bindText(statement, parameter, try text(offset))
        }
    }

    /// `appendToLog(_:in:)` for `count` changes whose text `bind(offset, statement, parameter)`
    /// binds to the insert's parameter (1-based) itself, answering SQLite's status.
    @discardableResult
    static func appendToLog(
        count: Int, in db: Database, bind: (Int, OpaquePointer?, Int32) throws -> Int32
    ) throws -> LogPosition {
        guard count > 0 else { return try fetchHead(db).position }
        let now = Date().timeIntervalSince1970
        guard
            let end = try Int64.fetchOne(
                db, sql: "UPDATE change_log_head SET position = position + ?, committed_at = ? RETURNING position",
                arguments: [count, now])
        else { throw SQLiteStoreError.corrupt("the change log has no head row") }
        let first = end - Int64(count) + 1
        let chunk = 200
        var done = 0
        while done < count {
            let rows = min(chunk, count - done)
            let statement = try db.cachedStatement(
                sql: "INSERT INTO change_log (position, tx_end, committed_at, change) VALUES "
                    + Array(repeating: "(?, ?, ?, ?)", count: rows).joined(separator: ", "))
            let raw = statement.sqliteStatement
            var status = SQLITE_OK
            for row in 0..<rows {
                let base = Int32(row * 4)
                status |= sqlite3_bind_int64(raw, base + 1, first + Int64(done + row))
                status |= sqlite3_bind_int64(raw, base + 2, end)
                status |= sqlite3_bind_double(raw, base + 3, now)
                status |= try bind(done + row, raw, base + 4)
            }
            let stepped = status == SQLITE_OK ? sqlite3_step(raw) : status
            sqlite3_reset(raw)
            guard stepped == SQLITE_DONE else {
                throw SQLiteStoreError.writeFailed(
                    "the change log: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            done += rows
        }
        return LogPosition(end)
    }

    static func fetchHead(_ db: Database) throws -> LogHead {
        guard let row = try Row.fetchOne(db, sql: "SELECT position, committed_at FROM change_log_head") else {
            throw SQLiteStoreError.corrupt("the change log has no head row")
        }
        return LogHead(position: LogPosition(row[0] as Int64), committedAt: row[1])
    }

    public func head() throws -> LogHead {
        try readLog { db in try SQLitePlaceStore.fetchHead(db) }
    }

    public func changes(after position: LogPosition, limit: Int) throws -> LogRead {
        try readLog { db in
            let head = try SQLitePlaceStore.fetchHead(db).position
            guard head > position else { return .changes([]) }
            var entries = try SQLitePlaceStore.fetchLog(
                db, where: "position > ?", arguments: [Int64(position)], limit: max(1, limit))
            guard let first = entries.first, first.entry.position == position + 1 else {
                return .trimmed(oldestKept: entries.first?.entry.position ?? head + 1)
            }
            // Never half a transaction: read on to the end of the last one.
            if let last = entries.last, last.transactionEnd > last.entry.position {
                entries += try SQLitePlaceStore.fetchLog(
                    db, where: "position > ? AND position <= ?",
                    arguments: [Int64(last.entry.position), Int64(last.transactionEnd)], limit: nil)
            }
            return .changes(entries.map(\.entry))
        }
    }

    private static func fetchLog(_ db: Database, where condition: String, arguments: StatementArguments, limit: Int?)
        throws -> [(entry: LoggedChange, transactionEnd: LogPosition)]
    {
        let statement = try db.cachedStatement(
            sql: "SELECT position, tx_end, committed_at, change FROM change_log WHERE \(condition) ORDER BY position"
                + (limit.map { " LIMIT \($0)" } ?? ""))
        try statement.setArguments(arguments)
        defer { sqlite3_reset(statement.sqliteStatement) }
        let raw = statement.sqliteStatement
        var entries: [(entry: LoggedChange, transactionEnd: LogPosition)] = []
        while true {
            let status = sqlite3_step(raw)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw SQLiteStoreError.corrupt(String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            var text = ""
            if let bytes = sqlite3_column_text(raw, 3) {
                let count = Int(sqlite3_column_bytes(raw, 3))
                text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
            }
            entries.append(
                (
                    LoggedChange(
                        position: LogPosition(sqlite3_column_int64(raw, 0)), change: try ChangeCoding.decode(text),
                        committedAt: sqlite3_column_double(raw, 2)),
                    LogPosition(sqlite3_column_int64(raw, 1))
                ))
        }
        return entries
    }

    public func snapshot(cellSizeMeters: Double?) throws -> DirectorySnapshot {
        try loadSnapshot(cellSizeMeters: cellSizeMeters)
    }

    /// Polls SQLite's `data_version` of the log connection, which changes whenever another
    /// connection (any process) commits, every few milliseconds until it does or `timeout` passes.
    ///
    /// The head is read once, after the first `data_version`: a commit before that reading shows
    /// in the head, one after it in `data_version`.
    public func waitForChanges(after position: LogPosition, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let start = try? dataVersion()
        if let head = try? head(), head.position > position { return }
        repeat {
            Thread.sleep(forTimeInterval: 0.005)
            if (try? dataVersion()) != start { return }
        } while Date() < deadline
    }

    /// The log connection's `PRAGMA data_version`, from a statement prepared once (the poll asks
    /// for it 200 times a second), run on its own: SQLite reads it in a transaction of the
    /// statement's own, and `readLog`'s `BEGIN` and `COMMIT` would be parsed and run at every poll.
    private func dataVersion() throws -> Int? {
        try readLog(inTransaction: false) { db in try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) }
    }

    public func trimLog(keeping retention: LogRetention) throws -> Int {
        let cutoff = Date().timeIntervalSince1970 - retention.seconds
        var deleted = 0
        try write { db in
            try db.execute(
                sql: """
                    DELETE FROM change_log
                    WHERE position <= (SELECT position FROM change_log_head) - ? AND committed_at < ?
                    """, arguments: [Int64(clamping: retention.changes), cutoff])
            deleted = db.changesCount
        }
        return deleted
    }

    /// Reads on the log's own read-only connection, so that following never waits for the writer;
    /// in one transaction unless told otherwise (then each statement reads in one of its own).
    func readLog<T>(inTransaction: Bool = true, _ body: (Database) throws -> T) throws -> T {
        let connection = try logConnection.withLock { connection -> DatabaseQueue in
            if let connection { return connection }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let opened = try DatabaseQueue(path: path, configuration: configuration)
            connection = opened
            return opened
        }
        do {
            return try inTransaction ? connection.read(body) : connection.inDatabase(body)
        } catch let error as PlacesError {
            throw error
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError.corrupt(SQLiteStoreError.reason(of: error))
        }
    }
}

extension SQLitePlaceStore {
    /// Appends `count` changes given as ready rows (`PackedPlaceChanges` blobs) under the next
    /// positions, inside the caller's write transaction: `rows` calls its argument with each row's
    /// number of changes and blob, in order, and they must add up to `count`.
    ///
    /// - Returns: the position of the last change.
    @discardableResult
    static func appendPackedToLog(
        count: Int, in db: Database,
        rows: ((Int, UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> LogPosition {
        guard count > 0 else { return try fetchHead(db).position }
        let now = Date().timeIntervalSince1970
        guard
            let end = try Int64.fetchOne(
                db, sql: "UPDATE change_log_head SET position = position + ?, committed_at = ? RETURNING position",
                arguments: [count, now])
        else { throw SQLiteStoreError.corrupt("the change log has no head row") }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO change_log (position, last_position, tx_end, committed_at, change) VALUES (?, ?, ?, ?, ?)"
        ).sqliteStatement
        var next = end - Int64(count) + 1
        try rows { changes, blob in
            guard changes > 0, next + Int64(changes) - 1 <= end else {
                throw SQLiteStoreError.writeFailed("the import's log holds more changes than it said")
            }
            var status = sqlite3_bind_int64(insert, 1, next)
            status |= sqlite3_bind_int64(insert, 2, next + Int64(changes) - 1)
            status |= sqlite3_bind_int64(insert, 3, end)
            status |= sqlite3_bind_double(insert, 4, now)
            status |= sqlite3_bind_blob(insert, 5, blob.baseAddress, Int32(blob.count), transient)
            let stepped = status == SQLITE_OK ? sqlite3_step(insert) : status
            sqlite3_reset(insert)
            guard stepped == SQLITE_DONE else {
                throw SQLiteStoreError.writeFailed(
                    "the change log: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            next += Int64(changes)
        }
        guard next == end + 1 else { throw SQLiteStoreError.writeFailed("the import's log holds fewer changes than it said") }
        return LogPosition(end)
    }
}
