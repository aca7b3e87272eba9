import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places
import Synchronization

/// Places, users and the admin token digest on SQLite (GRDB), durable before a write returns.
///
/// The database runs in WAL mode with `synchronous = FULL`: a write is acknowledged only after
/// its transaction is on disk. GRDB's own WAL set-up would lower `synchronous` to NORMAL, so the
/// store sets both pragmas itself and checks them (`journalMode`, `synchronous`).
///
/// Constraints live in SQL (NOT NULL, CHECK on coordinate ranges and visibility, primary keys),
/// so even a bug above cannot store a latitude of 91 or a user half-located.
///
/// Tokens are stored only as their SHA-256 digests (`TokenDigest`).
public final class SQLitePlaceStore: PlaceStore {
    let queue: DatabaseQueue
    /// The database file, as given.
    public let path: String
    /// The read-only connection the change log is followed on, opened on first use.
    let logConnection = Mutex<DatabaseQueue?>(nil)
    /// The most bytes of memory an import's places set aside take before they go to a temporary
    /// file (tests lower it).
    let importMemoryBudget = Mutex(ImportPartitions.defaultBudget)

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// The file is first read through a read-only connection (``DatabaseIdentity``): a file that is
    /// not a Vicinity database, or one a newer Vicinity wrote, is refused before anything is written
    /// to it. A database made before databases were marked is marked now.
    ///
    /// - Throws: `SQLiteStoreError.notVicinity`, `.newerSchema`, or `.cannotOpen` with SQLite's
    ///   reason on one line.
    public init(path: String) throws(SQLiteStoreError) {
        self.path = path
        let identity = try DatabaseIdentity.inspect(path: path)
        var configuration = Configuration()
        // Another process writing (an import, a command) makes a write wait, not fail.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // 16 KiB pages (for a new file; an existing one keeps its size): a fifth faster bulk
            // imports, and fewer pages to read when loading.
            try db.execute(sql: "PRAGMA page_size = 16384")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw .cannotOpen(path: path, reason: SQLiteStoreError.reason(of: error))
        }
        do {
            try SQLitePlaceStore.migrator.migrate(queue)
            if identity != .vicinity(schema: SQLitePlaceStore.schemaVersion, marked: true) {
                try queue.write { db in try SQLitePlaceStore.mark(db) }
            }
        } catch {
            throw .cannotOpen(path: path, reason: reason(of: error))
        }
    }

    /// SQLite's `application_id` of every Vicinity database ("VCNT").
    public static let applicationID: Int32 = 0x5643_4E54

    /// The schema this version of Vicinity writes, kept in SQLite's `user_version`: the number of
    /// migrations. A database of a higher version is refused.
    public static var schemaVersion: Int { migrationIdentifiers.count }

    /// The migrations this version knows, in order.
    static var migrationIdentifiers: [String] { migrator.migrations }

    /// The `setting` key holding the version of Vicinity that last raised the schema.
    static let writtenByKey = "schema_written_by"

    /// Marks the database as Vicinity's, of the current schema, written by this version.
    private static func mark(_ db: Database) throws {
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, CAST(? AS BLOB))",
            arguments: [writtenByKey, ProductVersion.current])
    }

    /// The journal mode in force (`wal`).
    public var journalMode: String {
        (try? queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }) ?? nil ?? "unknown"
    }

    /// The `synchronous` level in force (2 = FULL).
    public var synchronous: Int {
        (try? queue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }) ?? nil ?? -1
    }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: places, users, settings") { db in
            try db.execute(
                sql: """
                    CREATE TABLE place (
                        kind TEXT NOT NULL CHECK (kind <> ''),
                        id TEXT NOT NULL CHECK (id <> ''),
                        name TEXT NOT NULL,
                        lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
                        lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
                        attributes TEXT NOT NULL DEFAULT '{}',
                        PRIMARY KEY (kind, id)
                    );
                    CREATE TABLE user (
                        id TEXT NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
                        name TEXT NOT NULL,
                        lat REAL CHECK (lat IS NULL OR lat BETWEEN -90 AND 90),
                        lon REAL CHECK (lon IS NULL OR lon BETWEEN -180 AND 180),
                        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
                        token_sha256 BLOB NOT NULL UNIQUE CHECK (length(token_sha256) = 32),
                        CHECK ((lat IS NULL) = (lon IS NULL))
                    );
                    CREATE TABLE setting (
                        key TEXT NOT NULL PRIMARY KEY,
                        value BLOB NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: places in key order") { db in
            // WITHOUT ROWID keeps rows in (kind, id) order in one B-tree: loading is one sequential
            // scan, and an import sorted by key only ever appends.
            try db.execute(
                sql: """
                    CREATE TABLE place_v2 (
                        kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64 AND kind <> 'user'),
                        id TEXT NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
                        name TEXT NOT NULL,
                        lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
                        lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
                        attributes TEXT NOT NULL DEFAULT '[]',
                        PRIMARY KEY (kind, id)
                    ) WITHOUT ROWID;
                    INSERT INTO place_v2 SELECT kind, id, name, lat, lon, attributes FROM place;
                    DROP TABLE place;
                    ALTER TABLE place_v2 RENAME TO place;
                    """)
        }
        migrator.registerMigration("v3: change log") { db in
            // The change log: every committed transaction appends its changes (ChangeCoding text)
            // under consecutive positions taken from the one-row head in the same transaction.
            // SQLite lets one writer at a time hold the database's write lock from the head's
            // update to the commit, so positions are gap-free in commit order.
            try db.execute(
                sql: """
                    CREATE TABLE change_log (
                        position INTEGER NOT NULL PRIMARY KEY CHECK (position > 0),
                        tx_end INTEGER NOT NULL CHECK (tx_end >= position),
                        committed_at REAL NOT NULL,
                        change TEXT NOT NULL CHECK (change <> '')
                    );
                    CREATE TABLE change_log_head (
                        only INTEGER NOT NULL PRIMARY KEY CHECK (only = 1),
                        position INTEGER NOT NULL CHECK (position >= 0),
                        committed_at REAL
                    );
                    INSERT INTO change_log_head (only, position, committed_at) VALUES (1, 0, NULL);
                    """)
        }
        migrator.registerMigration("v4: people's privacy") { db in
            // How precisely others see each user (the users stored before read as street), when a
            // location expires and when a private spell ends (seconds since 1970). A location
            // stored before lasts the default 12 hours from the upgrade, as if set then: stale
            // ones must not stay on maps for ever.
            try db.execute(
                sql: """
                    ALTER TABLE user ADD COLUMN precision TEXT NOT NULL DEFAULT 'street'
                        CHECK (precision IN ('exact', 'street', 'district', 'city'));
                    ALTER TABLE user ADD COLUMN location_expires_at INTEGER;
                    ALTER TABLE user ADD COLUMN private_until INTEGER;
                    UPDATE user SET location_expires_at = CAST(strftime('%s', 'now') AS INTEGER) + 43200
                        WHERE lat IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v5: packed change log") { db in try SQLitePlaceStore.packChangeLog(db) }
        migrator.registerMigration("v6: places in buckets") { db in
            // A kind's places in blobs of a few dozen (PlaceBucket): an import writes each blob
            // once and an edit rewrites one. The coordinate and id checks the place rows had are
            // made by the code that writes and reads the blobs (BucketReader, forEachEntry).
            try db.execute(
                sql: """
                    CREATE TABLE place_kind (
                        kind TEXT NOT NULL PRIMARY KEY CHECK (length(kind) BETWEEN 1 AND 64 AND kind <> 'user'),
                        number INTEGER NOT NULL UNIQUE CHECK (number BETWEEN 1 AND 2147483647),
                        seed INTEGER NOT NULL,
                        buckets INTEGER NOT NULL CHECK (buckets BETWEEN 1 AND 4294967295),
                        count INTEGER NOT NULL CHECK (count > 0)
                    );
                    CREATE TABLE place_bucket (
                        key INTEGER NOT NULL PRIMARY KEY CHECK (key > 4294967295),
                        data BLOB NOT NULL CHECK (length(data) > 5)
                    );
                    """)
            let importer = BucketImport(db: db, logging: false)
            let statement = try db.makeStatement(
                sql: "SELECT kind, id, name, lat, lon, attributes FROM place ORDER BY kind, id")
            var names = AttributeCoding.NameCache()
            var piece: [Place] = []
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                let (attributeNames, values) = AttributeCoding.decode(row[5] as String, names: &names)
                piece.append(
                    Place(
                        id: row[1], kind: row[0], name: row[2],
                        coordinate: try Coordinate(latitude: row[3], longitude: row[4]),
                        attributeNames: attributeNames, attributeValues: values))
                if piece.count == 65_536 {
                    try importer.add(piece, origins: nil)
                    piece.removeAll(keepingCapacity: true)
                }
            }
            try importer.add(piece, origins: nil)
            _ = try importer.finish()
            try db.execute(sql: "DROP TABLE place")
        }
        return migrator
    }()

    // MARK: - Writing

    /// Stores changes, in order, in one transaction with their change-log entries: all of them,
    /// or none when it throws. Returns once the transaction is on disk.
    ///
    /// - Throws: `SQLiteStoreError.writeFailed` (a constraint, a full disk, a read-only file).
    public func commit(_ changes: [DirectoryChange]) throws -> StoredCommit {
        var stored: [DirectoryChange] = []
        var replaced: [Bool?] = []
        var position: LogPosition = 0
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    stored = []
                    replaced = []
                    for change in changes {
                        let (change, replacing) = try SQLitePlaceStore.store(change, in: db)
                        stored.append(change)
                        replaced.append(replacing)
                    }
                    position = try SQLitePlaceStore.appendToLog(stored.lazy.map(ChangeCoding.encode), in: db)
                    return .commit
                }
            }
        } catch let error as PlacesError {
            throw error
        } catch {
            throw SQLiteStoreError.writeFailed(reason(of: error))
        }
        return StoredCommit(changes: stored, replaced: replaced, position: position)
    }

    /// Inserts or updates places, all in one transaction: every one is stored, or none.
    public func upsert(_ places: [Place]) throws(SQLiteStoreError) {
        try write { db in
            for place in places { _ = try SQLitePlaceStore.store(.putPlace(place), in: db) }
            try SQLitePlaceStore.appendToLog(places.lazy.map { ChangeCoding.encode(.putPlace($0)) }, in: db)
        }
    }

    /// Stores one change; a user change answers with the user's whole stored record. The flag
    /// says whether a place change replaced a stored place (nil for other changes).
    private static func store(_ change: DirectoryChange, in db: Database) throws -> (DirectoryChange, Bool?) {
        let returning = "RETURNING \(userColumns)"
        switch change {
        case .putPlace(let place):
            return (change, try putPlace(place, in: db))
        case .removePlace(let kind, let id):
            guard try removePlace(kind: kind, id: id, in: db) else { throw PlacesError.noSuchPlace(kind: kind, id: id) }
            return (change, nil)
        case .addUser(let user, let digest), .putUser(let user, let digest):
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [user.id]) ?? false
            if exists, case .addUser = change { throw PlacesError.userExists(user.id) }
            return (
                try storedUser(
                    db,
                    sql: """
                        INSERT INTO user (id, name, lat, lon, visibility, token_sha256, precision,
                            location_expires_at, private_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET name = excluded.name, lat = excluded.lat, lon = excluded.lon,
                            visibility = excluded.visibility, token_sha256 = excluded.token_sha256,
                            precision = excluded.precision, location_expires_at = excluded.location_expires_at,
                            private_until = excluded.private_until \(returning)
                        """,
                    arguments: [
                        user.id, user.name, user.location?.latitude, user.location?.longitude,
                        user.visibility.rawValue, Data(digest.bytes), user.effectivePrecision.rawValue,
                        seconds(user.locationExpiresAt), seconds(user.privateUntil),
                    ], id: user.id), nil
            )
        case .moveUser(let id, let location, let expiry):
            return (
                try storedUser(
                    db, sql: "UPDATE user SET lat = ?, lon = ?, location_expires_at = ? WHERE id = ? \(returning)",
                    arguments: [location?.latitude, location?.longitude, seconds(location == nil ? nil : expiry), id],
                    id: id), nil
            )
        case .setVisibility(let id, let visibility, let until):
            return (
                try storedUser(
                    db, sql: "UPDATE user SET visibility = ?, private_until = ? WHERE id = ? \(returning)",
                    arguments: [visibility.rawValue, seconds(visibility == .private ? until : nil), id], id: id), nil
            )
        case .setPrecision(let id, let precision):
            return (
                try storedUser(
                    db, sql: "UPDATE user SET precision = ? WHERE id = ? \(returning)",
                    arguments: [precision.rawValue, id], id: id), nil
            )
        case .forgetLocation(let id, let expiry):
            // A timer that another writer ran first, or that a move overtook, changes nothing: the
            // record as it stands is the answer.
            try db.cachedStatement(
                sql: "UPDATE user SET lat = NULL, lon = NULL, location_expires_at = NULL "
                    + "WHERE id = ? AND location_expires_at = ?"
            ).execute(arguments: [id, seconds(expiry)])
            return (
                try storedUser(db, sql: "SELECT \(userColumns) FROM user WHERE id = ?", arguments: [id], id: id), nil
            )
        case .endPrivacy(let id, let until):
            try db.cachedStatement(
                sql: "UPDATE user SET visibility = 'public', private_until = NULL "
                    + "WHERE id = ? AND visibility = 'private' AND private_until = ?"
            ).execute(arguments: [id, seconds(until)])
            return (
                try storedUser(db, sql: "SELECT \(userColumns) FROM user WHERE id = ?", arguments: [id], id: id), nil
            )
        case .removeUser(let id):
            try db.cachedStatement(sql: "DELETE FROM user WHERE id = ?").execute(arguments: [id])
            guard db.changesCount > 0 else { throw PlacesError.noSuchUser(id) }
            return (change, nil)
        case .setAdminToken(let digest):
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO setting (key, value) VALUES ('admin_token_sha256', ?)"
            ).execute(arguments: [Data(digest.bytes)])
            return (change, nil)
        }
    }

    /// Runs a user statement with RETURNING and answers with the stored record.
    private static func storedUser(_ db: Database, sql: String, arguments: StatementArguments, id: String) throws
        -> DirectoryChange
    {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) else {
            throw PlacesError.noSuchUser(id)
        }
        let (user, digest) = try user(from: row)
        return .putUser(user, tokenDigest: digest)
    }

    /// The columns of a user record, as `user(from:)` reads them.
    static let userColumns =
        "id, name, lat, lon, visibility, token_sha256, precision, location_expires_at, private_until"

    /// A time as stored: whole seconds since 1970.
    static func seconds(_ date: Date?) -> Int64? { date.map { Int64($0.timeIntervalSince1970.rounded(.down)) } }

    /// A user record from a row of `userColumns`.
    static func user(from row: Row) throws -> (User, TokenDigest) {
        let latitude: Double? = row[2]
        let longitude: Double? = row[3]
        var location: Coordinate?
        if let latitude, let longitude { location = try Coordinate(latitude: latitude, longitude: longitude) }
        let visibility = Visibility(rawValue: row[4]) ?? .private
        guard let digest = TokenDigest(bytes: [UInt8](row[5] as Data)) else {
            throw SQLiteStoreError.corrupt("a token digest that is not 32 bytes")
        }
        let precision = (row[6] as String?).flatMap(LocationPrecision.init(rawValue:)) ?? .stored
        let expiry: Int64? = row[7]
        let until: Int64? = row[8]
        return (
            User(
                id: row[0], name: row[1], location: location, visibility: visibility, precision: precision,
                locationExpiresAt: expiry.map { Date(timeIntervalSince1970: Double($0)) },
                privateUntil: until.map { Date(timeIntervalSince1970: Double($0)) }), digest
        )
    }

    // MARK: - Reading

    /// Every stored place, in (kind, id) byte order.
    public func places() throws(SQLiteStoreError) -> [Place] {
        try read { db in try SQLitePlaceStore.fetchPlaces(db) }
    }

    /// Every place, as `loadDirectory` reads them.
    func loadPlaces() throws(SQLiteStoreError) -> [Place] { try places() }

    /// Every stored place, read in one pass straight into a catalog's columns (no `[Place]`, no
    /// second copy): kind by kind, bucket by bucket, each kind into a loader reserved for its
    /// count. A place without attributes (almost all) goes from the bucket's bytes to the
    /// catalog's arenas as it is: no `Place` and no `String` per place. The buckets keep each id
    /// once (`forEachEntry` checks), so the loader looks no id up, except where kinds stored
    /// apart are one kind to `String` (canonically equivalent spellings stored before kinds were
    /// composed): those are loaded together, and their ids looked up.
    static func loadCatalog(_ db: Database, cellSizeMeters: Double?) throws -> PlaceCatalog {
        var catalog = try PlaceCatalog(cellSizeMeters: cellSizeMeters)
        var groups: [String: [StoredKind]] = [:]
        var order: [String] = []
        for kind in try storedKinds(db) {
            if groups[kind.name] == nil { order.append(kind.name) }
            groups[kind.name, default: []].append(kind)
        }
        var names = AttributeCoding.NameCache()
        for name in order {
            let group = groups[name] ?? []
            let distinct = group.count == 1
            var loader = catalog.loader(kind: name, reservingCapacity: group.reduce(0) { $0 + $1.count })
            for kind in group {
                try forEachEntry(db, of: kind) { entry in
                    let coordinate = try coordinate(entry)
                    // ASCII bytes are valid UTF-8 as they are; any other text goes through `String`,
                    // which repairs invalid UTF-8 as every other reader of the database does.
                    if entry.attributes.isEmpty && isASCII(entry.id) && isASCII(entry.name) {
                        try loader.append(id: entry.id, name: entry.name, at: coordinate, distinct: distinct)
                    } else {
                        try loader.append(try place(entry, kind: name, names: &names), distinct: distinct)
                    }
                }
            }
            catalog.finish(&loader)
        }
        return catalog
    }

    private static func isASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        !text.contains(where: { $0 >= 0x80 })
    }

    /// A text column (0-based) of the current row.
    static func text(_ statement: OpaquePointer?, _ column: Int32) -> String {
        String(decoding: bytes(statement, column), as: UTF8.self)
    }

    /// The UTF-8 bytes of a text column (0-based) of the current row, valid until the statement
    /// steps or is reset.
    static func bytes(_ statement: OpaquePointer?, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let bytes = sqlite3_column_text(statement, column) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// Every stored user with their token digest.
    public func users() throws(SQLiteStoreError) -> [(user: User, tokenDigest: TokenDigest)] {
        try read { db in try SQLitePlaceStore.fetchUsers(db) }
    }

    static func fetchUsers(_ db: Database) throws -> [(user: User, tokenDigest: TokenDigest)] {
        try Row.fetchAll(db, sql: "SELECT \(userColumns) FROM user ORDER BY id").map {
            try user(from: $0)
        }
    }

    /// The admin token's digest, if one was set.
    public func adminTokenDigest() throws(SQLiteStoreError) -> TokenDigest? {
        try read { db in try SQLitePlaceStore.fetchAdminTokenDigest(db) }
    }

    static func fetchAdminTokenDigest(_ db: Database) throws -> TokenDigest? {
        guard let data = try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'admin_token_sha256'")
        else { return nil }
        return TokenDigest(bytes: [UInt8](data))
    }

    /// Everything stored, as a directory ready to serve.
    ///
    /// - Parameter cellSizeMeters: the grid cell side of every index, or nil for the default.
    public func loadDirectory(cellSizeMeters: Double? = nil) throws(SQLiteStoreError) -> PlaceDirectory {
        try loadSnapshot(cellSizeMeters: cellSizeMeters).directory
    }

    /// Everything stored and the change-log position it reflects, read in one transaction.
    public func loadSnapshot(cellSizeMeters: Double? = nil) throws(SQLiteStoreError) -> DirectorySnapshot {
        var catalog: PlaceCatalog?
        var users: [(user: User, tokenDigest: TokenDigest)] = []
        var admin: TokenDigest?
        var head = LogHead(position: 0, committedAt: nil)
        do {
            // One snapshot: the write lock keeps other writers out while the places are read.
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    catalog = try SQLitePlaceStore.loadCatalog(db, cellSizeMeters: cellSizeMeters)
                    users = try SQLitePlaceStore.fetchUsers(db)
                    admin = try SQLitePlaceStore.fetchAdminTokenDigest(db)
                    head = try SQLitePlaceStore.fetchHead(db)
                    return .commit
                }
            }
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw .corrupt(SQLiteStoreError.reason(of: error))
        }
        guard let catalog else { throw .corrupt("the places were not read") }
        do {
            let directory = try PlaceDirectory(places: catalog, users: users, adminTokenDigest: admin)
            return DirectorySnapshot(directory: directory, position: head.position, committedAt: head.committedAt)
        } catch {
            throw .corrupt(error.description)
        }
    }

    /// SQLite's own consistency check: "ok" for a sound database.
    public func integrityCheck() throws(SQLiteStoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    // MARK: - Internals

    func write(_ body: (Database) throws -> Void) throws(SQLiteStoreError) {
        do {
            try queue.write(body)
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw .writeFailed(reason(of: error))
        }
    }

    /// The one-line cause of a failed write, with the system's reason when a file write failed.
    func reason(of error: any Error) -> String {
        let systemErrno = queue.inDatabase { db in sqlite3_system_errno(db.sqliteConnection) }
        return SQLiteStoreError.reason(of: error, systemErrno: systemErrno)
    }

    func read<T>(_ body: (Database) throws -> T) throws(SQLiteStoreError) -> T {
        do {
            return try queue.read(body)
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw .corrupt(SQLiteStoreError.reason(of: error))
        }
    }
}
