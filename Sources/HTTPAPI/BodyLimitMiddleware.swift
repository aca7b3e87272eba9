import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Refuses a request body that is not `application/json` (415) or is over `maximumBytes` (413)
/// on the operations that take one, without reading more than `maximumBytes` of it: from its
/// `Content-Length` when it states one, else by collecting at most that much as it streams in.
/// The generated code would otherwise collect a body of any size. A body that is not JSON is a 400
/// saying where it stops being JSON (`JSONSyntax`); a `null` anywhere in it is a 422 (see
/// `JSONNulls`).
struct BodyLimitMiddleware: ServerMiddleware {
    /// 256 KiB: a place with 32 attributes of 512 characters is under 80 KiB even in 4-byte UTF-8.
    static let defaultMaximumBytes = 262_144

    /// The operations with a JSON request body.
    static let operationsWithBody: Set<String> = [
        "putPlace", "registerUser", "moveUser", "setUserVisibility", "setUserPrecision",
    ]

    var maximumBytes = BodyLimitMiddleware.defaultMaximumBytes

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard BodyLimitMiddleware.operationsWithBody.contains(operationID) else {
            return try await next(request, body, metadata)
        }
        let type = request.headerFields[.contentType]
        guard let type, BodyLimitMiddleware.isJSON(type) else { throw HTTPAPIError.unsupportedMediaType(type) }
        guard let body else { return try await next(request, nil, metadata) }
        if case .known(let length) = body.length, length > maximumBytes {
            throw HTTPAPIError.bodyTooLarge(bytes: Int(length), limit: maximumBytes)
        }
        let bytes: ArraySlice<UInt8>
        do {
            bytes = try await ArraySlice(collecting: body, upTo: maximumBytes)
        } catch {
            throw HTTPAPIError.bodyTooLarge(bytes: nil, limit: maximumBytes)
        }
        if let fault = JSONSyntax.firstFault(in: bytes) { throw HTTPAPIError.malformedBody(fault.description) }
        if let pointer = JSONNulls.firstPointer(in: bytes) {
            throw HTTPAPIError.invalidBody(
                pointer: pointer, detail: "invalid value null at \(pointer): leave the field out instead",
                reason: "null is not a value here: leave the field out")
        }
        return try await next(request, HTTPBody(bytes), metadata)
    }

    /// `application/json`, in any letter case, with or without parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return media.lowercased() == "application/json"
    }
}
