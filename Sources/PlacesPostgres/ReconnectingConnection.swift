import Foundation
import Logging
import NIOCore
import Places
import PostgresNIO
import Synchronization

/// One PostgreSQL connection that is put back whenever it is lost: the moment the server closes
/// it (stopped, restarted, `pg_terminate_backend`) a background task reconnects, waiting 0.1 s
/// after the first failure and twice as long after each next one, up to 5 s.
///
/// While it is down, `lease` throws `PlacesError.storeUnavailable` at once, so that a write is
/// refused in microseconds instead of waiting for a connect timeout. Only one caller uses the
/// connection at a time (`lease` holds a lock for the length of the body): a PostgreSQL session
/// runs one transaction at a time.
final class ReconnectingConnection: Sendable {
    /// What the connection is for, in log lines ("writer", "reader").
    let role: String
    let settings: PostgresSettings
    let logger: Logger
    /// Called on every new connection before it is used (a `SET`, a `LISTEN`).
    private let prepare: @Sendable (PostgresConnection) async throws -> Void

    private struct State {
        var connection: PostgresConnection?
        /// Fires when `connection` closes.
        var loss = LossSignal()
        /// Why there is none.
        var reason = "not connected yet"
        var reconnecting = false
        var closed = false
    }

    private let state = Mutex(State())
    /// Held by whoever runs statements on the connection.
    private let inUse = NSLock()

    /// The first wait before reconnecting, and the longest, in seconds.
    static let firstBackoff = 0.1
    static let longestBackoff = 5.0

    init(
        role: String, settings: PostgresSettings, logger: Logger,
        prepare: @escaping @Sendable (PostgresConnection) async throws -> Void = { _ in }
    ) {
        self.role = role
        self.settings = settings
        self.logger = logger
        self.prepare = prepare
    }

    /// Connects now (the first time), without retrying.
    ///
    /// - Throws: `PostgresStoreError.cannotConnect` with the server's reason.
    func connect() async throws(PostgresStoreError) {
        let connection: PostgresConnection
        do {
            connection = try await Self.open(settings, logger: logger)
            try await prepare(connection)
        } catch {
            throw .cannotConnect(database: settings.description, reason: PostgresFailure.reason(of: error))
        }
        adopt(connection)
    }

    /// Runs `body` on the connection, alone.
    ///
    /// - Parameter timeout: seconds after which the connection is closed, failing `body`: a
    ///   server that stopped answering without closing the connection (a network partition, a
    ///   frozen host) then costs one timeout, not a hang. Nil for work that may take long.
    ///
    /// - Throws: `PlacesError.storeUnavailable` at once while there is no connection, and soon
    ///   after it closes under `body`; what `body` throws otherwise. A body that fails because the
    ///   connection broke marks it lost (and starts reconnecting).
    @discardableResult
    func lease<T: Sendable>(
        timeout: Double? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) throws -> T {
        inUse.lock()
        defer { inUse.unlock() }
        let (connection, loss) = try current()
        do {
            return try blocking(
                timeout: timeout, onTimeout: { connection.close().whenComplete { _ in } }, lost: loss
            ) {
                try await body(connection)
            }
        } catch {
            if PostgresFailure.isConnectionLoss(error) || connection.isClosed {
                lost(connection, reason: PostgresFailure.reason(of: error))
            }
            throw error
        }
    }

    /// The connection, or `storeUnavailable` when there is none.
    private func current() throws(PlacesError) -> (PostgresConnection, LossSignal) {
        let (connection, loss, reason) = state.withLock { state in (state.connection, state.loss, state.reason) }
        if let connection, !connection.isClosed { return (connection, loss) }
        if let connection { lost(connection, reason: "the connection was closed") }
        throw .storeUnavailable(
            "\(settings): the \(role) connection is down (\(reason)), nothing was sent; reconnecting")
    }

    /// Closes the connection and stops reconnecting.
    func close() {
        let connection = state.withLock { state -> PostgresConnection? in
            state.closed = true
            defer { state.connection = nil }
            return state.connection
        }
        connection?.close().whenComplete { _ in }
    }

    private func adopt(_ connection: PostgresConnection) {
        let loss = LossSignal()
        let keep = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.connection = connection
            state.loss = loss
            return true
        }
        guard keep else {
            connection.close().whenComplete { _ in }
            return
        }
        connection.closeFuture.whenComplete { [self] _ in
            loss.fire()
            lost(connection, reason: "the server closed the connection")
        }
    }

    /// Forgets `connection` (when it is still the current one) and starts reconnecting.
    private func lost(_ connection: PostgresConnection, reason: String) {
        let start = state.withLock { state -> Bool in
            guard state.connection === connection else { return false }
            state.connection = nil
            state.reason = reason
            guard !state.reconnecting, !state.closed else { return false }
            state.reconnecting = true
            return true
        }
        if !connection.isClosed { connection.close().whenComplete { _ in } }
        guard start else { return }
        logger.warning(
            "PostgreSQL \(role) connection lost; reconnecting",
            metadata: ["database": "\(settings)", "reason": "\(reason)"])
        Task { await reconnect() }
    }

    private func reconnect() async {
        var backoff = Self.firstBackoff
        while !state.withLock({ $0.closed }) {
            try? await Task.sleep(nanoseconds: UInt64(backoff * 1e9))
            do {
                let connection = try await Self.open(settings, logger: logger)
                do {
                    try await prepare(connection)
                } catch {
                    try? await connection.close()
                    throw error
                }
                state.withLock { $0.reconnecting = false }
                adopt(connection)
                logger.notice("PostgreSQL \(role) connection is back", metadata: ["database": "\(settings)"])
                return
            } catch {
                state.withLock { $0.reason = PostgresFailure.reason(of: error) }
                backoff = min(backoff * 2, Self.longestBackoff)
            }
        }
        state.withLock { $0.reconnecting = false }
    }

    /// A new connection; fails after 5 s without an answer.
    static func open(_ settings: PostgresSettings, logger: Logger) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password,
            database: settings.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        // Names the process in pg_stat_activity: an operator (or a fault test) can tell the nodes
        // apart and end one node's sessions with pg_terminate_backend.
        // A session left inside a transaction (its node partitioned away between taking log
        // positions and committing) is ended by the server after a minute, releasing the log's head
        // row for every other node.
        configuration.options.additionalStartupParameters = [
            ("application_name", "vicinity-\(getpid())"), ("idle_in_transaction_session_timeout", "60s"),
        ]
        return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
    }
}
