import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Undoes the runtime's percent-encoding of the `Location` response header.
///
/// swift-openapi-runtime 1.13.4 writes every header declared in the contract as a URI-encoded
/// value, so the handler's `/v1/places/pharmacy/omur` left the server as
/// `%2Fv1%2Fplaces%2Fpharmacy%2Fomur` (apple/swift-openapi-generator#857, open). The handler
/// already percent-encodes each path segment itself (`new%2F1`), and the runtime's encoding is
/// one reversible level on top, so decoding once gives exactly the handler's value.
struct LocationHeaderMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        if let location = response.headerFields[.location], let decoded = location.removingPercentEncoding {
            response.headerFields[.location] = decoded
        }
        return (response, responseBody)
    }
}
