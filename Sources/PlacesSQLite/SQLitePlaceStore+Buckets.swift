import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

/// A kind's row of `place_kind`: its number (the high half of its buckets' keys), the seed of its
/// ids' hashes, its bucket layout and its number of places.
struct StoredKind: Equatable {
    var name: String
    var number: Int64
    var seed: UInt64
    var layout: BucketLayout
    var count: Int
}

extension SQLitePlaceStore {
    // MARK: - Kinds

    /// The stored record of `kind` (its exact bytes), or nil.
    static func storedKind(_ db: Database, _ kind: String) throws -> StoredKind? {
        let statement = try db.cachedStatement(
            sql: "SELECT kind, number, seed, buckets, count FROM place_kind WHERE kind = ?")
        return try Row.fetchOne(statement, arguments: [kind]).map(storedKind(from:))
    }

    /// Every kind's record, in byte order of the kinds.
    static func storedKinds(_ db: Database) throws -> [StoredKind] {
        try Row.fetchAll(db, sql: "SELECT kind, number, seed, buckets, count FROM place_kind ORDER BY kind")
            .map(storedKind(from:))
    }

    private static func storedKind(from row: Row) throws -> StoredKind {
        let buckets: Int = row[3]
        guard buckets >= 1 && buckets <= Int(UInt32.max) else {
            throw SQLiteStoreError.corrupt("kind \"\(row[0] as String)\" has \(buckets) buckets")
        }
        return StoredKind(
            name: row[0], number: row[1], seed: UInt64(bitPattern: row[2]), layout: BucketLayout(buckets: buckets),
            count: row[4])
    }

    /// A record for a kind not stored yet (saved by `save(_:in:)`), numbered after every number in
    /// use, with a random seed unless one is given.
    static func newKind(_ db: Database, _ kind: String, seed: UInt64? = nil, layout: BucketLayout = .init(buckets: 1))
        throws -> StoredKind
    {
        let numbers = try Int64.fetchOne(db, sql: "SELECT max(number) FROM place_kind") ?? 0
        let keys = (try Int64.fetchOne(db, sql: "SELECT max(key) FROM place_bucket")).map { $0 >> 32 } ?? 0
        return StoredKind(
            name: kind, number: max(numbers, keys) + 1, seed: seed ?? UInt64.random(in: .min ... .max), layout: layout,
            count: 0)
    }

