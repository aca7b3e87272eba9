import Hummingbird
import NIOCore

/// The connection of the request being handled, for the handlers that need it past their answer
/// (a watch's event stream ends when its connection closes). The generated server hands a
/// handler its input only: `RequestChannelMiddleware` sets this for the handler's task.
enum RequestChannel {
    /// The request's connection; nil outside a server (tests without a socket).
    @TaskLocal static var current: (any Channel)?
}

/// Sets `RequestChannel.current` for the watch operations (paths ending in `/watch`).
struct RequestChannelMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard request.uri.path.hasSuffix("/watch") else { return try await next(request, context) }
        return try await RequestChannel.$current.withValue(context.channel) { try await next(request, context) }
    }
}
