import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

extension SQLitePlaceStore {
    /// Stores an import given piece by piece, in one transaction, all or none, holding no more
    /// than a piece in memory.
    ///
    /// Each piece is upserted as it comes, in (kind, id) order within the piece. The keys written
    /// go to a temporary table (on disk) with each place's change-log line, whose primary key finds
    /// a kind and id written twice without holding every id in memory. With replacement, a kind's
    /// stored places are moved aside (their keys, in a second temporary table) and deleted when the
    /// kind is first met. At the end the change log gets what `store(_:replacingKinds:progress:)`
    /// writes: the places removed (stored before, not imported), then every imported place, in
    /// (kind, id) order, copied from the key table.
    ///
    /// - Throws: what `body` throws, as it is; `SQLiteStoreError.writeFailed` otherwise. Nothing
    ///   of the import is then stored.
    public func storeStreaming(
        replacingKinds: Set<String>, replacingEveryKindWritten: Bool, progress: ((Int) -> Void)?,
        _ body: (any PlaceImportSink) throws -> Void
    ) throws {
        var bodyError: (any Error)?
        do {
            try bulkWrite { db in
                let sink = try StreamingImportSink(db: db, replacingEveryKind: replacingEveryKindWritten)
                defer { sink.finalize() }
                for kind in replacingKinds.sorted() { try sink.replace(kind: kind) }
                do {
                    try body(sink)
                } catch {
                    bodyError = error
                    throw error
                }
                progress?(sink.written)
                try sink.appendToLog()
                try db.execute(sql: "DROP TABLE temp.vicinity_import_key; DROP TABLE temp.vicinity_import_old")
            }
        } catch {
            if let bodyError { throw bodyError }
            throw error
        }
    }
}

/// The SQLite sink of a streamed import: writes each piece inside the import's transaction.
private final class StreamingImportSink: PlaceImportSink {
    private let db: Database
    private let replacingEveryKind: Bool
    private var kindsSeen: Set<String> = []
    /// The files named by the origins, by their index in the key table.
    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The file of the last origin coded and its index: a piece's origins all name one file.
    private var lastFile: (name: String, index: Int)?
    /// A place's change-log line, reused from place to place.
    private var change: [UInt8] = []
    private var insertKey: OpaquePointer?
    private var findKey: OpaquePointer?
    /// The places written so far.
    private(set) var written = 0
    /// Places per upsert statement.
    private static let rowsPerStatement = 100

    init(db: Database, replacingEveryKind: Bool) throws {
        self.db = db
        self.replacingEveryKind = replacingEveryKind
        try db.execute(
            sql: """
                DROP TABLE IF EXISTS temp.vicinity_import_key;
                DROP TABLE IF EXISTS temp.vicinity_import_old;
                CREATE TEMP TABLE vicinity_import_key (
                    kind TEXT NOT NULL, id TEXT NOT NULL, file INTEGER NOT NULL, position INTEGER NOT NULL,
                    change TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
                CREATE TEMP TABLE vicinity_import_old (
                    kind TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
                PRAGMA temp.cache_size = -65536;
                """)
        insertKey = try prepare(
            """
            INSERT INTO temp.vicinity_import_key (kind, id, file, position, change) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """)
        findKey = try prepare("SELECT file, position FROM temp.vicinity_import_key WHERE kind = ? AND id = ?")
    }

