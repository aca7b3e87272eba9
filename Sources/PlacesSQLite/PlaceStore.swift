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
public final class PlaceStore: Sendable {
    private let queue: DatabaseQueue

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Throws: `PlaceStoreError.cannotOpen` with SQLite's reason.
    public init(path: String) throws(PlaceStoreError) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try PlaceStore.migrator.migrate(queue)
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

    // MARK: - Places

    /// Inserts or updates places, all in one transaction: every one is stored, or none.
    public func upsert(_ places: [Place]) throws(PlaceStoreError) {
        try write { db in
            let statement = try db.makeStatement(
                sql: """
                    INSERT INTO place (kind, id, name, lat, lon, attributes) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (kind, id) DO UPDATE SET
                        name = excluded.name, lat = excluded.lat, lon = excluded.lon, attributes = excluded.attributes
                    """)
            for place in places {
                try statement.execute(arguments: [
                    place.kind, place.id, place.name, place.coordinate.latitude, place.coordinate.longitude,
                    PlaceStore.encode(place),
                ])
            }
        }
    }

    /// Every stored place, in (kind, id) order.
    public func places() throws(PlaceStoreError) -> [Place] {
        try read { db in
            var places: [Place] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT kind, id, name, lat, lon, attributes FROM place ORDER BY kind, id")
            while let row = try rows.next() {
                let coordinate = try Coordinate(latitude: row[3], longitude: row[4])
                let pairs = try JSONDecoder().decode([[String]].self, from: Data((row[5] as String).utf8))
                    .filter { $0.count == 2 }
                var attributes: [String: String] = [:]
                for pair in pairs { attributes[pair[0]] = pair[1] }
                places.append(
                    Place(
                        id: row[1], kind: row[0], name: row[2], coordinate: coordinate, attributes: attributes,
                        attributeNames: pairs.map { $0[0] }))
            }
            return places
        }
    }

    // MARK: - Users and tokens

    /// Inserts or replaces a user with the digest of their token.
    public func save(_ user: User, tokenDigest: TokenDigest) throws(PlaceStoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO user (id, name, lat, lon, visibility, token_sha256)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user.id, user.name, user.location?.latitude, user.location?.longitude, user.visibility.rawValue,
                    Data(tokenDigest.bytes),
                ])
        }
    }

    /// Deletes a user.
    public func deleteUser(_ id: String) throws(PlaceStoreError) {
        try write { db in try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [id]) }
    }

    /// Every stored user with their token digest.
    public func users() throws(PlaceStoreError) -> [(user: User, tokenDigest: TokenDigest)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, lat, lon, visibility, token_sha256 FROM user ORDER BY id").map {
                row in
                let latitude: Double? = row[2]
                let longitude: Double? = row[3]
                var location: Coordinate?
                if let latitude, let longitude { location = try Coordinate(latitude: latitude, longitude: longitude) }
                let visibility = Visibility(rawValue: row[4]) ?? .private
                guard let digest = TokenDigest(bytes: [UInt8](row[5] as Data)) else {
                    throw PlaceStoreError.corrupt("a token digest that is not 32 bytes")
                }
                return (User(id: row[0], name: row[1], location: location, visibility: visibility), digest)
            }
        }
    }

    /// Stores the admin token's digest.
    public func setAdminTokenDigest(_ digest: TokenDigest) throws(PlaceStoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (key, value) VALUES ('admin_token_sha256', ?)",
                arguments: [Data(digest.bytes)])
        }
    }

    /// The admin token's digest, if one was set.
    public func adminTokenDigest() throws(PlaceStoreError) -> TokenDigest? {
        try read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'admin_token_sha256'")
            else { return nil }
            return TokenDigest(bytes: [UInt8](data))
        }
    }

    /// SQLite's own consistency check: "ok" for a sound database.
    public func integrityCheck() throws(PlaceStoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    // MARK: - Internals

    /// Attributes as a JSON array of [name, value] pairs, which keeps their order.
    static func encode(_ place: Place) -> String {
        let pairs = place.orderedAttributes.map { [$0.name, $0.value] }
        guard let data = try? JSONEncoder().encode(pairs) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    private func write(_ body: (Database) throws -> Void) throws(PlaceStoreError) {
        do {
            try queue.write(body)
        } catch let error as PlaceStoreError {
            throw error
        } catch {
            throw .writeFailed("\(error)")
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(PlaceStoreError) -> T {
        do {
            return try queue.read(body)
        } catch let error as PlaceStoreError {
            throw error
        } catch {
            throw .corrupt("\(error)")
        }
    }
}
