import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers the generated routes on a Hummingbird router and in a `RouteTable` (a GET route
/// with its HEAD).
struct TableRecordingTransport: ServerTransport {
    let router: Router<VicinityRequestContext>
    let table: RouteTable

    func register(
        _ handler:
            @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                HTTPResponse, HTTPBody?
            ),
        method: HTTPRequest.Method, path: String
    ) throws {
        table.record(method, path: path)
        // The router answers HEAD for every GET (`autoGenerateHeadEndpoints`).
        if method == .get { table.record(.head, path: path) }
        router.register(handler, method: method, path: path)
    }
}
