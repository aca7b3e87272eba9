import Foundation
import Geo
import HTTPAPI
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import Places
import TestSupport
import Testing

/// A real `HTTPServer` on a loopback port over the original app's three Istanbul example
/// pharmacies, and generated clients for it: one without a token, one with the admin's, and
/// `client(token:)` for any other.
struct ServerFixture {
    /// The original app's "your location" in Levent, Istanbul.
    static let here = (lat: 41.088154, lon: 29.015615)

    let server: HTTPServer
    let serverURL: URL
    let admin: String

    /// Runs `body` with a server started for it, and stops the server after it.
    static func run(_ body: (ServerFixture) async throws -> Void) async throws {
        var catalog = try PlaceCatalog()
        for (id, name, lat, lon) in [
            ("omur", "Omur", 41.087853, 29.014096), ("emre", "Emre", 41.086059, 29.008232),
            ("arzu", "Arzu", 41.086854, 29.007683),
        ] {
            try catalog.upsert(
                Place(id: id, kind: "pharmacy", name: name, coordinate: try Coordinate(latitude: lat, longitude: lon)))
        }
        var directory = PlaceDirectory(places: catalog)
        let admin = directory.rotateAdminToken()
        let durable = DurableDirectory(directory, store: MemoryStore())
        let server = HTTPServer(directory: durable, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let fixture = ServerFixture(server: server, serverURL: url, admin: admin)
        do {
            try await body(fixture)
        } catch {
            await server.shutdown()
            durable.close()
            throw error
        }
        await server.shutdown()
        durable.close()
    }

    /// A generated client that sends `token` (nil: none) as `Authorization: Bearer`, `headers`,
    /// and, when given, `body` in place of the JSON the typed input encodes (for what a typed
    /// client cannot send: a wrong enum value, malformed JSON).
    func client(token: String? = nil, replacingBodyWith body: String? = nil, headers: HTTPFields = [:]) -> Client {
        var middlewares: [any ClientMiddleware] = []
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        if !fields.isEmpty { middlewares.append(HeaderFieldsClientMiddleware(fields: fields)) }
        if let body { middlewares.append(BodyReplacementMiddleware(text: body)) }
        return Client(serverURL: serverURL, transport: URLSessionTransport(), middlewares: middlewares)
    }
}

/// Adds header fields to every request, as an app's middleware would: the token, and those the
/// contract describes but does not declare on operations (the read-your-writes headers).
struct HeaderFieldsClientMiddleware: ClientMiddleware {
    let fields: HTTPFields

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields.append(contentsOf: fields)
        return try await next(request, body, baseURL)
    }
}

/// Replaces the request's body with `text`, keeping its content type.
struct BodyReplacementMiddleware: ClientMiddleware {
    let text: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.contentLength] = String(text.utf8.count)
        return try await next(request, HTTPBody(text), baseURL)
    }
}
