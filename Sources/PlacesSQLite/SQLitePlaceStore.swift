import Foundation
import GRDB
import Geo
import Places

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
    private let queue: DatabaseQueue
    /// The database file, as given.
    public let path: String

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Throws: `SQLiteStoreError.cannotOpen` with SQLite's reason.
    public init(path: String) throws(SQLiteStoreError) {
        self.path = path
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try SQLitePlaceStore.migrator.migrate(queue)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
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
        return migrator
    }()

    // MARK: - Writing

    /// Stores changes, in order, in one transaction: all of them, or none when it throws. Returns
    /// once the transaction is on disk.
    ///
    /// - Throws: `SQLiteStoreError.writeFailed` (a constraint, a full disk, a read-only file).
    public func commit(_ changes: [DirectoryChange]) throws {
        try write { db in
            for change in changes { try SQLitePlaceStore.store(change, in: db) }
        }
    }

    /// Inserts or updates places, all in one transaction: every one is stored, or none.
    public func upsert(_ places: [Place]) throws(SQLiteStoreError) {
        try write { db in
            for place in places { try SQLitePlaceStore.store(.putPlace(place), in: db) }
        }
    }

    private static func store(_ change: DirectoryChange, in db: Database) throws {
        switch change {
        case .putPlace(let place):
            try db.cachedStatement(sql: upsertPlaceSQL).execute(arguments: [
                place.kind, place.id, place.name, place.coordinate.latitude, place.coordinate.longitude,
                AttributeCoding.encode(place.orderedAttributes),
            ])
        case .removePlace(let kind, let id):
            try db.cachedStatement(sql: "DELETE FROM place WHERE kind = ? AND id = ?").execute(arguments: [kind, id])
        case .putUser(let user, let digest):
            try db.cachedStatement(
                sql: """
                    INSERT INTO user (id, name, lat, lon, visibility, token_sha256) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, lat = excluded.lat, lon = excluded.lon,
                        visibility = excluded.visibility, token_sha256 = excluded.token_sha256
                    """
            ).execute(arguments: [
                user.id, user.name, user.location?.latitude, user.location?.longitude, user.visibility.rawValue,
                Data(digest.bytes),
            ])
        case .removeUser(let id):
            try db.cachedStatement(sql: "DELETE FROM user WHERE id = ?").execute(arguments: [id])
        case .setAdminToken(let digest):
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO setting (key, value) VALUES ('admin_token_sha256', ?)"
            ).execute(arguments: [Data(digest.bytes)])
        }
    }

    static let upsertPlaceSQL = """
        INSERT INTO place (kind, id, name, lat, lon, attributes) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (kind, id) DO UPDATE SET
            name = excluded.name, lat = excluded.lat, lon = excluded.lon, attributes = excluded.attributes
        """

    // MARK: - Reading

    /// Every stored place, in (kind, id) order.
    public func places() throws(SQLiteStoreError) -> [Place] {
        try fetchPlaces(where: "", arguments: [])
    }

    func fetchPlaces(where condition: String, arguments: StatementArguments) throws(SQLiteStoreError) -> [Place] {
        try read { db in
            var places: [Place] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT kind, id, name, lat, lon, attributes FROM place \(condition) ORDER BY kind, id",
                arguments: arguments)
            var names = AttributeCoding.NameCache()
            while let row = try rows.next() {
                let coordinate = try Coordinate(latitude: row[3], longitude: row[4])
                let (attributes, order) = AttributeCoding.decode(row[5] as String, names: &names)
                places.append(
                    Place(
                        id: row[1], kind: row[0], name: row[2], coordinate: coordinate, attributes: attributes,
                        attributeNames: order))
            }
            return places
        }
    }

    /// Every stored user with their token digest.
    public func users() throws(SQLiteStoreError) -> [(user: User, tokenDigest: TokenDigest)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, lat, lon, visibility, token_sha256 FROM user ORDER BY id").map {
                row in
                let latitude: Double? = row[2]
                let longitude: Double? = row[3]
                var location: Coordinate?
                if let latitude, let longitude { location = try Coordinate(latitude: latitude, longitude: longitude) }
                let visibility = Visibility(rawValue: row[4]) ?? .private
                guard let digest = TokenDigest(bytes: [UInt8](row[5] as Data)) else {
                    throw SQLiteStoreError.corrupt("a token digest that is not 32 bytes")
                }
                return (User(id: row[0], name: row[1], location: location, visibility: visibility), digest)
            }
        }
    }

    /// The admin token's digest, if one was set.
    public func adminTokenDigest() throws(SQLiteStoreError) -> TokenDigest? {
        try read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'admin_token_sha256'")
            else { return nil }
            return TokenDigest(bytes: [UInt8](data))
        }
    }

    /// Everything stored, as a directory ready to serve.
    ///
    /// - Parameter cellSizeMeters: the grid cell side of every index, or nil for the default.
    public func loadDirectory(cellSizeMeters: Double? = nil) throws(SQLiteStoreError) -> PlaceDirectory {
        let places = try self.places()
        let users = try self.users()
        let admin = try adminTokenDigest()
        do {
            var catalog = try PlaceCatalog(cellSizeMeters: cellSizeMeters)
            try catalog.add(contentsOf: places)
            return try PlaceDirectory(places: catalog, users: users, adminTokenDigest: admin)
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
            throw .writeFailed("\(error)")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(SQLiteStoreError) -> T {
        do {
            return try queue.read(body)
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw .corrupt("\(error)")
        }
    }
}
