import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places
import Synchronization

extension SQLitePlaceStore: BulkPlaceStore {
    /// Stores a batch of checked places in one transaction, all or none: the bulk path for imports.
    ///
    /// A place whose kind and id are already stored is updated (upsert). With `replacingKinds`,
    /// every stored place of those kinds is deleted first, in the same transaction, so that the
    /// kind ends up holding exactly `places`' places of it. Places are written in (kind, id) order,
    /// the table's own order, which makes every insertion an append to the B-tree; the values are
    /// bound through SQLite's C API, without an intermediate array per row.
    ///
    /// - Parameters:
    ///   - progress: called now and then with the number of places stored so far.
    /// - Throws: `SQLiteStoreError.writeFailed`; nothing of the import is then stored.
    public func store(
        _ batch: PlaceImport, replacingKinds: Set<String> = [], progress: ((Int) -> Void)? = nil
    ) throws(SQLiteStoreError) {
        let places = batch.places
        // The key order and the attribute texts, on two threads at once.
        let prepared = PreparedImport()
        DispatchQueue.concurrentPerform(iterations: 2) { task in
            if task == 0 {
                prepared.setOrder(SQLitePlaceStore.keyOrder(places))
            } else {
                prepared.setAttributes(AttributeCoding.encodeAll(places))
            }
        }
        let (order, attributes) = prepared.values
        try bulkWrite { db in
            // The log says what a replacement removes: the stored places of those kinds that the
            // import does not put back.
            var removed: [(kind: String, id: String)] = []
            if !replacingKinds.isEmpty {
                let imported = Set(
                    places.lazy.filter { replacingKinds.contains($0.kind) }.map { $0.kind + "\u{0}" + $0.id })
                for kind in replacingKinds.sorted() {
                    for id in try String.fetchAll(db, sql: "SELECT id FROM place WHERE kind = ?", arguments: [kind])
                    where !imported.contains(kind + "\u{0}" + id) {
                        removed.append((kind, id))
                    }
                }
            }
            for kind in replacingKinds.sorted() {
                try db.execute(sql: "DELETE FROM place WHERE kind = ?", arguments: [kind])
            }
            // Many rows per statement: SQLite's per-statement work is shared by a whole chunk.
            let chunk = 100
            let full = try db.makeStatement(sql: SQLitePlaceStore.upsertPlacesSQL(rows: chunk))
            var done = 0
            try places.withUnsafeBufferPointer { places in
                while done < order.count {
                    let rows = min(chunk, order.count - done)
                    let prepared =
                        rows == chunk ? full : try db.makeStatement(sql: SQLitePlaceStore.upsertPlacesSQL(rows: rows))
                    // The pointer lives as long as `prepared` does.
                    try withExtendedLifetime(prepared) {
                        let statement = prepared.sqliteStatement
                        var status = SQLITE_OK
                        for row in 0..<rows {
                            let offset = order[done + row]
                            let base = Int32(row * 6)
                            status |= bindText(statement, base + 1, places[offset].kind)
                            status |= bindText(statement, base + 2, places[offset].id)
                            status |= bindText(statement, base + 3, places[offset].name)
                            status |= sqlite3_bind_double(statement, base + 4, places[offset].coordinate.latitude)
                            status |= sqlite3_bind_double(statement, base + 5, places[offset].coordinate.longitude)
                            status |= attributes.bind(offset, to: statement, at: base + 6)
                        }
                        let stepped = status == SQLITE_OK ? sqlite3_step(statement) : status
                        sqlite3_reset(statement)
                        guard stepped == SQLITE_DONE else {
                            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
                            let first = places[order[done]]
                            throw SQLiteStoreError.writeFailed(
                                "in the \(rows) places from \"\(first.id)\" of kind \"\(first.kind)\" on: \(message)")
                        }
                    }
                    let before = done
                    done += rows
                    if before / 16_384 != done / 16_384 { progress?(done) }
                }
            }
            try SQLitePlaceStore.appendToLog(count: removed.count + order.count, in: db) { offset in
                offset < removed.count
                    ? ChangeCoding.encode(.removePlace(kind: removed[offset].kind, id: removed[offset].id))
                    : ChangeCoding.encode(.putPlace(places[order[offset - removed.count]]))
            }
            progress?(places.count)
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
                // A larger page cache for the length of the write (256 MiB at most).
                try db.execute(sql: "PRAGMA cache_size = -262144")
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
    /// id) order: only the rows whose attribute text holds the quoted name are decoded.
    public func places(withAttribute name: String) throws(SQLiteStoreError) -> [Place] {
        // LIKE's wildcards in the name only widen the match, which the filter then narrows.
        let pattern = "%\"" + name + "\"%"
        return try fetchPlaces(where: "WHERE attributes LIKE ?", arguments: [pattern]).filter {
            $0.attribute(name) != nil
        }
    }

    /// The stored places of `kind`, by id.
    public func places(kind: String) throws(SQLiteStoreError) -> [Place] {
        try fetchPlaces(where: "WHERE kind = ?", arguments: [kind])
    }

    /// Offsets of `places` in (kind, id) order, bytewise as SQLite's BINARY collation compares.
    ///
    /// Sorting on the first sixteen bytes as two integers decides almost every comparison; only
    /// equal prefixes compare the whole UTF-8 text.
    static func keyOrder(_ places: [Place]) -> [Int] {
        var byKind: [String: [Int]] = [:]
        for (offset, place) in places.enumerated() { byKind[place.kind, default: []].append(offset) }
        var order: [Int] = []
        order.reserveCapacity(places.count)
        for kind in byKind.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            var keyed = byKind[kind, default: []].map { offset in
                let (high, low) = prefix(places[offset].id)
                return (high: high, low: low, offset: offset)
            }
            keyed.sort { a, b in
                if a.high != b.high { return a.high < b.high }
                if a.low != b.low { return a.low < b.low }
                return places[a.offset].id.utf8.lexicographicallyPrecedes(places[b.offset].id.utf8)
            }
            order += keyed.map(\.offset)
        }
        return order
    }

    /// The first sixteen UTF-8 bytes as two big-endian integers, zero-padded: they order like the
    /// bytes (a shorter text sorts first on a tie, as SQLite's memcmp-then-length does).
    private static func prefix(_ text: String) -> (UInt64, UInt64) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var count = 0
        for byte in text.utf8.prefix(16) {
            if count < 8 {
                high |= UInt64(byte) << (8 * UInt64(7 - count))
            } else {
                low |= UInt64(byte) << (8 * UInt64(15 - count))
            }
            count += 1
        }
        return (high, low)
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

/// The import's key order and attribute texts, computed on two threads.
private final class PreparedImport: Sendable {
    private let storage = Mutex<(order: [Int], attributes: AttributeCoding.Encoded)>(([], .init()))

    func setOrder(_ order: [Int]) { storage.withLock { $0.order = order } }
    func setAttributes(_ attributes: AttributeCoding.Encoded) { storage.withLock { $0.attributes = attributes } }
    var values: (order: [Int], attributes: AttributeCoding.Encoded) { storage.withLock { $0 } }
}
