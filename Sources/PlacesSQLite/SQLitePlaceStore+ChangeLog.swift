import Foundation
import GRDB
import GRDBSQLite
import Places

/// The change log on SQLite: `change_log` holds the changes' texts, a run of consecutive changes of
/// one transaction a row (positions `position` through `last_position`, packed by
/// ``PackedChanges``), and the one row of `change_log_head` the newest position. A writer takes its
/// positions by updating the head inside its transaction, which holds the database's write lock
/// until it commits: no other writer can take a number in between, so the numbers are gap-free in
/// commit order.
///
/// A row holds up to ``changesPerRow`` changes: an import of a million places writes a few hundred
/// rows, not a million, and a commit of a few changes one row.
///
/// Each row holds its transaction's last position (`tx_end`), so that a reader never stops inside
/// a transaction. An import, which learns its number of changes only as it writes them, writes
/// ``transactionContinues`` there in every row but its last (`ImportLogWriter`).
extension SQLitePlaceStore {
    /// The `tx_end` of a row whose transaction goes on in the rows after it, up to the first whose
    /// `tx_end` is its own `last_position`: past every position.
    static let transactionContinues = Int64.max

    /// The most changes one log row holds.
    static let changesPerRow = 4_096
    /// The text a log row grows to before the next change starts another (bytes, UTF-8): a
    /// transaction of large changes still reads back a row at a time in little memory.
    static let bytesPerRow = 1 << 20

