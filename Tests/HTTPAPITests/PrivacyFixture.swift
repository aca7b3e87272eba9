import Foundation
import Geo
import HTTPTypes
import OpenAPIRuntime
import Places
import Synchronization
import TestSupport

@testable import HTTPAPI

/// The handler, with the server's middlewares, over a directory that applies the shipped privacy
/// rules (new users at `street`, locations forgotten after 12 hours) on an injected clock: one
/// pharmacy, `kerem` (public, at `keremAt`, at `precision`), `ozan` (public, no location: another
/// user) and `gizem` (private, no location). Call `close()` at the end.
struct PrivacyFixture {
    /// A clock the test sets: the directory's `PrivacySettings.now`.
    final class TestClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_795_000_000))  // 2026-11-18T11:06:40Z
        var now: Date { time.withLock { $0 } }
        func advance(seconds: Double) { time.withLock { $0 += seconds } }
    }

    /// Where the queries are asked from: the original app's "your location" in Levent, Istanbul.
    static let here = (lat: 41.088154, lon: 29.015615)
    /// The centre of a `street` cell about 850 m north-east of `here`.
    static let cellCentre = LocationPrecision.street.published(try! Coordinate(latitude: 41.0950, longitude: 29.0200))
    /// Two positions well inside that cell (about 20 to 35 m from its centre, the cell being
    /// about 100 m on a side).
    static let insideCell = [
        try! Coordinate(latitude: cellCentre.latitude + 0.0002, longitude: cellCentre.longitude + 0.0003),
        try! Coordinate(latitude: cellCentre.latitude - 0.0003, longitude: cellCentre.longitude - 0.0002),
    ]

    let api: VicinityAPI
    let transport: RecordingTransport
    let clock: TestClock
    let admin: String
    let kerem: String
    let ozan: String
    let gizem: String

    /// - Parameters:
    ///   - precision: kerem's; nil leaves it to the directory's default (`street`).
    ///   - userQueryLimit: the budget of queries about users.
    init(precision: LocationPrecision? = nil, userQueryLimit: UserQueryLimit = .unlimited) async throws {
        var catalog = try PlaceCatalog()
        try catalog.upsert(
            Place(
                id: "omur", kind: "pharmacy", name: "Omur",
                coordinate: try Coordinate(latitude: 41.087853, longitude: 29.014096)))
        var directory = PlaceDirectory(places: catalog)
        let clock = TestClock()
        directory.privacy = PrivacySettings(
            defaultPrecision: .street, locationTTLSeconds: 43_200, now: { clock.now })
        admin = directory.rotateAdminToken()
        let durable = DurableDirectory(directory, store: MemoryStore())
        api = VicinityAPI(directory: durable, userQueryLimit: userQueryLimit)
        transport = RecordingTransport()
        try api.registerHandlers(
            on: transport, configuration: HTTPServer.configuration, middlewares: HTTPServer.middlewares(for: api))
        self.clock = clock
        func add(_ user: User) async throws -> String { try await durable.perform(.addUser(user), by: .admin) ?? "" }
        kerem = try await add(
            User(id: "kerem", name: "Kerem", location: Self.insideCell[0], precision: precision))
        ozan = try await add(User(id: "ozan", name: "Ozan"))
        gizem = try await add(User(id: "gizem", name: "Gizem", visibility: .private))
    }

    func close() { api.directory.close() }

    /// Sends a request through the generated server and the middlewares, with `token` (nil: none)
    /// and a JSON `body`.
    func send(
        _ token: String?, _ method: HTTPRequest.Method, _ target: String, body: String? = nil
    ) async throws -> RecordingTransport.Reply {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        return try await transport.send(method, target, headers: headers, body: body.map { HTTPBody($0) })
    }

    /// A GET of `target` with `token` (nil: none).
    func send(_ token: String?, _ target: String) async throws -> RecordingTransport.Reply {
        try await send(token, .get, target)
    }

    /// Runs `body` as a request presenting `token` (nil: none), calling the handler directly.
    func callAs<T>(_ token: String?, _ body: () async throws -> T) async throws -> T {
        try await RequestToken.$current.withValue(token) { try await body() }
    }

    /// Moves kerem as the admin.
    func moveKerem(to location: Coordinate) async throws {
        _ = try await api.directory.perform(.moveUser("kerem", to: location), by: .admin)
    }
}
