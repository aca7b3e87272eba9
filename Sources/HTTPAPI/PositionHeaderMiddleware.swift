import HTTPTypes
import OpenAPIRuntime
import Places

/// Gives every answer a `Vicinity-Position`: a write's own (set by its handler: the position it
/// was stored at), else the position this server has applied when it answers, so that a client
/// can chain reads across servers with `Vicinity-Min-Position`. Outside `ProblemMiddleware`, so
/// that problem documents carry it too.
struct PositionHeaderMiddleware: ServerMiddleware {
    let directory: DurableDirectory

    static let positionField = HTTPField.Name("Vicinity-Position")!

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        if response.headerFields[PositionHeaderMiddleware.positionField] == nil {
            response.headerFields[PositionHeaderMiddleware.positionField] = String(directory.appliedPosition)
        }
        return (response, responseBody)
    }
}
