import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

extension SQLitePlaceStore: BulkPlaceStore {
    /// Stores a batch of checked places in one transaction, all or none: the bulk path for imports.
    ///
    /// A place whose kind and id are already stored is updated (upsert). With `replacingKinds`,
    /// every stored place of those kinds is deleted first, in the same transaction, so that the
    /// kind ends up holding exactly `places`' places of it. The places are sorted into the
    /// buckets' order and each bucket is written once (`BucketImport`).
    ///
    /// - Parameters:
    ///   - progress: called now and then with the number of places stored so far.
    /// - Throws: `SQLiteStoreError.writeFailed`; nothing of the import is then stored.
    public func store(
        _ batch: PlaceImport, replacingKinds: Set<String> = [], progress: ((Int) -> Void)? = nil
    ) throws(SQLiteStoreError) {
        try bulkWrite { db in
            let importer = BucketImport(db: db, logging: true, memoryBudget: importMemoryBudget.withLock { $0 })
            for kind in Set(replacingKinds.map(PlaceDirectory.composed)).sorted() { try importer.replace(kind: kind) }
            try importer.add(batch.places, origins: nil)
            _ = try importer.finish()
            progress?(batch.places.count)
        }
    }

    /// Runs a large write in one transaction. While no other connection uses the database, the
    /// transaction runs with a rollback journal instead of the WAL: pages added at the end of the
    /// file need no journal, so the data is written once instead of twice (WAL, then checkpoint).
    /// It is just as atomic and durable (`synchronous = FULL`); WAL mode is restored afterwards.
    /// With another connection open the switch is refused and the write runs in WAL mode.
    func bulkWrite(_ body: (Database) throws -> Void) throws(SQLiteStoreError) {
        do {
            try queue.writeWithoutTransaction { db in
                // A larger page cache for the length of the write (64 MiB at most: an import into
                // buckets appends, and reads back only the buckets it merges into).
                try db.execute(sql: "PRAGMA cache_size = -65536")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                let mode = try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                defer {
                    if mode == "delete" { _ = try? String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
                }
                try db.inTransaction(.immediate) {
                    try body(db)
                    return .commit
                }
            }
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw .writeFailed(reason(of: error))
        }
    }

    /// The stored places that have an attribute named `name` (a plain name, as `duty`), in (kind,
    /// id) order: only the places whose attribute text holds the quoted name are decoded.
    public func places(withAttribute name: String) throws(SQLiteStoreError) -> [Place] {
        let quoted = Array(("\"" + name + "\"").utf8)
        return try read { db in
            try SQLitePlaceStore.fetchPlaces(db) { attributes in
                attributes.count >= quoted.count
                    && (0...(attributes.count - quoted.count)).contains { start in
                        attributes[start..<(start + quoted.count)].elementsEqual(quoted)
                    }
            }
        }.filter { $0.attribute(name) != nil }
    }

    /// The stored places of `kind`, by id.
    public func places(kind: String) throws(SQLiteStoreError) -> [Place] {
        try read { db in try SQLitePlaceStore.fetchPlaces(db, kind: kind) }
    }
}

/// SQLite's SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Binds a string parameter (1-based) as UTF-8 text.
func bindText(_ statement: OpaquePointer?, _ index: Int32, _ text: String) -> Int32 {
    var text = text
    return text.withUTF8 { bindBytes(statement, index, $0) }
}

/// Binds a text parameter (1-based) given as UTF-8 bytes, which SQLite copies.
func bindBytes(_ statement: OpaquePointer?, _ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard let base = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, transient) }
    return sqlite3_bind_text(
        statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
}
