import Foundation
import Geo
import Logging
import NIOCore
import Places
import PostgresNIO

/// Places, users and the admin token digest on PostgreSQL, shared by any number of Vicinity nodes:
/// each commits its writes there and follows everyone's through the change log.
///
/// **Positions gap-free in commit order.** Every write transaction takes its log positions with
/// `UPDATE vicinity_log_head SET position = position + n … RETURNING position`, after its other
/// statements and just before `COMMIT`. The update holds the head row's lock until the transaction
/// ends, so a second writer's update waits, and takes the next numbers only once the first has
/// committed or rolled back. PostgreSQL makes a transaction's commit visible to new snapshots
/// before it releases the transaction's locks, so by the time the second writer holds numbers
/// above the first's, the first's are visible: a reader that sees position N committed sees every
/// position below N, and "everything after N" never misses a change that commits later. (A
/// sequence's `nextval` gives no such promise: numbers are taken in one order and committed in
/// another; `LogSequencing.unsafeSequence` keeps that broken way for the test that shows it.)
///
/// **Wake-up.** A commit sends `pg_notify('vicinity_changes', position)` in its transaction, which
/// PostgreSQL delivers when it commits; `waitForChanges` waits on a LISTEN connection of its own.
///
/// **Losing the database.** The store keeps a writer, a reader and a listener connection, each put
/// back in the background when lost (0.1 s, doubling to 5 s). While the writer is down, `commit`
/// throws `PlacesError.storeUnavailable` at once; a commit whose connection broke during `COMMIT`
/// is reported as a failure that says its outcome is unknown (if it did commit, every node applies
/// it from the log, this one included). Reads throw while the reader is down; the follower retries.
///
/// Tokens reach the database only as their SHA-256 digests (`TokenDigest`); neither they nor the
/// password are ever logged.
///
/// The methods block the calling thread while the database answers: call them from a thread of
/// your own (the directory's writer and follower threads), never from an event loop.
///
/// ```swift
/// let settings = try PostgresSettings.parse(url, passwordFile: nil, environment: env, urlFromCommandLine: true)
/// let store = try PostgresPlaceStore(settings: settings)
/// let directory = try DurableDirectory(loading: store)
/// directory.follow()
/// ```
public final class PostgresPlaceStore: PlaceStore, BulkPlaceStore {
    /// Where the store connects.
    public let settings: PostgresSettings
    /// How positions are taken.
    public let sequencing: LogSequencing
    let logger: Logger
    /// Commits and imports run here.
    let writer: ReconnectingConnection
    /// Reads of the log and snapshots run here.
    let reader: ReconnectingConnection
    let listener: ChangeListener

    /// How long a commit or a read of the log may wait for the server before its connection is
    /// dropped, in seconds.
    let answerTimeout: Double

