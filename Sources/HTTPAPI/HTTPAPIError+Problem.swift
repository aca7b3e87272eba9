import Foundation
import HTTPTypes
import OpenAPIRuntime
import Places

/// How an error becomes a response: the status, an RFC 9457 problem document as
/// `application/problem+json`, and the headers the status asks for (`WWW-Authenticate` on 401).
///
/// The runtime carries these into its `ServerError`, and `ProblemMiddleware` sends them.
extension HTTPAPIError: HTTPResponseConvertible {
    /// 400 for bad parameters (and a body value outside its enum, as a parameter's would be),
    /// 401/403/404/409 for who may see or do what, 422 for a body that breaks its rules or a projection that cannot be made, 429 for a watch beyond the server's limits or a query about users beyond the asker's budget, 503 for a write not stored
    /// (with `Retry-After` when the database is out of reach) or a position not applied in time.
    public var httpStatus: HTTPResponse.Status {
        switch self {
        case .invalidParameter, .missingParameter, .conflictingParameter, .malformedBody, .invalidBodyChoice:
            return .badRequest
        case .malformedRequest(let status, _): return status
        case .invalidBody: return .unprocessableContent
        case .bodyTooLarge: return .contentTooLarge
        case .unsupportedMediaType: return .unsupportedMediaType
        case .missingToken, .malformedAuthorization: return .unauthorized
        case .tooManyRequests: return .tooManyRequests
        case .tooManyConnections, .positionNotApplied: return .serviceUnavailable
        case .requestTooLong: return .uriTooLong
        case .noSuchRoute: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .internalError: return .internalServerError
        case .places(let error): return HTTPAPIError.status(of: error)
        }
    }

    public var httpHeaderFields: HTTPFields {
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        if httpStatus == .unauthorized {
            // RFC 6750 §3: the scheme, and `invalid_token` when a token was sent but names no one.
            let invalid = self == .places(.invalidToken) || self == .malformedAuthorization
            fields[.wwwAuthenticate] = "Bearer realm=\"vicinity\"" + (invalid ? ", error=\"invalid_token\"" : "")
        }
        if case .tooManyRequests(_, let seconds) = self { fields[.retryAfter] = String(seconds) }
        if case .places(.tooManyQueries(_, _, let seconds)) = self { fields[.retryAfter] = String(seconds) }
        if case .tooManyConnections = self { fields[.retryAfter] = "1" }
        if case .positionNotApplied = self { fields[.retryAfter] = "1" }
        // Long enough for a database that restarts or fails over, short enough to retry soon.
        if case .places(.storeUnavailable) = self { fields[.retryAfter] = "2" }
        if case .methodNotAllowed(_, _, let allowed) = self { fields[.allow] = allowed.joined(separator: ", ") }
        return fields
    }

    public var httpBody: HTTPBody? { HTTPBody(problemJSON) }

    /// The problem document as the contract's `Problem` schema describes it.
    var problem: Components.Schemas.Problem {
        let status = httpStatus
        return Components.Schemas.Problem(
            _type: "about:blank", title: status.reasonPhrase, status: status.code, detail: description,
            invalidParams: invalidParameters)
    }

    /// The problem document's bytes: keys sorted, so that a response is the same every time.
    var problemJSON: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings and integers always encodes.
        return (try? encoder.encode(problem)) ?? Data(#"{"status":500}"#.utf8)
    }

    /// `invalid_params` for the errors that are about one parameter or field.
    private var invalidParameters: [Components.Schemas.InvalidParam]? {
        switch self {
        case .invalidParameter(let name, let location, _, _, let expected):
            return [.init(name: name, _in: .init(rawValue: location.rawValue), reason: "expected \(expected)")]
        case .missingParameter(let name, _):
            return [.init(name: name, _in: .query, reason: "required")]
        case .conflictingParameter(let name, let detail):
            return [.init(name: name, _in: .query, reason: detail)]
        case .invalidBody(let pointer, _, let reason), .invalidBodyChoice(let pointer, _, let reason):
            return [.init(name: pointer, _in: .body, reason: reason)]
        default:
            return nil
        }
    }

    /// The status for an error of the façade.
    static func status(of error: PlacesError) -> HTTPResponse.Status {
        switch error {
        case .invalidToken: return .unauthorized
        case .forbidden: return .forbidden
        case .noSuchUser, .noSuchPlace: return .notFound
        case .userExists: return .conflict
        case .invalidUserID, .invalidValue, .invalidKind, .reservedKind, .invalidPlaceID:
            return .unprocessableContent
        case .geo(.projectionFailed): return .unprocessableContent
        case .geo: return .badRequest
        case .storeFailed, .closed, .storeUnavailable: return .serviceUnavailable
        case .tooManyWatches, .tooManyQueries: return .tooManyRequests
        default: return .internalServerError
        }
    }
}