    /// Migration v5: the log's rows gain `last_position`, the last position of the run a row holds
    /// (each row written before holds one change: its own position).
    static func packChangeLog(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE change_log_v5 (
                    position INTEGER NOT NULL PRIMARY KEY CHECK (position > 0),
                    last_position INTEGER NOT NULL CHECK (last_position >= position),
                    tx_end INTEGER NOT NULL CHECK (tx_end >= last_position),
                    committed_at REAL NOT NULL,
                    change TEXT NOT NULL CHECK (change <> '')
                );
                INSERT INTO change_log_v5 (position, last_position, tx_end, committed_at, change)
                    SELECT position, position, tx_end, committed_at, change FROM change_log ORDER BY position;
                DROP TABLE change_log;
                ALTER TABLE change_log_v5 RENAME TO change_log;
                """)
    }

    /// Appends changes (`ChangeCoding` text) to the log under the next positions, inside the
    /// caller's write transaction.
    ///
    /// - Returns: the position of the last one (the head as it was, for none).
    @discardableResult
    static func appendToLog(_ encoded: some Sequence<String>, in db: Database) throws -> LogPosition {
        let texts = Array(encoded)
        return try appendToLog(count: texts.count, in: db) { offset, bytes in bytes += texts[offset].utf8 }
    }

    /// `appendToLog(_:in:)` for `count` changes whose text `text(offset)` makes one at a time.
    @discardableResult
    static func appendToLog(count: Int, in db: Database, text: (Int) throws -> String) throws -> LogPosition {
        try appendToLog(count: count, in: db) { offset, bytes in bytes += try text(offset).utf8 }
    }

    /// `appendToLog(_:in:)` for `count` changes whose text `bind(offset, statement, parameter)`
    /// binds to a statement's parameter (1-based) itself, answering SQLite's status. Each text is
    /// read back through a `SELECT ?` statement: `appendToLog(count:in:append:)` is the cheaper
    /// form.
    @discardableResult
    static func appendToLog(
        count: Int, in db: Database, bind: (Int, OpaquePointer?, Int32) throws -> Int32
    ) throws -> LogPosition {
        let echo = try db.cachedStatement(sql: "SELECT CAST(? AS TEXT)").sqliteStatement
        return try appendToLog(count: count, in: db) { offset, bytes in
            defer { sqlite3_reset(echo) }
            let status = try bind(offset, echo, 1)
            guard status == SQLITE_OK, sqlite3_step(echo) == SQLITE_ROW else {
                throw SQLiteStoreError.writeFailed(
                    "the change log: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            bytes += SQLitePlaceStore.bytes(echo, 0)
        }
    }

    /// `appendToLog(_:in:)` for `count` changes whose text `append(offset, &bytes)` appends to
    /// `bytes` (UTF-8), one at a time: the changes are packed into rows as they come, holding no
    /// more than a row's text in memory.
    ///
    /// - Throws: what `append` throws; `SQLiteStoreError.writeFailed` for a text the log cannot
    ///   hold (empty, or with a line feed) or a failed insert.
    @discardableResult
    static func appendToLog(
        count: Int, in db: Database, append: (Int, inout [UInt8]) throws -> Void
    ) throws -> LogPosition {
        guard count > 0 else { return try fetchHead(db).position }
        let (end, now, insert) = try reservePositions(count: count, in: db)
        var rowStart = end - Int64(count) + 1
        var pack = PackedChanges()
        for offset in 0..<count {
            try pack.append { bytes in try append(offset, &bytes) }
            guard pack.count == changesPerRow || pack.bytes.count >= bytesPerRow || offset == count - 1 else {
                continue
            }
            let rowEnd = rowStart + Int64(pack.count) - 1
            try pack.bytes.withUnsafeBytes { text in
                try insertLogRow(
                    db, insert, positions: rowStart...rowEnd, transactionEnd: end, committedAt: now, change: text,
                    binary: false)
            }
            rowStart = rowEnd + 1
            pack.removeAll()
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

    /// The whole transactions after `position`: from the row holding the change after it (the
    /// changes of that row up to `position` left out), a row at a time until `limit` changes are
    /// read and the last row read ends its transaction.
    public func changes(after position: LogPosition, limit: Int) throws -> LogRead {
        try readLog { db in
            let head = try SQLitePlaceStore.fetchHead(db).position
            guard head > position else { return .changes([]) }
            let wanted = Int64(position + 1)
            // The row holding `wanted` is the last one starting at or before it, if it reaches it.
            let holding = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT position, last_position FROM change_log WHERE position <= ?
                        ORDER BY position DESC LIMIT 1
                        """), arguments: [wanted])
            guard let holding, (holding[1] as Int64) >= wanted else {
                let oldest = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT min(position) FROM change_log WHERE position > ?"),
                    arguments: [wanted])
                return .trimmed(oldestKept: oldest.map { LogPosition($0) } ?? head + 1)
            }
            return .changes(
                try SQLitePlaceStore.fetchLog(db, from: holding[0], after: Int64(position), limit: max(1, limit)))
        }
    }

    /// The changes after `position` in the rows from the one starting at `first`, until at least
    /// `limit` are read and the last row read ends its transaction (or the log ends).
    private static func fetchLog(_ db: Database, from first: Int64, after position: Int64, limit: Int) throws
        -> [LoggedChange]
    {
        let statement = try db.cachedStatement(
            sql: """
                SELECT position, last_position, tx_end, committed_at, change FROM change_log
                WHERE position >= ? ORDER BY position
                """)
        try statement.setArguments([first])
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        var entries: [LoggedChange] = []
        var next = first
        while true {
            let status = sqlite3_step(raw)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw SQLiteStoreError.corrupt(String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            let rowStart = sqlite3_column_int64(raw, 0)
            let rowEnd = sqlite3_column_int64(raw, 1)
            let transactionEnd = sqlite3_column_int64(raw, 2)
            let committedAt = sqlite3_column_double(raw, 3)
            guard rowStart == next, rowEnd >= rowStart, rowEnd - rowStart < Int64(Int32.max) else {
                throw SQLiteStoreError.corrupt(
                    "the change log's rows do not follow each other at position \(next) (row \(rowStart)…\(rowEnd))")
            }
            let expected = Int(rowEnd - rowStart + 1)
            if sqlite3_column_type(raw, 4) == SQLITE_BLOB {
                // An import's row: place changes in binary (PackedPlaceChanges).
                let blob = UnsafeRawBufferPointer(
                    start: sqlite3_column_blob(raw, 4), count: Int(sqlite3_column_bytes(raw, 4)))
                try PackedPlaceChanges.forEachChange(in: blob, expected: expected) { offset, change in
                    let at = rowStart + Int64(offset)
                    guard at > position else { return }
                    entries.append(LoggedChange(position: LogPosition(at), change: change, committedAt: committedAt))
                }
            } else {
                try PackedChanges.forEachText(in: bytes(raw, 4), expected: expected) { offset, text in
                    let at = rowStart + Int64(offset)
                    guard at > position else { return }
                    let change = try ChangeCoding.decode(String(decoding: text, as: UTF8.self))
                    entries.append(LoggedChange(position: LogPosition(at), change: change, committedAt: committedAt))
                }
            }
            next = rowEnd + 1
            // Never half a transaction: read on to the end of the last one.
            if entries.count >= limit && rowEnd >= transactionEnd { break }
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

    /// Deletes the log rows whose every change `retention` no longer keeps (a row holding a change
    /// it keeps stays whole); answers how many changes went.
    public func trimLog(keeping retention: LogRetention) throws -> Int {
        let cutoff = Date().timeIntervalSince1970 - retention.seconds
        var deleted = 0
        try write { db in
            // `position <=` as well as `last_position <=`: the primary key then bounds the scan.
            let condition = """
                WHERE position <= (SELECT position FROM change_log_head) - ?1
                    AND last_position <= (SELECT position FROM change_log_head) - ?1 AND committed_at < ?2
                """
            let arguments: StatementArguments = [Int64(clamping: retention.changes), cutoff]
            deleted =
                try Int.fetchOne(
                    db, sql: "SELECT coalesce(sum(last_position - position + 1), 0) FROM change_log " + condition,
                    arguments: arguments) ?? 0
            try db.execute(sql: "DELETE FROM change_log " + condition, arguments: arguments)
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
    /// Takes the next `count` (> 0) positions from the head inside the caller's write
    /// transaction: the last of them, the commit time recorded, and the statement that inserts a
    /// log row (position, last_position, tx_end, committed_at, change).
    static func reservePositions(count: Int, in db: Database) throws -> (
        end: Int64, now: Double, insert: OpaquePointer?
    ) {
        let now = Date().timeIntervalSince1970
        guard
            let end = try Int64.fetchOne(
                db, sql: "UPDATE change_log_head SET position = position + ?, committed_at = ? RETURNING position",
                arguments: [count, now])
        else { throw SQLiteStoreError.corrupt("the change log has no head row") }
        return (end, now, try logInsert(db))
    }

    /// The statement that inserts a log row (`insertLogRow`).
    static func logInsert(_ db: Database) throws -> OpaquePointer? {
        try db.cachedStatement(
            sql: "INSERT INTO change_log (position, last_position, tx_end, committed_at, change) VALUES (?, ?, ?, ?, ?)"
        ).sqliteStatement
    }

    /// Inserts a log row with `logInsert`'s statement: its changes as text (`PackedChanges`) or,
    /// `binary`, as a blob (`PackedPlaceChanges`; readers tell them apart by the column's type).
    /// The bytes are bound static, not copied once more: they stay put until the step is done.
    static func insertLogRow(
        _ db: Database, _ insert: OpaquePointer?, positions: ClosedRange<Int64>, transactionEnd: Int64,
        committedAt: Double, change: UnsafeRawBufferPointer, binary: Bool
    ) throws {
        var status = sqlite3_bind_int64(insert, 1, positions.lowerBound)
        status |= sqlite3_bind_int64(insert, 2, positions.upperBound)
        status |= sqlite3_bind_int64(insert, 3, transactionEnd)
        status |= sqlite3_bind_double(insert, 4, committedAt)
        if binary {
            status |= sqlite3_bind_blob(insert, 5, change.baseAddress, Int32(change.count), nil)
        } else {
            status |= sqlite3_bind_text(
                insert, 5, change.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(change.count), nil)
        }
        let stepped = status == SQLITE_OK ? sqlite3_step(insert) : status
        sqlite3_reset(insert)
        sqlite3_clear_bindings(insert)
        guard stepped == SQLITE_DONE else {
            throw SQLiteStoreError.writeFailed(
                "the change log: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }
}
