import Foundation
import Logging
import Places
import PostgresNIO

/// The schema, in versioned migrations: `vicinity_schema` holds one row per migration applied
/// (its version and when), and `vicinity migrate --postgres URL` applies the missing ones. A store
/// opens only a database at exactly this version of the schema.
extension PostgresPlaceStore {
    /// The schema this version of Vicinity writes: the number of migrations.
    public static var schemaVersion: Int { migrations.count }

    /// The migrations, in order; migration `i` (0-based) raises the schema to version `i + 1`. Their
    /// statements are separated by semicolons, which appear nowhere else in them.
    static let migrations: [String] = [
        // v1: the tables of SQLite's schema (places, users, settings, change log and its head),
        // with the same constraints, so a bug above cannot store a latitude of 91 or a user half
        // located ("only" is quoted: ONLY is a reserved word). Keys are text in the "C" collation: they sort bytewise, as SQLite's do, so an
        // export lists places in the same order from either store.
        """
        CREATE TABLE vicinity_place (
            kind text COLLATE "C" NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 64 AND kind <> 'user'),
            id text COLLATE "C" NOT NULL CHECK (char_length(id) BETWEEN 1 AND 128),
            name text NOT NULL,
            lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
            lon double precision NOT NULL CHECK (lon BETWEEN -180 AND 180),
            attributes text NOT NULL DEFAULT '[]',
            PRIMARY KEY (kind, id)
        );
        CREATE TABLE vicinity_user (
            id text COLLATE "C" NOT NULL PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 128),
            name text NOT NULL,
            lat double precision CHECK (lat IS NULL OR lat BETWEEN -90 AND 90),
            lon double precision CHECK (lon IS NULL OR lon BETWEEN -180 AND 180),
            visibility text NOT NULL CHECK (visibility IN ('public', 'private')),
            token_sha256 bytea NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
            CHECK ((lat IS NULL) = (lon IS NULL))
        );
        CREATE TABLE vicinity_setting (
            key text NOT NULL PRIMARY KEY,
            value bytea NOT NULL
        );
        CREATE TABLE vicinity_change_log (
            position bigint NOT NULL PRIMARY KEY CHECK (position > 0),
            tx_end bigint NOT NULL CHECK (tx_end >= position),
            committed_at double precision NOT NULL,
            change text NOT NULL CHECK (change <> '')
        );
        CREATE TABLE vicinity_log_head (
            "only" integer NOT NULL PRIMARY KEY CHECK ("only" = 1),
            position bigint NOT NULL CHECK (position >= 0),
            committed_at double precision
        );
        INSERT INTO vicinity_log_head ("only", position, committed_at) VALUES (1, 0, NULL);
        CREATE SEQUENCE vicinity_log_unsafe_sequence;
        """,
        // v2: people's privacy: how precisely others see each user (the users stored before read
        // as street), when a location expires and when a private spell ends (seconds since 1970).
        // A location stored before lasts the default 12 hours from the upgrade, as if set then.
        """
        ALTER TABLE vicinity_user
            ADD COLUMN precision text NOT NULL DEFAULT 'street'
                CHECK (precision IN ('exact', 'street', 'district', 'city')),
            ADD COLUMN location_expires_at bigint,
            ADD COLUMN private_until bigint;
        UPDATE vicinity_user SET location_expires_at = floor(extract(epoch FROM now()))::bigint + 43200
            WHERE lat IS NOT NULL
        """,
    ]

    /// The `pg_advisory_xact_lock` key that makes concurrent migrations take turns ("VCNT").
    static let migrationLockKey: Int64 = 0x5643_4E54

    /// Brings the database's schema up to this version's, in one transaction: all the missing
    /// migrations, or none.
    ///
    /// ```swift
    /// let (from, to) = try PostgresPlaceStore.migrate(settings)   // (0, 1) on a new database
    /// ```
    ///
    /// - Returns: the version found and the version now.
    /// - Throws: `PostgresStoreError.cannotConnect`, `.newerSchema` (nothing changed),
    ///   `.migrationFailed` (rolled back).
    public static func migrate(_ settings: PostgresSettings, logger: Logger = PostgresPlaceStore.defaultLogger)
        throws -> (from: Int, to: Int)
    {
        let description = settings.description
        let connection = try blocking { () async throws(PostgresStoreError) -> PostgresConnection in
            do {
                return try await ReconnectingConnection.open(settings, logger: logger)
            } catch {
                throw .cannotConnect(database: description, reason: PostgresFailure.reason(of: error))
            }
        }
        defer { try? blocking { try await connection.close() } }
        return try blocking { () async throws -> (from: Int, to: Int) in
            do {
                try await connection.query("BEGIN", logger: logger)
                try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS vicinity_schema (
                        version integer NOT NULL PRIMARY KEY CHECK (version > 0),
                        applied_at timestamptz NOT NULL DEFAULT now(),
                        written_by text NOT NULL
                    )
                    """, logger: logger)
                let (found, writtenBy) = try await schemaVersion(on: connection, logger: logger)
                if found > schemaVersion {
                    throw PostgresStoreError.newerSchema(
                        database: description, schema: found, writtenBy: writtenBy, supported: schemaVersion)
                }
                for version in (found + 1)..<(schemaVersion + 1) {
                    // One statement a query: the extended protocol takes no more.
                    for statement in migrations[version - 1].split(separator: ";") {
                        let sql = statement.trimmingCharacters(in: .whitespacesAndNewlines)
                        if !sql.isEmpty { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                    }
                    try await connection.query(
                        "INSERT INTO vicinity_schema (version, written_by) VALUES (\(version), \(ProductVersion.current))",
                        logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
                return (found, schemaVersion)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                if let error = error as? PostgresStoreError { throw error }
                throw PostgresStoreError.migrationFailed(
                    database: description, reason: PostgresFailure.reason(of: error))
            }
        }
    }

    /// The schema version of the database (0 for none) and the Vicinity version that raised it.
    static func schemaVersion(on connection: PostgresConnection, logger: Logger) async throws -> (Int, String?) {
        let exists =
            try await connection.query(
                "SELECT to_regclass('vicinity_schema') IS NOT NULL", logger: logger
            ).collect().first?.decode(Bool.self) ?? false
        guard exists else { return (0, nil) }
        let row = try await connection.query(
            "SELECT version, written_by FROM vicinity_schema ORDER BY version DESC LIMIT 1", logger: logger
        ).collect().first
        guard let row else { return (0, nil) }
        let (version, writtenBy) = try row.decode((Int32, String).self)
        return (Int(version), writtenBy)
    }

    /// Refuses a database whose schema is not this version's.
    static func checkSchema(on connection: PostgresConnection, settings: PostgresSettings, logger: Logger)
        async throws
    {
        let (found, writtenBy) = try await schemaVersion(on: connection, logger: logger)
        if found > schemaVersion {
            throw PostgresStoreError.newerSchema(
                database: settings.description, schema: found, writtenBy: writtenBy, supported: schemaVersion)
        }
        if found < schemaVersion {
            throw PostgresStoreError.notMigrated(database: settings.description, schema: found, expected: schemaVersion)
        }
    }
}
