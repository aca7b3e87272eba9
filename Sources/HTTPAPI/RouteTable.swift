import HTTPTypes
import Synchronization

/// The routes the generated code registers (method and path template), kept so that a request
/// the router cannot route is answered with a problem: 405 with `Allow` for a known path with
/// another method (schemathesis's TRACE got an empty 404), 404 for an unknown path.
final class RouteTable: Sendable {
    private let routes = Mutex<[(method: HTTPRequest.Method, template: [Substring])]>([])

    func record(_ method: HTTPRequest.Method, path: String) {
        routes.withLock { $0.append((method, path.split(separator: "/"))) }
    }

    /// The methods `path` takes, in the order registered: those of the routes whose template
    /// matches it (a `{parameter}` matches any segment) with the most literal segments, as the
    /// router prefers `/v1/users/nearby` to `/v1/users/{id}`.
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        let matches = routes.withLock { routes in
            routes.compactMap { route -> (method: HTTPRequest.Method, literals: Int)? in
                guard route.template.count == segments.count,
                    zip(route.template, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 })
                else { return nil }
                return (route.method, route.template.filter { !$0.hasPrefix("{") }.count)
            }
        }
        let most = matches.map(\.literals).max()
        var methods: [HTTPRequest.Method] = []
        for match in matches where match.literals == most && !methods.contains(match.method) {
            methods.append(match.method)
        }
        return methods
    }

    /// The problem for a request no route answers.
    func problem(method: HTTPRequest.Method, path: String) -> HTTPAPIError {
        let allowed = methods(forPath: path).map(\.rawValue)
        guard !allowed.isEmpty else { return .noSuchRoute(path: path) }
        return .methodNotAllowed(method: method.rawValue, path: path, allowed: allowed)
    }
}
