import Foundation
import GRDB
import GRDBSQLite
import Places

/// The change-log rows of an import, made while the merge runs (binary, `PackedPlaceChanges`: a
/// row of up to `SQLitePlaceStore.changesPerRow` changes to places of one kind, cut after
/// `SQLitePlaceStore.bytesPerRow` bytes) and kept with the import's sorted places (in memory up to
/// its budget, then on disk) until their number is known at its end, then appended to the log in
/// order.
struct ImportLogBuffer {
    private let db: Database
    /// Where the rows wait: the import's chunk store, under negative keys (-1 for the first).
    private let store: ChunkStore
    private let enabled: Bool
    /// The number of changes of each row.
    private var counts: [Int] = []
    private var packed = PackedPlaceChanges(kind: UnsafeBufferPointer(start: nil, count: 0))
    private var kind: [UInt8] = []
    private var rows = 0
    private var total = 0

    init(db: Database, store: ChunkStore, enabled: Bool) {
        self.db = db
        self.store = store
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

    private mutating func keep(_ row: PackedPlaceChanges) throws {
        try store.put(row.bytes, key: -Int64(rows) - 1)
        counts.append(row.count)
        rows += 1
        total += row.count
    }

    /// Appends every row, in order, to the change log as one transaction's changes.
    mutating func appendToLog() throws {
        guard enabled else { return }
        try flush()
        guard total > 0 else { return }
        let (store, counts) = (self.store, self.counts)
        var data = OwnedBytes()
        try SQLitePlaceStore.appendPackedToLog(count: total, in: db) { body in
            for (row, count) in counts.enumerated() {
                data = try store.get(-Int64(row) - 1, into: data)
                try body(count, data.bytes)
            }
        }
    }
}
