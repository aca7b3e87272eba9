import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

@testable import HTTPAPI

/// A `ServerTransport` without a socket: it keeps the routes the generated code registers and
/// sends requests to them, so that tests run the generated decoding, the middlewares and the
/// problem documents exactly as a server would.
final class RecordingTransport: ServerTransport, Sendable {
    typealias Handler =
        @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
            HTTPResponse, HTTPBody?
        )

    private let routes = Mutex<[(method: HTTPRequest.Method, template: [Substring], handler: Handler)]>([])

    func register(_ handler: @escaping Handler, method: HTTPRequest.Method, path: String) throws {
        routes.withLock { $0.append((method, path.split(separator: "/"), handler)) }
    }

    /// What a client receives: status, headers and the body as text.
    struct Reply {
        var response: HTTPResponse
        var body: String

        var status: Int { response.status.code }
        /// The body parsed as a JSON object (a problem document, a result).
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
        var detail: String? { json["detail"] as? String }
    }

    /// Sends a request to the route matching `target` (path and query); a literal segment wins
    /// over a `{parameter}`, as in Hummingbird's router.
    func send(
        _ method: HTTPRequest.Method, _ target: String, headers: HTTPFields = [:], body: HTTPBody? = nil
    ) async throws -> Reply {
        let path = target.split(separator: "?", maxSplits: 1).first ?? ""
        let segments = path.split(separator: "/")
        let candidates = routes.withLock { routes in
            routes.filter { $0.method == method && $0.template.count == segments.count }
        }
        var best: (handler: Handler, parameters: [String: Substring], literals: Int)?
        for route in candidates {
            var parameters: [String: Substring] = [:]
            var literals = 0
            var matches = true
            for (pattern, segment) in zip(route.template, segments) {
                if pattern.hasPrefix("{") {
                    parameters[String(pattern.dropFirst().dropLast())] = segment
                } else if pattern == segment {
                    literals += 1
                } else {
                    matches = false
                }
            }
            if matches, literals > best?.literals ?? -1 { best = (route.handler, parameters, literals) }
        }
        guard let best else { return Reply(response: HTTPResponse(status: .notFound), body: "") }
        let request = HTTPRequest(
            method: method, scheme: "http", authority: "127.0.0.1", path: target, headerFields: headers)
        let (response, responseBody) = try await best.handler(
            request, body, ServerRequestMetadata(pathParameters: best.parameters))
        var text = ""
        if let responseBody { text = try await String(collecting: responseBody, upTo: 1 << 24) }
        return Reply(response: response, body: text)
    }

    /// The fixture's handler with the server's middlewares on a new transport.
    static func serving(_ fixture: APIFixture) throws -> RecordingTransport {
        let transport = RecordingTransport()
        try fixture.api.registerHandlers(
            on: transport, configuration: HTTPServer.configuration,
            middlewares: HTTPServer.middlewares(for: fixture.api))
        return transport
    }
}