    /// Finalizes the statements this sink prepared.
    func finalize() {
        sqlite3_finalize(insertKey)
        sqlite3_finalize(findKey)
        insertKey = nil
        findKey = nil
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SQLiteStoreError.writeFailed(String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return statement
    }

    private func failure(_ what: String) -> SQLiteStoreError {
        .writeFailed("\(what): " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }

    /// Sets the stored places of `kind` aside for the log and deletes them.
    func replace(kind: String) throws {
        guard kindsSeen.insert(kind).inserted else { return }
        try db.execute(
            sql: "INSERT OR IGNORE INTO temp.vicinity_import_old (kind, id) SELECT kind, id FROM place WHERE kind = ?",
            arguments: [kind])
        try db.execute(sql: "DELETE FROM place WHERE kind = ?", arguments: [kind])
    }

    func write(_ batch: PlaceImport, origins: [SourceLocation]) throws -> [(offset: Int, firstAt: SourceLocation)] {
        let places = batch.places
        precondition(origins.count == places.count, "one origin per place")
        if replacingEveryKind {
            for place in places where !kindsSeen.contains(place.kind) { try replace(kind: place.kind) }
        }
        // The keys in file order: the first of a kind and id wins.
        var repeats: [(offset: Int, firstAt: SourceLocation)] = []
        var kept: [Int] = []
        kept.reserveCapacity(places.count)
        for (offset, place) in places.enumerated() {
            let (file, position) = code(origins[offset])
            change.removeAll(keepingCapacity: true)
            ChangeCoding.appendPutPlace(place, to: &change)
            var status = bindText(insertKey, 1, place.kind)
            status |= bindText(insertKey, 2, place.id)
            status |= sqlite3_bind_int64(insertKey, 3, Int64(file))
            status |= sqlite3_bind_int64(insertKey, 4, position)
            status |= change.withUnsafeBufferPointer { bindBytes(insertKey, 5, $0) }
            let stepped = status == SQLITE_OK ? sqlite3_step(insertKey) : status
            sqlite3_reset(insertKey)
            guard stepped == SQLITE_DONE else { throw failure("the import's keys") }
            if sqlite3_changes(db.sqliteConnection) == 1 {
                kept.append(offset)
            } else {
                repeats.append((offset, try firstOrigin(of: place)))
            }
        }
        // The piece in key order: neighbouring rows of the table.
        kept.sort { a, b in
            let (x, y) = (places[a], places[b])
            return x.kind != y.kind
                ? x.kind.utf8.lexicographicallyPrecedes(y.kind.utf8) : x.id.utf8.lexicographicallyPrecedes(y.id.utf8)
        }
        try upsert(places, kept)
        written += kept.count
        return repeats
    }

    /// Upserts `places[offsets]`, many rows per statement.
    private func upsert(_ places: [Place], _ offsets: [Int]) throws {
        let attributes = AttributeCoding.encodeAll(offsets.map { places[$0] })
        let chunk = StreamingImportSink.rowsPerStatement
        let full = try db.cachedStatement(sql: SQLitePlaceStore.upsertPlacesSQL(rows: chunk))
        var done = 0
        while done < offsets.count {
            let rows = min(chunk, offsets.count - done)
            let prepared =
                rows == chunk ? full : try db.cachedStatement(sql: SQLitePlaceStore.upsertPlacesSQL(rows: rows))
            let statement = prepared.sqliteStatement
            var status = SQLITE_OK
            for row in 0..<rows {
                let place = places[offsets[done + row]]
                let base = Int32(row * 6)
                status |= bindText(statement, base + 1, place.kind)
                status |= bindText(statement, base + 2, place.id)
                status |= bindText(statement, base + 3, place.name)
                status |= sqlite3_bind_double(statement, base + 4, place.coordinate.latitude)
                status |= sqlite3_bind_double(statement, base + 5, place.coordinate.longitude)
                status |= attributes.bind(done + row, to: statement, at: base + 6)
            }
            let stepped = status == SQLITE_OK ? sqlite3_step(statement) : status
            sqlite3_reset(statement)
            guard stepped == SQLITE_DONE else {
                let first = places[offsets[done]]
                throw failure("in the \(rows) places from \"\(first.id)\" of kind \"\(first.kind)\" on")
            }
            done += rows
        }
    }

    /// Where the place of this kind and id that the import wrote first was read.
    private func firstOrigin(of place: Place) throws -> SourceLocation {
        var status = bindText(findKey, 1, place.kind)
        status |= bindText(findKey, 2, place.id)
        defer { sqlite3_reset(findKey) }
        guard status == SQLITE_OK, sqlite3_step(findKey) == SQLITE_ROW else { throw failure("the import's keys") }
        let file = files[Int(sqlite3_column_int64(findKey, 0))]
        let position = sqlite3_column_int64(findKey, 1)
        switch position {
        case 0: return SourceLocation(file: file)
        case 1...: return SourceLocation(file: file, position: .line(Int(position)))
        default: return SourceLocation(file: file, position: .feature(Int(-position - 1)))
        }
    }

    /// An origin as two integers: the file's index, and its line (> 0), its feature (< 0: -1 is
    /// feature 0) or 0 for the whole file.
    private func code(_ origin: SourceLocation) -> (file: Int, position: Int64) {
        let file: Int
        if let lastFile, lastFile.name == origin.file {
            file = lastFile.index
        } else if let index = fileIndex[origin.file] {
            file = index
        } else {
            file = files.count
            files.append(origin.file)
            fileIndex[origin.file] = file
        }
        lastFile = (origin.file, file)
        switch origin.position {
        case .file: return (file, 0)
        case .line(let line): return (file, Int64(line))
        case .feature(let index): return (file, -Int64(index) - 1)
        }
    }

    /// The log entries of the import: the places removed, then the places imported, each in (kind,
    /// id) order, as one transaction of the log.
    func appendToLog() throws {
        let removedSQL = """
            FROM temp.vicinity_import_old o
            WHERE NOT EXISTS (SELECT 1 FROM temp.vicinity_import_key k WHERE k.kind = o.kind AND k.id = o.id)
            """
        let removedCount = try Int.fetchOne(db, sql: "SELECT count(*) " + removedSQL) ?? 0
        let removed = try prepare("SELECT o.kind, o.id " + removedSQL + " ORDER BY o.kind, o.id")
        defer { sqlite3_finalize(removed) }
        let imported = try prepare("SELECT change FROM temp.vicinity_import_key ORDER BY kind, id")
        defer { sqlite3_finalize(imported) }
        try SQLitePlaceStore.appendToLog(count: removedCount + written, in: db) { offset, bytes in
            if offset < removedCount {
                guard sqlite3_step(removed) == SQLITE_ROW else { throw failure("the import's log") }
                let change = ChangeCoding.encode(
                    .removePlace(kind: SQLitePlaceStore.text(removed, 0), id: SQLitePlaceStore.text(removed, 1)))
                bytes += change.utf8
                return
            }
            guard sqlite3_step(imported) == SQLITE_ROW else { throw failure("the import's log") }
            // Copied as it is appended: the row's bytes last only until the next step.
            bytes += SQLitePlaceStore.bytes(imported, 0)
        }
    }
}