    /// The logger a store uses when given none: warnings and errors only.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "vicinity.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// Connects to the database and checks that its schema is this version's.
    ///
    /// - Parameters:
    ///   - settings: where to connect.
    ///   - sequencing: how positions are taken; nil to follow `$VICINITY_UNSAFE_LOG_SEQUENCE`
    ///     (`headRow` unless it is `1`).
    ///   - logger: where connection losses and the unsafe mode's warning go.
    ///   - answerTimeout: seconds a commit or a read of the log waits for the server before its
    ///     connection is dropped (the commit then fails as unavailable): the default minute is long
    ///     enough for a commit queued behind another node's large import (which holds the log's
    ///     head while it writes its log rows), short enough that a silent network partition does
    ///     not stall the writer for TCP's many minutes.
    /// - Throws: `PostgresStoreError.cannotConnect`, `.notMigrated` ("run vicinity migrate
    ///   --postgres URL"), `.newerSchema`.
    public init(
        settings: PostgresSettings, sequencing: LogSequencing? = nil, logger: Logger = defaultLogger,
        answerTimeout: Double = 60
    ) throws {
        self.settings = settings
        self.answerTimeout = answerTimeout
        self.logger = logger
        self.sequencing = sequencing ?? LogSequencing.from(environment: ProcessInfo.processInfo.environment)
        writer = ReconnectingConnection(role: "writer", settings: settings, logger: logger)
        reader = ReconnectingConnection(role: "reader", settings: settings, logger: logger)
        listener = ChangeListener(settings: settings, logger: logger)
        let writer = self.writer
        let reader = self.reader
        try blocking { try await writer.connect() }
        do {
            try blocking { try await reader.connect() }
            try writer.lease { connection in
                try await Self.checkSchema(on: connection, settings: settings, logger: logger)
            }
            if case .unsafeSequence = self.sequencing {
                let warning =
                    "UNSAFE: change-log positions come from a sequence (\(LogSequencing.environmentVariable)=1); "
                    + "nodes following this database can skip changes. Use it only to test that."
                logger.critical("\(warning)", metadata: ["database": "\(settings)"])
                // Numbers from the sequence must not fall on positions already logged.
                try writer.lease { connection in
                    try await connection.query(
                        """
                        SELECT setval('vicinity_log_unsafe_sequence',
                            greatest((SELECT position FROM vicinity_log_head), 1),
                            (SELECT position FROM vicinity_log_head) > 0)
                        WHERE (SELECT last_value FROM vicinity_log_unsafe_sequence)
                            < (SELECT position FROM vicinity_log_head)
                        """, logger: logger)
                }
            }
        } catch {
            writer.close()
            reader.close()
            throw error
        }
        listener.start()
    }

    deinit {
        close()
    }

    /// Closes the connections and stops reconnecting. The store is unusable afterwards.
    public func close() {
        listener.close()
        writer.close()
        reader.close()
    }

    // MARK: - Writing

    /// Stores changes, in order, in one transaction with their change-log entries and a
    /// notification: all of them, or none when it throws. Returns once PostgreSQL has committed
    /// (durable as the server's `synchronous_commit` makes it: on disk by default).
    ///
    /// - Throws: a `PlacesError` the data decides (`noSuchPlace`, `noSuchUser`, `userExists`);
    ///   `PlacesError.storeUnavailable` while the database cannot be reached, or when the
    ///   connection broke during `COMMIT` (then the outcome is unknown, and said so);
    ///   `PostgresStoreError.writeFailed` for a refused write (a constraint).
    public func commit(_ changes: [DirectoryChange]) throws -> StoredCommit {
        let sequencing = self.sequencing
        let logger = self.logger
        return try writeTransaction(timeout: answerTimeout) { connection in
            var numbers: (first: Int64, end: Int64)?
            if case .unsafeSequence = sequencing, !changes.isEmpty {
                numbers = try await Self.takeUnsafeNumbers(changes.count, on: connection, logger: logger)
            }
            var stored: [DirectoryChange] = []
            var replaced: [Bool?] = []
            var index = 0
            while index < changes.count {
                // A run of places with distinct keys (a group commit's usual shape) goes in one
                // statement: one round trip instead of one a place.
                var run: [Place] = []
                var keys = Set<StoredKey>()
                var end = index
                while end < changes.count, case .putPlace(let place) = changes[end],
                    keys.insert(StoredKey(kind: place.kind, id: place.id)).inserted
                {
                    run.append(place)
                    end += 1
                }
                if run.count > 1 {
                    replaced += try await Self.upsert(run, on: connection, logger: logger)
                    stored += run.map { .putPlace($0) }
                    index = end
                    continue
                }
                let (change, replacing) = try await Self.store(changes[index], on: connection, logger: logger)
                stored.append(change)
                replaced.append(replacing)
                index += 1
            }
            let texts = stored.map(ChangeCoding.encode)
            let position: LogPosition
            if let numbers, case .unsafeSequence(let delay) = sequencing {
                if delay > 0 { try await Task.sleep(nanoseconds: UInt64(Double.random(in: 0...delay) * 1e9)) }
                position = try await Self.appendUnsafe(texts, numbers: numbers, on: connection, logger: logger)
            } else {
                position = try await Self.appendToLog(texts, on: connection, logger: logger)
            }
            return StoredCommit(changes: stored, replaced: replaced, position: position)
        }
    }

