import Foundation
import GRDB
import GRDBSQLite
import Places

/// The change-log rows of an import, made while the merge runs (binary, `PackedPlaceChanges`: a
/// row of up to `changesPerRow` changes to places of one kind, cut after
/// `SQLitePlaceStore.bytesPerRow` bytes) and kept on a temporary table until
/// their number is known at its end, then appended to the log in order.
struct ImportLogBuffer {
    private let db: Database
    private let enabled: Bool
    private var packed = PackedPlaceChanges(kind: UnsafeBufferPointer(start: nil, count: 0))
    private var kind: [UInt8] = []
    private var rows = 0
    private var total = 0
    /// The most changes a row holds.
    static let changesPerRow = 4_096

    init(db: Database, enabled: Bool) {
        self.db = db
        self.enabled = enabled
    }

    /// Ends the current row; the next changes are to places of `kind` (UTF-8 bytes).
    mutating func start(kind: UnsafeBufferPointer<UInt8>) throws {
        guard enabled else { return }
        try flush()
        self.kind = Array(kind)
        self.kind.withUnsafeBufferPointer { packed.start(kind: $0) }
    }

    /// Adds the removal of a place of the current kind.
    mutating func add(removing id: UnsafeBufferPointer<UInt8>) throws {
        guard enabled else { return }
        packed.appendRemove(id: id)
        if isFull { try flush() }
    }

    /// Adds the storing of a place of the current kind.
    mutating func add(putting entry: MergedEntry) throws {
        guard enabled else { return }
        packed.appendPut(entry: UnsafeRawBufferPointer(entry.raw))
        if isFull { try flush() }
    }

    /// Whether the row holds as many changes, or as many bytes, as a log row takes.
    private var isFull: Bool {
        packed.count == Self.changesPerRow || packed.bytes.count >= SQLitePlaceStore.bytesPerRow
    }

    private mutating func flush() throws {
        guard packed.count > 0 else { return }
        let statement = try db.cachedStatement(
            sql: "INSERT INTO temp.vicinity_import_log (key, count, data) VALUES (?, ?, ?)")
        let raw = statement.sqliteStatement
        var status = sqlite3_bind_int64(raw, 1, Int64(rows))
        status |= sqlite3_bind_int64(raw, 2, Int64(packed.count))
        status |= packed.bytes.withUnsafeBytes {
            sqlite3_bind_blob(raw, 3, $0.baseAddress, Int32($0.count), transient)
        }
        let stepped = status == SQLITE_OK ? sqlite3_step(raw) : status
        sqlite3_reset(raw)
        guard stepped == SQLITE_DONE else {
            throw SQLiteStoreError.writeFailed(
                "the import's log: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        rows += 1
        total += packed.count
        kind.withUnsafeBufferPointer { packed.start(kind: $0) }
    }

    /// Appends every row, in order, to the change log as one transaction's changes.
    mutating func appendToLog() throws {
        guard enabled else { return }
        try flush()
        guard total > 0 else { return }
        let statement = try db.makeStatement(sql: "SELECT count, data FROM temp.vicinity_import_log ORDER BY key")
        let raw = statement.sqliteStatement
        try withExtendedLifetime(statement) {
            try SQLitePlaceStore.appendPackedToLog(count: total, in: db) { body in
                while true {
                    let status = sqlite3_step(raw)
                    if status == SQLITE_DONE { return }
                    guard status == SQLITE_ROW else {
                        throw SQLiteStoreError.writeFailed(String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                    let count = Int(sqlite3_column_int64(raw, 0))
                    try body(
                        count,
                        UnsafeRawBufferPointer(
                            start: sqlite3_column_blob(raw, 1), count: Int(sqlite3_column_bytes(raw, 1))))
                }
            }
        }
    }
}
