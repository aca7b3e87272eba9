import Foundation
import Logging
import PlacesPostgres
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#endif

/// A database of a test's own on the server `$VICINITY_TEST_POSTGRES` names, created empty and
/// dropped by `drop()`.
struct TestDatabase: Sendable {
    /// The server's URL, when the PostgreSQL tests are to run.
    static let serverURL = ProcessInfo.processInfo.environment["VICINITY_TEST_POSTGRES"]
    static var enabled: Bool { serverURL != nil }

    /// The new database.
    let settings: PostgresSettings
    private let server: PostgresSettings

    /// Creates an empty database; with `migrated`, at this version's schema.
    static func create(migrated: Bool = true) async throws -> TestDatabase {
        let server = try PostgresSettings.parse(
            serverURL ?? "", passwordFile: nil, environment: ProcessInfo.processInfo.environment,
            urlFromCommandLine: false)
        let name = "vicinity_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withConnection(server) { connection in
            try await connection.query("CREATE DATABASE \(unescaped: name)", logger: quiet)
        }
        var settings = server
        settings.database = name
        let database = TestDatabase(settings: settings, server: server)
        if migrated { _ = try await onThread { [settings] in try PostgresPlaceStore.migrate(settings) } }
        return database
    }

    /// Drops the database, closing whatever is still connected to it.
    func drop() async {
        let name = settings.database
        _ = try? await Self.withConnection(server) { connection in
            try await connection.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)", logger: Self.quiet)
        }
    }

    /// Runs `body` on a connection of its own to the test database.
    @discardableResult
    func sql<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await Self.withConnection(settings, body)
    }

    /// Ends every other session on the test database (`pg_terminate_backend`), as an operator or a
    /// failover would.
    func terminateSessions() async throws {
        let name = settings.database
        try await Self.withConnection(server) { connection in
            try await connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)",
                logger: Self.quiet)
        }
    }

    static let quiet: Logger = {
        var logger = Logger(label: "test.postgres")
        logger.logLevel = .critical
        return logger
    }()

    @discardableResult
    static func withConnection<T: Sendable>(
        _ settings: PostgresSettings, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let configuration = PostgresConnection.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password,
            database: settings.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: quiet)
        do {
            let value = try await body(connection)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// Runs blocking work (a `PostgresPlaceStore` call) on a thread of its own, as the directory's
/// writer and follower threads call the store: never from a task of the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs a fault script named by an environment variable (`scripts/postgres-tests.sh` provides
/// them); false when there is none or it fails.
///
/// Through `system`, not `Process`: the resume script leaves a server running that inherits the
/// script's descriptors, and `Process.waitUntilExit` then never returned.
func runControlScript(_ variable: String) -> Bool {
    guard let path = ProcessInfo.processInfo.environment[variable] else { return false }
    return system("'\(path)' </dev/null >/dev/null 2>&1") == 0
}

/// Polls `condition` every 20 ms for up to `seconds`.
func eventually(_ seconds: Double = 10, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return try condition()
}
