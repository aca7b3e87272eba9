import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Puts right two response headers as swift-openapi-runtime 1.13.4 writes them.
///
/// - `Location`: the runtime writes every header declared in the contract as a URI-encoded value,
///   so the handler's `/v1/places/pharmacy/omur` left the server as
///   `%2Fv1%2Fplaces%2Fpharmacy%2Fomur` (apple/swift-openapi-generator#857, open). The handler
///   already percent-encodes each path segment itself (`new%2F1`) and the runtime's encoding is
///   one reversible level on top, so decoding once gives exactly the handler's value.
/// - `Content-Type: text/plain` (the map, the metrics) gets `charset=utf-8`: the map draws with
///   box-drawing characters, and a `text/plain` without a charset may be read as ISO-8859-1. The
///   metrics also get `version=0.0.4`, the Prometheus text format's media type.
struct ResponseHeaderMiddleware: ServerMiddleware {
    static let prometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        if let location = response.headerFields[.location], let decoded = location.removingPercentEncoding {
            response.headerFields[.location] = decoded
        }
        if response.headerFields[.contentType] == "text/plain" {
            response.headerFields[.contentType] =
                operationID == "getMetrics"
                ? ResponseHeaderMiddleware.prometheusContentType : "text/plain; charset=utf-8"
        }
        return (response, responseBody)
    }
}
