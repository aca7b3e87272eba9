import HTTPTypes
import Places

/// Every error the `HTTPAPI` module answers with. Each becomes an `application/problem+json`
/// response (RFC 9457) whose `detail` is `description`: one line naming the bad value and the
/// valid range, worded as the command line and the line protocol word it.
public enum HTTPAPIError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Where a bad parameter was found, as RFC 9457's `invalid_params` names it.
    public enum Location: String, Sendable, Equatable {
        case query, path, header, body
    }

    /// A query or path parameter that is not a number, out of range or not one of its values
    /// (400). `value` is the text as sent, or the decoded number as `NumberText` writes it.
    case invalidParameter(name: String, in: Location, noun: String, value: String, expected: String)
    /// A required query parameter that is absent (400).
    case missingParameter(name: String, expected: String)
    /// A parameter that is valid alone but not with another one, e.g. `crs` without
    /// `model=projected` (400).
    case conflictingParameter(name: String, detail: String)
    /// A JSON body field that breaks its schema or rules (422); `pointer` is its RFC 6901 JSON
    /// pointer, such as `/lat`.
    case invalidBody(pointer: String, detail: String, reason: String)
    /// A JSON body field whose value is not among its enum's (400, as a query parameter's would
    /// be): a closed vocabulary, named in the detail, not a rule the value breaks.
    case invalidBodyChoice(pointer: String, detail: String, reason: String)
    /// A body that is not JSON (400); the reason says where it stops being JSON.
    case malformedBody(String)
    /// A body over `limit` bytes (413): `bytes` from its `Content-Length`, nil when it was cut
    /// off as it streamed in.
    case bodyTooLarge(bytes: Int?, limit: Int)
    /// A body whose `Content-Type` is not `application/json` (415); nil when it names none.
    case unsupportedMediaType(String?)
    /// A write without a token (401): writes need one before anything else is checked.
    case missingToken
    /// An `Authorization` header that is not `Bearer <token>` (401).
    case malformedAuthorization
    /// What the `Places` façade refused: 401, 403, 404, 409, 422, 429 or 503 by case.
    case places(PlacesError)
    /// A request the generated code refused for another reason: 400, or the status the runtime
    /// chose (406 for an `Accept` that allows none of the operation's answers); the text is the
    /// runtime's description of the cause.
    case malformedRequest(status: HTTPResponse.Status, cause: String)
    /// A client over its request budget (429); it may try again after `retryAfterSeconds`.
    case tooManyRequests(client: String, retryAfterSeconds: Int)
    /// A connection beyond the server's limit of connections open at once (503).
    case tooManyConnections(limit: Int)
    /// A read sent with `Vicinity-Min-Position: position` that the server had not applied after
    /// waiting `waitedMilliseconds` (503): the write is on another node, or the database is out of
    /// reach. `applied` and `latest` are the server's positions when it gave up.
    case positionNotApplied(position: UInt64, waitedMilliseconds: Int, applied: UInt64, latest: UInt64)
    /// A request whose line and headers overflow the parser's limit of `limitBytes` (414).
    case requestTooLong(limitBytes: Int)
    /// A path that names no operation of the contract (404).
    case noSuchRoute(path: String)
    /// A path of the contract asked with a method it does not take (405); `allowed` are those it
    /// takes.
    case methodNotAllowed(method: String, path: String, allowed: [String])
    /// A failure that is the server's, not the request's (500); the detail names the operation
    /// only, never internals.
    case internalError(operation: String)

    public var description: String {
        switch self {
        case .invalidParameter(_, _, let noun, let value, let expected):
            return "invalid \(noun) \(HTTPAPIError.quoted(value)): expected \(expected)"
        case .missingParameter(let name, let expected):
            return "missing query parameter \(HTTPAPIError.quoted(name)): expected \(expected)"
        case .conflictingParameter(_, let detail):
            return detail
        case .invalidBody(_, let detail, _), .invalidBodyChoice(_, let detail, _):
            return detail
        case .malformedBody(let reason):
            return "the body is not valid JSON: \(reason)"
        case .bodyTooLarge(let bytes, let limit):
            return "the body is \(bytes.map { "\($0)" } ?? "over \(limit)") bytes: expected at most \(limit)"
        case .unsupportedMediaType(let type):
            return "the body is \(type ?? "of no stated type"): expected application/json"
        case .missingToken:
            return "this needs a token: send Authorization: Bearer <token>"
        case .malformedAuthorization:
            return "the Authorization header is not \"Bearer <token>\": send Authorization: Bearer <token>"
        case .places(let error):
            return error.description
        case .malformedRequest(_, let cause):
            return
                "the request does not match the API: \(cause.split(whereSeparator: \.isNewline).joined(separator: " "))"
        case .tooManyRequests(let client, let seconds):
            return "too many requests from \(client); retry in \(seconds) s"
        case .tooManyConnections(let limit):
            return "the server has its \(limit) connections open; retry in 1 s"
        case .positionNotApplied(let position, let waited, let applied, let latest):
            return "position \(position) was not applied within \(waited) ms (applied \(applied), latest \(latest)); "
                + "retry in 1 s, or send it to a server that has applied it"
        case .requestTooLong(let limit):
            return "the request line and headers are over \(limit / 1024) KiB: "
                + "expected a shorter URL and fewer header bytes"
        case .noSuchRoute(let path):
            return "no operation at \(HTTPAPIError.quoted(path)): see openapi.yaml for the paths served"
        case .methodNotAllowed(let method, let path, let allowed):
            return "\(method) is not an operation of \(HTTPAPIError.quoted(path)): "
                + "expected \(allowed.joined(separator: " or "))"
        case .internalError(let operation):
            return "the server failed to answer \(operation); this is a bug in the server, not in the request"
        }
    }

    /// `"text"` with quotes, backslashes and control characters escaped, cut to 80 characters
    /// (`PlacesError.quoted`: one wording for both modules).
    static func quoted(_ text: String) -> String { PlacesError.quoted(text) }
}
