import HTTPTypes
import Testing

@testable import HTTPAPI

/// What the router cannot route: 405 with the methods a known path takes, 404 otherwise.
@Suite struct RouteTableTests {
    static func table() -> RouteTable {
        let table = RouteTable()
        table.record(.get, path: "/v1/users/{id}")
        table.record(.delete, path: "/v1/users/{id}")
        table.record(.get, path: "/v1/users/nearby")
        table.record(.post, path: "/v1/users")
        return table
    }

    @Test func aKnownPathWithAnotherMethodIs405NamingTheMethodsItTakes() {
        let problem = Self.table().problem(method: .init("TRACE")!, path: "/v1/users/ayse")
        #expect(problem == .methodNotAllowed(method: "TRACE", path: "/v1/users/ayse", allowed: ["GET", "DELETE"]))
        #expect(problem.httpStatus == .methodNotAllowed)
        #expect(problem.description == #"TRACE is not an operation of "/v1/users/ayse": expected GET or DELETE"#)
        // The literal segment wins, as in the router: DELETE /v1/users/nearby is not a removal.
        #expect(Self.table().methods(forPath: "/v1/users/nearby") == [.get])
    }

    @Test func anUnknownPathIs404() {
        #expect(Self.table().problem(method: .get, path: "/v2/users") == .noSuchRoute(path: "/v2/users"))
        #expect(
            Self.table().problem(method: .get, path: "/v1/users/ayse/shoes")
                == .noSuchRoute(path: "/v1/users/ayse/shoes"))
    }
}
