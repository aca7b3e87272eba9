import Hummingbird
import NIOCore

/// Answers what the router cannot route with `RouteTable.problem`: problem+json, with `Allow` on
/// a 405.
struct UnroutedRequestMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return table.problem(method: request.method, path: request.uri.path).response
        }
    }
}
