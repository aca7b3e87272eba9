import Foundation
import GRDB
import GRDBSQLite
import Places

/// The change-log rows of an import, written while the merge runs, inside its transaction
/// (binary, `PackedPlaceChanges`: a row of up to `SQLitePlaceStore.changesPerRow` changes to
/// places of one kind, cut after `SQLitePlaceStore.bytesPerRow` bytes).
///
/// The number of changes is known only at the end (repeats and removals are found by the merge),
/// so each row but the last is written with `SQLitePlaceStore.transactionContinues` as its
/// transaction's end, and the head moves once, at the end (`finish`). One row is held back
/// until the next is made: the last is written with the transaction's true end.
struct ImportLogWriter {
    private let db: Database
    private let enabled: Bool
    private var packed = PackedPlaceChanges(kind: UnsafeBufferPointer(start: nil, count: 0))
    private var kind: [UInt8] = []
    /// The row made last, not written yet.
    private var held: PackedPlaceChanges?
    /// The position of the next change written, the commit time, and the insert statement, from
    /// the first row written on.
    private var next: Int64?
    private var now = 0.0
    private var insert: OpaquePointer?

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
        if packed.isFull { try flush() }
    }

    /// Adds the storing of a place of the current kind.
    mutating func add(putting entry: MergedEntry) throws {
        guard enabled else { return }
        packed.appendPut(entry: UnsafeRawBufferPointer(entry.raw))
        if packed.isFull { try flush() }
    }

    /// Adds a row made elsewhere, of changes to places of the current kind.
    mutating func add(row: PackedPlaceChanges) throws {
        guard enabled else { return }
        try flush()
        try keep(row)
    }

    private mutating func flush() throws {
        guard packed.count > 0 else { return }
        try keep(packed)
        kind.withUnsafeBufferPointer { packed.start(kind: $0) }
    }

    /// Writes the row held back, if any, as not its transaction's last, and holds `row`.
    private mutating func keep(_ row: PackedPlaceChanges) throws {
        if let held { try write(held, last: false) }
        held = row
    }

    private mutating func write(_ row: PackedPlaceChanges, last: Bool) throws {
        if next == nil {
            next = Int64(try SQLitePlaceStore.fetchHead(db).position) + 1
            now = Date().timeIntervalSince1970
            insert = try SQLitePlaceStore.logInsert(db)
        }
        let first = next!
        let end = first + Int64(row.count) - 1
        try row.bytes.withUnsafeBytes { blob in
            try SQLitePlaceStore.insertLogRow(
                db, insert, positions: first...end,
                transactionEnd: last ? end : SQLitePlaceStore.transactionContinues, committedAt: now, change: blob,
                binary: true)
        }
        next = end + 1
    }

    /// Writes the last row and moves the log's head past it: the import's changes are then one
    /// transaction of the log.
    mutating func finish() throws {
        guard enabled else { return }
        try flush()
        guard let held else { return }
        try write(held, last: true)
        self.held = nil
        try db.execute(
            sql: "UPDATE change_log_head SET position = ?, committed_at = ?", arguments: [next! - 1, now])
    }
}
