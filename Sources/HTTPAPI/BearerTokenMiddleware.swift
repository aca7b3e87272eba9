import HTTPTypes
import OpenAPIRuntime
import Places

/// Reads `Authorization: Bearer <token>` and hands the token to the handler as
/// `RequestToken.current`. Without the header the handler sees no token (anonymous on reads, 401
/// on writes, except registration on a server with `--open-registration`); a header in any other form, or a token that names no one, is a 401 at once —
/// before the body is read or a parameter is checked. The token is never logged.
struct BearerTokenMiddleware: ServerMiddleware {
    /// Resolves tokens; the handler resolves them again, and the façade once more when it plans a
    /// write (a token revoked meanwhile no longer works).
    let directory: DurableDirectory

    /// The operations that write: they need a token before their body or parameters are looked at.
    static let writeOperations: Set<String> = [
        "putPlace", "deletePlace", "registerUser", "deleteUser", "moveUser", "forgetUserLocation",
        "setUserVisibility", "setUserPrecision",
    ]

    /// The operations whose contract takes no token (`security` not declared): the header is not
    /// looked at, as `/v1/distance` promises.
    static let publicOperations: Set<String> = ["measureDistance", "getPlace", "getHealth", "getMetrics"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if BearerTokenMiddleware.publicOperations.contains(operationID) {
            return try await next(request, body, metadata)
        }
        guard let field = request.headerFields[.authorization] else {
            if BearerTokenMiddleware.writeOperations.contains(operationID),
                !(operationID == "registerUser" && directory.read(\.openRegistration))
            {
                throw HTTPAPIError.missingToken
            }
            return try await next(request, body, metadata)
        }
        let token = try BearerTokenMiddleware.resolvedToken(in: field, directory: directory)
        return try await RequestToken.$current.withValue(token) { try await next(request, body, metadata) }
    }

    /// The token of an `Authorization` value that names someone (`HotRoutes` checks it here too).
    ///
    /// - Throws: `.malformedAuthorization`, or the façade's `.invalidToken`, both 401.
    static func resolvedToken(in field: String, directory: DurableDirectory) throws(HTTPAPIError) -> String {
        let token = try token(in: field)
        do {
            _ = try directory.read { directory throws(PlacesError) in try directory.principal(presenting: token) }
        } catch {
            throw HTTPAPIError.places(error)
        }
        return token
    }

    /// The token of an `Authorization` value: the scheme `Bearer` in any letter case, one or more
    /// spaces, then the token (RFC 6750 §2.1).
    static func token(in field: String) throws(HTTPAPIError) -> String {
        let scheme = field.prefix { $0 != " " }
        let token = field.dropFirst(scheme.count).drop { $0 == " " }
        guard scheme.lowercased() == "bearer", !token.isEmpty, !token.contains(" ") else {
            throw .malformedAuthorization
        }
        return String(token)
    }
}
