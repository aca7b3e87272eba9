import Geo
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Writes the JSON answers of `findNearby` and `findNearest` with `JSONText` instead of the
/// generated encoder (`JSONEncoder`), which cost 62 % of the server's time for lists of a few
/// hundred places.
///
/// The operation runs as usual, through the generated decoding, every middleware's checks and the
/// handler; only the encoding of a successful JSON list changes. The handler sees `slot` set
/// while this middleware runs: it writes its `HitList` into it, and hands the generated code the
/// same document with an empty `results` list to encode. This middleware then sends the slot's
/// bytes instead of that encoding. GeoJSON answers and errors are encoded as before.
/// `HitsJSONTests` checks that the bytes are the generated encoder's.
struct HitsJSONMiddleware: ServerMiddleware {
    /// Where the handler leaves the bytes of its answer.
    final class Slot: Sendable {
        let bytes = Mutex<[UInt8]?>(nil)
    }

    /// Set for the operations this middleware writes.
    @TaskLocal static var slot: Slot?

    static let operations: Set<String> = ["findNearby", "findNearest"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operations.contains(operationID) else { return try await next(request, body, metadata) }
        let slot = Slot()
        var (response, responseBody) = try await Self.$slot.withValue(slot) { try await next(request, body, metadata) }
        if let bytes = slot.bytes.withLock({ $0 }) {
            response.headerFields[.contentLength] = nil
            responseBody = HTTPBody(bytes)
        }
        return (response, responseBody)
    }

    /// Gives the handler's answer to the middleware when it runs: true when the middleware will
    /// send `bytes`, so that the handler may return the document without its list.
    static func handOver(_ bytes: @autoclosure () -> [UInt8]) -> Bool {
        guard let slot else { return false }
        let text = bytes()
        slot.bytes.withLock { $0 = text }
        return true
    }
}