    /// Runs `body` in a transaction on the writer connection and commits it, telling apart a
    /// refusal (rolled back), a lost connection before `COMMIT` (nothing stored) and one during
    /// `COMMIT` (outcome unknown).
    ///
    /// - Parameter timeout: seconds after which the connection is dropped (see
    ///   `ReconnectingConnection.lease`); nil for an import, which may take long.
    func writeTransaction<T: Sendable>(
        timeout: Double?, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) throws -> T {
        let logger = self.logger
        let database = settings.description
        do {
            return try writer.lease(timeout: timeout) { connection in
                try await connection.query("BEGIN", logger: logger)
                let value: T
                do {
                    value = try await body(connection)
                } catch {
                    if !PostgresFailure.isConnectionLoss(error) {
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                    }
                    throw error
                }
                do {
                    try await connection.query("COMMIT", logger: logger)
                } catch  where PostgresFailure.isConnectionLoss(error) {
                    throw PlacesError.storeUnavailable(
                        "\(database): the connection was lost during COMMIT, so whether the write was stored is "
                            + "unknown (if it was, it is in the change log and every node applies it): "
                            + PostgresFailure.reason(of: error))
                }
                return value
            }
        } catch let error as PlacesError {
            throw error
        } catch let error as PostgresStoreError {
            throw error
        } catch  where PostgresFailure.isConnectionLoss(error) {
            throw PlacesError.storeUnavailable(
                "\(database): the connection was lost, nothing was stored: \(PostgresFailure.reason(of: error))")
        } catch {
            throw PostgresStoreError.writeFailed(PostgresFailure.reason(of: error))
        }
    }

    /// The columns a user statement returns, in the order `user(from:)` reads them.
    static let userColumns =
        "id, name, lat, lon, visibility, token_sha256, precision, location_expires_at, private_until"

