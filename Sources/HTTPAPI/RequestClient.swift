import Hummingbird
import NIOCore

/// The address of the client whose request is being handled, for the budget of queries about
/// users (`UserQueryLimit`), which tells anonymous askers apart by it. The generated server hands
/// a handler its input only: `RequestClientMiddleware` sets this for the handler's task.
enum RequestClient {
    /// The client's IP address as `RateLimitMiddleware` names it; nil outside a server (tests
    /// without a socket: `UserQueryLimit` then counts every anonymous asker as one client).
    @TaskLocal static var address: String?
}

/// Sets `RequestClient.address` from the connection's remote address.
struct RequestClientMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let address = context.remoteAddress?.ipAddress else { return try await next(request, context) }
        return try await RequestClient.$address.withValue(address) { try await next(request, context) }
    }
}
