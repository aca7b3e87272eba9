import Foundation
import Logging
import TestSupport
import Testing

@testable import HTTPAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request log of the HTTP API: one line per request with method, path, client, status and
/// duration, and never a token, whatever the log level.
@Suite(.timeLimit(.minutes(10))) struct RequestLogMiddlewareTests {
    static func request(_ method: String, _ url: URL, token: String? = nil, body: String? = nil) async throws -> (
        status: Int, body: String
    ) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (try #require(response as? HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    /// Must show (issue 14): the Authorization header's token, a token in a query string and the
    /// token `POST /v1/users` answers never reach the log, at the most talkative level.
    @Test func requestsAreLoggedAndNoTokenIs() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let capture = LogCapture()
        let server = HTTPServer(
            directory: fixture.api.directory, host: "127.0.0.1", port: 0, logger: capture.logger(level: .trace))
        let port = try await server.start()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        #expect(try await Self.request("GET", base.appendingPathComponent("healthz")).status == 200)
        let own = base.appendingPathComponent("v1/users/ayse")
        #expect(try await Self.request("GET", own, token: fixture.ayse).status == 200)
        #expect(try await Self.request("GET", own, token: APIFixture.strangerToken).status == 401)
        let query = try #require(URL(string: "v1/nearby?lat=41.08&lon=29.01&token=\(fixture.mehmet)", relativeTo: base))
        #expect(try await Self.request("GET", query).status == 200)
        let created = try await Self.request(
            "POST", base.appendingPathComponent("v1/users"), token: fixture.admin,
            body: #"{"id":"deniz","name":"Deniz"}"#)
        #expect(created.status == 201, "\(created.body)")
        let added = try #require(created.body.split(separator: "\"").first { $0.utf8.count == 43 }.map(String.init))
        await server.shutdown()
        let text = capture.text
        #expect(text.contains("info request duration_ms="), "\(text)")
        #expect(text.contains("method=GET path=/healthz peer=127.0.0.1:") && text.contains("status=200"), "\(text)")
        #expect(text.contains("path=/v1/users/") && !text.contains("ayse") && text.contains("status=401"), "\(text)")
        #expect(text.contains("method=POST path=/v1/users ") && text.contains("status=201"), "\(text)")
        #expect(!text.contains("lat=41.08"), "query strings are not logged")
        for token in [fixture.admin, fixture.ayse, fixture.mehmet, APIFixture.strangerToken, added] {
            #expect(!text.contains(token), "a token in the log: \(text)")
        }
    }
}