    /// Stores a kind's record; a kind without places has none.
    static func save(_ kind: StoredKind, in db: Database) throws {
        if kind.count == 0 {
            try db.cachedStatement(sql: "DELETE FROM place_kind WHERE kind = ?").execute(arguments: [kind.name])
            return
        }
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO place_kind (kind, number, seed, buckets, count) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [
            kind.name, kind.number, Int64(bitPattern: kind.seed), kind.layout.buckets, kind.count,
        ])
    }

    // MARK: - Buckets

    /// A bucket's blob, or nil when the bucket is empty.
    static func readBucket(_ db: Database, key: Int64) throws -> [UInt8]? {
        let statement = try db.cachedStatement(sql: "SELECT data FROM place_bucket WHERE key = ?")
        try statement.setArguments([key])
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        let status = sqlite3_step(raw)
        if status == SQLITE_DONE { return nil }
        guard status == SQLITE_ROW else {
            throw SQLiteStoreError.corrupt(String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        let count = Int(sqlite3_column_bytes(raw, 0))
        guard count > 0, let bytes = sqlite3_column_blob(raw, 0) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Stores a bucket's blob; a bucket without places has no row.
    static func writeBucket(_ db: Database, key: Int64, _ bucket: consuming BucketWriter) throws {
        if bucket.count == 0 {
            try db.cachedStatement(sql: "DELETE FROM place_bucket WHERE key = ?").execute(arguments: [key])
            return
        }
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO place_bucket (key, data) VALUES (?, ?)")
        let raw = statement.sqliteStatement
        let blob = bucket.finished()
        var status = sqlite3_bind_int64(raw, 1, key)
        status |= blob.withUnsafeBytes { sqlite3_bind_blob(raw, 2, $0.baseAddress, Int32($0.count), transient) }
        let stepped = status == SQLITE_OK ? sqlite3_step(raw) : status
        sqlite3_reset(raw)
        guard stepped == SQLITE_DONE else {
            throw SQLiteStoreError.writeFailed(
                "a place bucket: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    /// Refuses a place the buckets must not hold, whatever path it came by (the checks the place
    /// table's columns made): an empty id, or a coordinate out of range.
    static func checkStorable(_ place: Place) throws(SQLiteStoreError) {
        let (latitude, longitude) = (place.coordinate.latitude, place.coordinate.longitude)
        guard !place.id.isEmpty, !place.kind.isEmpty, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else {
            throw .writeFailed(
                "place \"\(place.id)\" of kind \"\(place.kind)\" at \(latitude), \(longitude) cannot be stored")
        }
    }

    /// A place's bytes in a bucket.
    static func entryBytes(_ place: Place) -> [UInt8] {
        var bytes: [UInt8] = []
        appendEntry(place, to: &bytes)
        return bytes
    }

    /// Appends a place's bytes in a bucket to `bytes`.
    static func appendEntry(_ place: Place, to bytes: inout [UInt8]) {
        var id = place.id
        var name = place.name
        var attributes = place.attributeNames.isEmpty ? "" : AttributeCoding.encode(place)
        id.withUTF8 { id in
            name.withUTF8 { name in
                attributes.withUTF8 { attributes in
                    BucketWriter.appendEntry(
                        id: id, name: name, latitude: place.coordinate.latitude,
                        longitude: place.coordinate.longitude, attributes: attributes, to: &bytes)
                }
            }
        }
    }

    /// The place an entry of `kind` holds. Texts that are not valid UTF-8 are repaired, as every
    /// reader of the database does.
    static func place(_ entry: BucketEntry, kind: String, names: inout AttributeCoding.NameCache) throws -> Place {
        let (attributeNames, values) =
            entry.attributes.isEmpty
            ? ([], []) : AttributeCoding.decode(String(decoding: entry.attributes, as: UTF8.self), names: &names)
        return Place(
            id: String(decoding: entry.id, as: UTF8.self), kind: kind,
            name: String(decoding: entry.name, as: UTF8.self),
            coordinate: try coordinate(entry), attributeNames: attributeNames, attributeValues: values)
    }

    /// An entry's coordinate, checked.
    static func coordinate(_ entry: BucketEntry) throws(SQLiteStoreError) -> Coordinate {
        do {
            return try Coordinate(latitude: entry.latitude, longitude: entry.longitude)
        } catch {
            throw .corrupt("a stored place at \(entry.latitude), \(entry.longitude): \(error)")
        }
    }

    // MARK: - Edits

    /// Stores a place in its kind's bucket, making the kind or one more bucket when needed.
    ///
    /// - Returns: whether a place of that kind and id was stored before (and is now replaced).
    static func putPlace(_ place: Place, in db: Database) throws -> Bool {
        try checkStorable(place)
        var kind = try storedKind(db, place.kind) ?? newKind(db, place.kind)
        var id = place.id
        let existed = try id.withUTF8 { id in try rewriteBucket(db, kind: kind, id: id, with: entryBytes(place)) }
        guard !existed else { return true }
        kind.count += 1
        if kind.layout.isCrowded(count: kind.count) { try split(db, kind: &kind) }
        try save(kind, in: db)
        return false
    }

    /// Removes a place from its kind's bucket.
    ///
    /// - Returns: whether it was stored.
    static func removePlace(kind name: String, id: String, in db: Database) throws -> Bool {
        guard var kind = try storedKind(db, name) else { return false }
        var id = id
        guard try id.withUTF8({ id in try rewriteBucket(db, kind: kind, id: id, with: nil) }) else { return false }
        kind.count -= 1
        try save(kind, in: db)
        return true
    }

    /// Rewrites the bucket of `id` with the id's entry replaced by `entry` (added when absent), or
    /// with it left out when `entry` is nil; a bucket left as it was is not written.
    ///
    /// - Returns: whether the bucket held the id.
    private static func rewriteBucket(
        _ db: Database, kind: StoredKind, id: UnsafeBufferPointer<UInt8>, with entry: [UInt8]?
    ) throws -> Bool {
        let hash = PlaceBucket.hash(id, seed: kind.seed)
        let order = PlaceBucket.orderKey(hash)
        let key = PlaceBucket.key(kind: kind.number, address: kind.layout.address(hash))
        let old = try readBucket(db, key: key) ?? []
        var writer = BucketWriter(reservingCapacity: old.count + (entry?.count ?? 0))
        var found = false
        var placed = false
        try old.withUnsafeBytes { raw in
            guard !raw.isEmpty else { return }
            var reader = try BucketReader(raw)
            while let stored = try reader.next() {
                if !placed {
                    let storedOrder = PlaceBucket.orderKey(PlaceBucket.hash(stored.id, seed: kind.seed))
                    if storedOrder > order || (storedOrder == order && !stored.id.lexicographicallyPrecedes(id)) {
                        placed = true
                        if let entry { entry.withUnsafeBytes { writer.append(entryBytes: $0) } }
                        if storedOrder == order && stored.id.elementsEqual(id) {
                            found = true
                            continue
                        }
                    }
                }
                writer.append(entryBytes: UnsafeRawBufferPointer(rebasing: raw[stored.bytes]))
            }
        }
        if !placed, let entry { entry.withUnsafeBytes { writer.append(entryBytes: $0) } }
        if found || entry != nil { try writeBucket(db, key: key, writer) }
        return found
    }

    /// Adds the next bucket of a kind, moving to it the places of the bucket it splits off from.
    static func split(_ db: Database, kind: inout StoredKind) throws {
        let (bucket, sibling) = kind.layout.nextSplit
        var grown = kind.layout
        grown.grow()
        let key = PlaceBucket.key(kind: kind.number, address: bucket)
        let old = try readBucket(db, key: key) ?? []
        var staying = BucketWriter(reservingCapacity: old.count)
        var moving = BucketWriter(reservingCapacity: old.count)
        try old.withUnsafeBytes { raw in
            guard !raw.isEmpty else { return }
            var reader = try BucketReader(raw)
            while let entry = try reader.next() {
                let bytes = UnsafeRawBufferPointer(rebasing: raw[entry.bytes])
                if grown.address(PlaceBucket.hash(entry.id, seed: kind.seed)) == bucket {
                    staying.append(entryBytes: bytes)
                } else {
                    moving.append(entryBytes: bytes)
                }
            }
        }
        if moving.count > 0 {
            try writeBucket(db, key: key, staying)
            try writeBucket(db, key: PlaceBucket.key(kind: kind.number, address: sibling), moving)
        }
        kind.layout = grown
    }

    // MARK: - Reading

    /// Calls `body` with every place of a kind, bucket by bucket in key order, checking that each
    /// is in the bucket its hash names, in order within it (so no id is stored twice), and that
    /// the kind holds as many places as its record says.
    static func forEachEntry(_ db: Database, of kind: StoredKind, _ body: (BucketEntry) throws -> Void) throws {
        let statement = try db.cachedStatement(
            sql: "SELECT key, data FROM place_bucket WHERE key BETWEEN ? AND ? ORDER BY key")
        let keys = PlaceBucket.keys(ofKind: kind.number)
        try statement.setArguments([keys.lowerBound, keys.upperBound])
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        var count = 0
        while true {
            let status = sqlite3_step(raw)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw SQLiteStoreError.corrupt(String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            let address = PlaceBucket.address(ofKey: sqlite3_column_int64(raw, 0))
            guard address < kind.layout.buckets, let blob = sqlite3_column_blob(raw, 1) else {
                throw SQLiteStoreError.corrupt("kind \"\(kind.name)\" has a bucket \(address) out of its layout")
            }
            var reader = try BucketReader(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(raw, 1))))
            var last: (order: UInt64, id: UnsafeBufferPointer<UInt8>)?
            while let entry = try reader.next() {
                let hash = PlaceBucket.hash(entry.id, seed: kind.seed)
                let order = PlaceBucket.orderKey(hash)
                guard kind.layout.address(hash) == address,
                    last.map({ $0.order < order || ($0.order == order && $0.id.lexicographicallyPrecedes(entry.id)) })
                        ?? true
                else {
                    throw SQLiteStoreError.corrupt(
                        "place \"\(String(decoding: entry.id, as: UTF8.self))\" of kind \"\(kind.name)\" is out of place"
                    )
                }
                last = (order, entry.id)
                count += 1
                try body(entry)
            }
        }
        guard count == kind.count else {
            throw SQLiteStoreError.corrupt("kind \"\(kind.name)\" holds \(count) places, not \(kind.count)")
        }
    }

    /// The places of the given kinds (every kind for nil), in (kind, id) byte order; only the
    /// entries `keep` accepts (given the attribute text) are decoded.
    static func fetchPlaces(
        _ db: Database, kind: String? = nil, keep: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true }
    ) throws -> [Place] {
        let kinds = try kind.map { try storedKind(db, $0).map { [$0] } ?? [] } ?? storedKinds(db)
        var places: [Place] = []
        var names = AttributeCoding.NameCache()
        for kind in kinds {
            var ofKind: [Place] = []
            ofKind.reserveCapacity(kind.count)
            try forEachEntry(db, of: kind) { entry in
                if keep(entry.attributes) { ofKind.append(try place(entry, kind: kind.name, names: &names)) }
            }
            ofKind.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
            places += ofKind
        }
        return places
    }
}
