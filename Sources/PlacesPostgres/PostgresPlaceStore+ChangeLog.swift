import Foundation
import Logging
import Places
import PostgresNIO

/// The change log on PostgreSQL: `vicinity_change_log` holds each change's `ChangeCoding` text
/// under its position, with the last position of its transaction (`tx_end`), and the one row of
/// `vicinity_log_head` the newest position (see `PostgresPlaceStore` for why it is gap-free).
extension PostgresPlaceStore {
    /// The `pg_advisory_lock` key under which the unsafe mode takes a block of numbers ("VCNS").
    static let unsafeNumbersLockKey: Int64 = 0x5643_4E53

    /// Appends changes (`ChangeCoding` text) to the log under the next positions, and notifies
    /// the listeners, inside the caller's write transaction. Runs last before `COMMIT`: from here
    /// on the transaction holds the head row's lock.
    ///
    /// - Returns: the position of the last one (the head as it was, for none).
    static func appendToLog(_ texts: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> LogPosition
    {
        guard !texts.isEmpty else { return try await fetchHead(on: connection, logger: logger).position }
        let (end, committedAt) = try await advanceHead(by: texts.count, on: connection, logger: logger)
        try await insertLog(
            texts, first: end - Int64(texts.count) + 1, end: end, at: committedAt, on: connection,
            logger: logger)
        return LogPosition(end)
    }

    /// Takes `count` positions from the head: the last one and the database clock's time.
    static func advanceHead(by count: Int, on connection: PostgresConnection, logger: Logger) async throws
        -> (end: Int64, committedAt: Double)
    {
        guard
            let row = try await connection.query(
                """
                UPDATE vicinity_log_head
                SET position = position + \(Int64(count)),
                    committed_at = extract(epoch FROM clock_timestamp())::double precision
                RETURNING position, committed_at
                """, logger: logger
            ).collect().first
        else { throw PostgresStoreError.readFailed("the change log has no head row") }
        return try row.decode((Int64, Double).self)
    }

    /// Inserts log rows `first...end` and notifies `end`.
    static func insertLog(
        _ texts: [String], first: Int64, end: Int64, at committedAt: Double, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO vicinity_change_log (position, tx_end, committed_at, change)
            SELECT \(first) + number - 1, \(end), \(committedAt), change
            FROM unnest(\(texts)::text[]) WITH ORDINALITY AS entry(change, number)
            """, logger: logger)
        try await notify(end, on: connection, logger: logger)
    }

    /// Sends the wake-up for position `end`; PostgreSQL delivers it when the transaction commits.
    static func notify(_ end: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_notify(\(ChangeListener.channel), \(String(end)))", logger: logger)
    }

    /// The unsafe mode's numbers: `count` consecutive values of a sequence, taken at the start of
    /// the transaction and outside its locks.
    static func takeUnsafeNumbers(_ count: Int, on connection: PostgresConnection, logger: Logger) async throws
        -> (first: Int64, end: Int64)
    {
        try await connection.query("SELECT pg_advisory_lock(\(unsafeNumbersLockKey))", logger: logger)
        do {
            let first =
                try await connection.query(
                    "SELECT nextval('vicinity_log_unsafe_sequence')", logger: logger
                ).collect().first?.decode(Int64.self) ?? 0
            let end = first + Int64(count) - 1
            if count > 1 {
                try await connection.query("SELECT setval('vicinity_log_unsafe_sequence', \(end))", logger: logger)
            }
            try await connection.query("SELECT pg_advisory_unlock(\(unsafeNumbersLockKey))", logger: logger)
            return (first, end)
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(unsafeNumbersLockKey))", logger: logger)
            throw error
        }
    }

    /// The unsafe mode's log rows under numbers taken earlier; the head only moves up to them.
    static func appendUnsafe(
        _ texts: [String], numbers: (first: Int64, end: Int64), on connection: PostgresConnection, logger: Logger
    ) async throws -> LogPosition {
        guard
            let row = try await connection.query(
                """
                UPDATE vicinity_log_head
                SET position = greatest(position, \(numbers.end)),
                    committed_at = extract(epoch FROM clock_timestamp())::double precision
                RETURNING committed_at
                """, logger: logger
            ).collect().first
        else { throw PostgresStoreError.readFailed("the change log has no head row") }
        let committedAt = try row.decode(Double.self)
        try await insertLog(
            texts, first: numbers.first, end: numbers.end, at: committedAt, on: connection,
            logger: logger)
        return LogPosition(numbers.end)
    }

    static func fetchHead(on connection: PostgresConnection, logger: Logger) async throws -> LogHead {
        guard
            let row = try await connection.query(
                "SELECT position, committed_at FROM vicinity_log_head", logger: logger
            ).collect().first
        else { throw PostgresStoreError.readFailed("the change log has no head row") }
        let (position, committedAt) = try row.decode((Int64, Double?).self)
        return LogHead(position: LogPosition(position), committedAt: committedAt)
    }

    /// Seconds a read of the head may take: one row, so anything longer is a server gone quiet,
    /// and the follower should reconnect rather than wait a commit's minute.
    static let headTimeout = 10.0
    /// Seconds a read of the log may take: a whole large transaction (an import) is read at once.
    static let logReadTimeout = 30.0
    /// Seconds a snapshot may take: every place and user, so generous, but a server gone quiet
    /// must not hold the directory's followers and writers for good.
    static let snapshotTimeout = 600.0

    public func head() throws -> LogHead {
        let logger = self.logger
        return try read(timeout: min(answerTimeout, Self.headTimeout)) { connection in
            try await Self.fetchHead(on: connection, logger: logger)
        }
    }

    /// In the broken numbering mode the log is tailed naively (`PlaceStore.tailsNaively`).
    public var tailsNaively: Bool {
        if case .unsafeSequence = sequencing { return true }
        return false
    }

    public func changes(after position: LogPosition, limit: Int) throws -> LogRead {
        let logger = self.logger
        let naively = tailsNaively
        return try read(timeout: min(answerTimeout, Self.logReadTimeout)) { connection in
            let head = try await Self.fetchHead(on: connection, logger: logger).position
            guard head > position else { return .changes([]) }
            var entries = try await Self.fetchLog(
                "position > \(Int64(position)) ORDER BY position LIMIT \(Int64(max(1, limit)))", on: connection,
                logger: logger)
            let naive = naively
            guard let first = entries.first, first.entry.position == position + 1 || naive else {
                return .trimmed(oldestKept: entries.first?.entry.position ?? head + 1)
            }
            // Never half a transaction: read on to the end of the last one.
            if let last = entries.last, last.transactionEnd > last.entry.position {
                entries += try await Self.fetchLog(
                    """
                    position > \(Int64(last.entry.position)) AND position <= \(Int64(last.transactionEnd))
                    ORDER BY position
                    """, on: connection, logger: logger)
            }
            return .changes(entries.map(\.entry))
        }
    }

    private static func fetchLog(_ condition: PostgresQuery, on connection: PostgresConnection, logger: Logger)
        async throws -> [(entry: LoggedChange, transactionEnd: LogPosition)]
    {
        var query: PostgresQuery = "SELECT position, tx_end, committed_at, change FROM vicinity_change_log WHERE "
        query.sql += condition.sql
        query.binds = condition.binds
        var entries: [(entry: LoggedChange, transactionEnd: LogPosition)] = []
        for try await row in try await connection.query(query, logger: logger) {
            let (position, end, committedAt, text) = try row.decode((Int64, Int64, Double, String).self)
            let change = try ChangeCoding.decode(text)
            entries.append(
                (
                    LoggedChange(position: LogPosition(position), change: change, committedAt: committedAt),
                    LogPosition(end)
                ))
        }
        return entries
    }

    /// Waits on the LISTEN connection for a commit after `position`; returns at once after that
    /// connection was re-established (notifications sent while it was down are lost).
    public func waitForChanges(after position: LogPosition, timeout: Double) {
        listener.wait(after: position, timeout: timeout)
    }

    /// Deletes the entries both more than `retention.changes` behind the head and older than
    /// `retention.seconds` by the database's clock.
    public func trimLog(keeping retention: LogRetention) throws -> Int {
        let logger = self.logger
        return try read(timeout: answerTimeout) { connection in
            let row = try await connection.query(
                """
                WITH deleted AS (
                    DELETE FROM vicinity_change_log
                    WHERE position <= (SELECT position FROM vicinity_log_head) - \(Int64(clamping: retention.changes))
                        AND committed_at < extract(epoch FROM clock_timestamp())::double precision
                            - \(retention.seconds)
                    RETURNING 1
                )
                SELECT count(*) FROM deleted
                """, logger: logger
            ).collect().first
            return Int(try row?.decode(Int64.self) ?? 0)
        }
    }

    /// Runs `body` on the reader connection.
    ///
    /// - Parameter timeout: as for `ReconnectingConnection.lease`; nil for a snapshot or a full
    ///   listing, which may take long.
    ///
    /// - Throws: `PlacesError.storeUnavailable` while the database cannot be reached,
    ///   `PostgresStoreError.readFailed` for a read that failed otherwise.
    func read<T: Sendable>(
        timeout: Double? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) throws -> T {
        do {
            return try reader.lease(timeout: timeout, body)
        } catch let error as PlacesError {
            throw error
        } catch let error as PostgresStoreError {
            throw error
        } catch  where PostgresFailure.isConnectionLoss(error) {
            throw PlacesError.storeUnavailable("\(settings): \(PostgresFailure.reason(of: error))")
        } catch {
            throw PostgresStoreError.readFailed(PostgresFailure.reason(of: error))
        }
    }
}
