import Testing

@testable import HTTPAPI

/// `Authorization` values, RFC 6750 §2.1: the scheme in any letter case, then the token.
@Suite struct BearerTokenMiddlewareTests {
    @Test(arguments: [("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER  abc", "abc")])
    func theTokenFollowsTheScheme(field: String, token: String) throws {
        #expect(try BearerTokenMiddleware.token(in: field) == token)
    }

    @Test(arguments: ["Basic eDp5", "Bearer", "Bearer ", "Bearer a b", "abc", ""])
    func anythingElseIsRefused(field: String) {
        #expect(throws: HTTPAPIError.malformedAuthorization) { try BearerTokenMiddleware.token(in: field) }
    }
}
