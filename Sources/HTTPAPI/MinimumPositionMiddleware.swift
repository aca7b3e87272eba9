import HTTPTypes
import OpenAPIRuntime
import Places

/// Read-your-writes: a read sent with `Vicinity-Min-Position: N` is answered only once this
/// server has applied the change log up to N, so that it sees a write stored at N by this server
/// or by another one on the same database.
///
/// It waits on `DurableDirectory.waitUntilApplied` (a continuation, never a blocked event loop)
/// for up to `Vicinity-Wait-Ms` milliseconds, then answers 503 with `Retry-After: 1`
/// (`HTTPAPIError.positionNotApplied`). The headers are declared on each read operation of
/// openapi.yaml so that generated clients can send them; the generated handlers ignore them.
struct MinimumPositionMiddleware: ServerMiddleware {
    let directory: DurableDirectory

    /// The operations that read the directory, by operation id (`measureDistance` reads none); a
    /// watch waits before its snapshot is taken.
    static let readOperations: Set<String> = [
        "findNearby", "findNearbyGeoJSON", "findNearest", "findNearestGeoJSON", "getPlace", "getUser",
        "findNearbyUsers", "renderMap", "watchNearby", "watchNearbyUsers",
    ]

    static let minimumPositionField = HTTPField.Name("Vicinity-Min-Position")!
    static let waitField = HTTPField.Name("Vicinity-Wait-Ms")!
    /// The largest position a client can send: the contract's `int64`.
    static let maximumPosition = UInt64(Int64.max)
    /// `Vicinity-Wait-Ms` without the header, and at most (milliseconds): long enough for a
    /// follower woken by the database to apply a write, short enough for a client to try
    /// another node.
    static let defaultWaitMilliseconds = 5_000
    static let maximumWaitMilliseconds = 60_000

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard MinimumPositionMiddleware.readOperations.contains(operationID) else {
            return try await next(request, body, metadata)
        }
        let (position, waitMilliseconds) = try MinimumPositionMiddleware.wanted(in: request.headerFields)
        if let position, directory.appliedPosition < position {
            let applied = await directory.waitUntilApplied(position, timeout: Double(waitMilliseconds) / 1_000)
            if !applied {
                let status = directory.replication
                throw HTTPAPIError.positionNotApplied(
                    position: position, waitedMilliseconds: waitMilliseconds, applied: status.applied,
                    latest: max(status.latest, status.applied))
            }
        }
        return try await next(request, body, metadata)
    }

    /// The position asked for (nil without the header) and how long to wait for it.
    ///
    /// - Throws: `.invalidParameter` naming the header, its text and the valid range, for text
    ///   that is not a whole number in range (a header sent twice arrives joined by a comma, and
    ///   is refused too).
    static func wanted(in fields: HTTPFields) throws(HTTPAPIError) -> (position: UInt64?, waitMilliseconds: Int) {
        var position: UInt64?
        if let text = fields[minimumPositionField] {
            guard let value = wholeNumber(text), value <= maximumPosition else {
                throw .invalidParameter(
                    name: minimumPositionField.rawName, in: .header, noun: "minimum position", value: text,
                    expected: "a whole number from 0 to \(maximumPosition)")
            }
            position = value
        }
        var wait = defaultWaitMilliseconds
        if let text = fields[waitField] {
            guard let value = wholeNumber(text), value <= UInt64(maximumWaitMilliseconds) else {
                throw .invalidParameter(
                    name: waitField.rawName, in: .header, noun: "wait", value: text,
                    expected: "a whole number of milliseconds from 0 to \(maximumWaitMilliseconds)")
            }
            wait = Int(value)
        }
        return (position, wait)
    }

    /// Decimal digits only (no sign, no blanks), as the contract's integers are written; nil
    /// otherwise or beyond `UInt64`.
    private static func wholeNumber(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(text)
    }
}