    /// Stores one change; a user change answers with the user's whole stored record. The flag
    /// says whether a place change replaced a stored place (nil for other changes).
    static func store(_ change: DirectoryChange, on connection: PostgresConnection, logger: Logger) async throws
        -> (DirectoryChange, Bool?)
    {
        switch change {
        case .putPlace(let place):
            // `xmax` of the row an upsert returns is 0 when it inserted and the transaction's own
            // id when it updated: whether it replaced, decided by the upsert itself (a SELECT
            // before it could miss a row another writer commits in between).
            let rows = try await connection.query(
                """
                INSERT INTO vicinity_place (kind, id, name, lat, lon, attributes)
                VALUES (\(place.kind), \(place.id), \(place.name), \(place.coordinate.latitude),
                    \(place.coordinate.longitude), \(AttributeCoding.encode(place)))
                ON CONFLICT (kind, id) DO UPDATE SET name = excluded.name, lat = excluded.lat,
                    lon = excluded.lon, attributes = excluded.attributes
                RETURNING xmax <> 0
                """, logger: logger
            ).collect()
            return (change, try rows.first?.decode(Bool.self) ?? false)
        case .removePlace(let kind, let id):
            let rows = try await connection.query(
                "DELETE FROM vicinity_place WHERE kind = \(kind) AND id = \(id) RETURNING 1", logger: logger
            ).collect()
            guard !rows.isEmpty else { throw PlacesError.noSuchPlace(kind: kind, id: id) }
            return (change, nil)
        case .addUser(let user, let digest):
            // DO NOTHING waits for a concurrent insert of the same id to commit, then inserts no
            // row: exactly one of two nodes adding one id at once succeeds.
            let row = try await connection.query(
                """
                INSERT INTO vicinity_user (id, name, lat, lon, visibility, token_sha256, precision,
                    location_expires_at, private_until)
                VALUES (\(user.id), \(user.name), \(user.location?.latitude), \(user.location?.longitude),
                    \(user.visibility.rawValue), \(ByteBuffer(bytes: digest.bytes)), \(user.effectivePrecision.rawValue),
                    \(seconds(user.locationExpiresAt)), \(seconds(user.privateUntil)))
                ON CONFLICT (id) DO NOTHING
                RETURNING \(unescaped: userColumns)
                """, logger: logger
            ).collect().first
            guard let row else { throw PlacesError.userExists(user.id) }
            return (try storedUser(row), nil)
        case .putUser(let user, let digest):
            return (
                try await storedUser(
                    """
                    INSERT INTO vicinity_user (id, name, lat, lon, visibility, token_sha256, precision,
                        location_expires_at, private_until)
                    VALUES (\(user.id), \(user.name), \(user.location?.latitude), \(user.location?.longitude),
                        \(user.visibility.rawValue), \(ByteBuffer(bytes: digest.bytes)),
                        \(user.effectivePrecision.rawValue), \(seconds(user.locationExpiresAt)),
                        \(seconds(user.privateUntil)))
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, lat = excluded.lat, lon = excluded.lon,
                        visibility = excluded.visibility, token_sha256 = excluded.token_sha256,
                        precision = excluded.precision, location_expires_at = excluded.location_expires_at,
                        private_until = excluded.private_until
                    RETURNING \(unescaped: userColumns)
                    """, id: user.id, on: connection, logger: logger), nil
            )
        case .moveUser(let id, let location, let expiry):
            return (
                try await storedUser(
                    """
                    UPDATE vicinity_user SET lat = \(location?.latitude), lon = \(location?.longitude),
                        location_expires_at = \(seconds(location == nil ? nil : expiry))
                    WHERE id = \(id) RETURNING \(unescaped: userColumns)
                    """, id: id, on: connection, logger: logger), nil
            )
        case .setVisibility(let id, let visibility, let until):
            return (
                try await storedUser(
                    """
                    UPDATE vicinity_user SET visibility = \(visibility.rawValue),
                        private_until = \(seconds(visibility == .private ? until : nil))
                    WHERE id = \(id) RETURNING \(unescaped: userColumns)
                    """, id: id, on: connection, logger: logger), nil
            )
        case .setPrecision(let id, let precision):
            return (
                try await storedUser(
                    """
                    UPDATE vicinity_user SET precision = \(precision.rawValue)
                    WHERE id = \(id) RETURNING \(unescaped: userColumns)
                    """, id: id, on: connection, logger: logger), nil
            )
        case .forgetLocation(let id, let expiry):
            // A timer that another node ran first, or that a move overtook, changes nothing: the
            // record as it stands is the answer.
            try await lockUser(id, on: connection, logger: logger)
            return (
                try await storedUser(
                    """
                    WITH changed AS (
                        UPDATE vicinity_user SET lat = NULL, lon = NULL, location_expires_at = NULL
                        WHERE id = \(id) AND location_expires_at = \(seconds(expiry))
                        RETURNING \(unescaped: userColumns))
                    SELECT \(unescaped: userColumns) FROM changed
                    UNION ALL
                    SELECT \(unescaped: userColumns) FROM vicinity_user
                    WHERE id = \(id) AND NOT EXISTS (SELECT 1 FROM changed)
                    """, id: id, on: connection, logger: logger), nil
            )
        case .endPrivacy(let id, let until):
            try await lockUser(id, on: connection, logger: logger)
            return (
                try await storedUser(
                    """
                    WITH changed AS (
                        UPDATE vicinity_user SET visibility = 'public', private_until = NULL
                        WHERE id = \(id) AND visibility = 'private' AND private_until = \(seconds(until))
                        RETURNING \(unescaped: userColumns))
                    SELECT \(unescaped: userColumns) FROM changed
                    UNION ALL
                    SELECT \(unescaped: userColumns) FROM vicinity_user
                    WHERE id = \(id) AND NOT EXISTS (SELECT 1 FROM changed)
                    """, id: id, on: connection, logger: logger), nil
            )
        case .removeUser(let id):
            let rows = try await connection.query(
                "DELETE FROM vicinity_user WHERE id = \(id) RETURNING 1", logger: logger
            ).collect()
            guard !rows.isEmpty else { throw PlacesError.noSuchUser(id) }
            return (change, nil)
        case .setAdminToken(let digest):
            try await connection.query(
                """
                INSERT INTO vicinity_setting (key, value) VALUES (\(adminTokenKey), \(ByteBuffer(bytes: digest.bytes)))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, logger: logger)
            return (change, nil)
        }
    }

    /// Upserts places whose keys are distinct in one statement.
    ///
    /// - Returns: for each place, whether it replaced a stored one (see `store(_:on:logger:)`).
    static func upsert(_ places: [Place], on connection: PostgresConnection, logger: Logger) async throws -> [Bool?] {
        let rows = try await connection.query(
            """
            INSERT INTO vicinity_place (kind, id, name, lat, lon, attributes)
            SELECT * FROM unnest(\(places.map(\.kind))::text[], \(places.map(\.id))::text[],
                \(places.map(\.name))::text[], \(places.map(\.coordinate.latitude))::double precision[],
                \(places.map(\.coordinate.longitude))::double precision[],
                \(places.map(AttributeCoding.encode))::text[])
            ON CONFLICT (kind, id) DO UPDATE SET name = excluded.name, lat = excluded.lat,
                lon = excluded.lon, attributes = excluded.attributes
            RETURNING kind, id, xmax <> 0
            """, logger: logger)
        var replacedByKey: [StoredKey: Bool] = [:]
        for try await row in rows {
            let (kind, id, replaced) = try row.decode((String, String, Bool).self)
            replacedByKey[StoredKey(kind: kind, id: id)] = replaced
        }
        return places.map { replacedByKey[StoredKey(kind: $0.kind, id: $0.id)] }
    }

    /// The `vicinity_setting` key of the admin token's digest.
    static let adminTokenKey = "admin_token_sha256"

    /// Locks a user's row until the transaction ends, waiting for any other writer of it, so that
    /// the next statement (a snapshot of its own, at READ COMMITTED) reads the row as last
    /// committed. A conditional change needs it: in one statement, its `UPDATE` would see another
    /// node's just-committed run of the same timer but its fallback `SELECT` the row from before
    /// it, and answer — and log — the record that run had already changed.
    private static func lockUser(_ id: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT 1 FROM vicinity_user WHERE id = \(id) FOR UPDATE", logger: logger)
    }

    /// Runs a user statement with RETURNING and answers with the stored record.
    private static func storedUser(
        _ query: PostgresQuery, id: String, on connection: PostgresConnection, logger: Logger
    )
        async throws -> DirectoryChange
    {
        guard let row = try await connection.query(query, logger: logger).collect().first else {
            throw PlacesError.noSuchUser(id)
        }
        return try storedUser(row)
    }

    private static func storedUser(_ row: PostgresRow) throws -> DirectoryChange {
        let (user, digest) = try user(from: row)
        return .putUser(user, tokenDigest: digest)
    }

    /// A time as stored: whole seconds since 1970.
    static func seconds(_ date: Date?) -> Int64? { date.map { Int64($0.timeIntervalSince1970.rounded(.down)) } }

    /// A user record from a row of `userColumns`.
    static func user(from row: PostgresRow) throws -> (User, TokenDigest) {
        let (id, name, latitude, longitude, visibility, token, precision, expiry, until) = try row.decode(
            (String, String, Double?, Double?, String, ByteBuffer, String, Int64?, Int64?).self)
        var location: Coordinate?
        if let latitude, let longitude { location = try Coordinate(latitude: latitude, longitude: longitude) }
        guard let digest = TokenDigest(bytes: Array(token.readableBytesView)) else {
            throw PostgresStoreError.readFailed("a token digest that is not 32 bytes")
        }
        return (
            User(
                id: id, name: name, location: location, visibility: Visibility(rawValue: visibility) ?? .private,
                precision: LocationPrecision(rawValue: precision) ?? .stored,
                locationExpiresAt: expiry.map { Date(timeIntervalSince1970: Double($0)) },
                privateUntil: until.map { Date(timeIntervalSince1970: Double($0)) }),
            digest
        )
    }
}

/// A place's primary key in `vicinity_place`.
struct StoredKey: Hashable {
    var kind: String
    var id: String
}
