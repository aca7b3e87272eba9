import Hummingbird
import NIOCore

/// Answers 429 with `Retry-After` to a client address over its `RateLimiter` budget, before the
/// request reaches the API (nothing of it is read). Clients are told apart by IP address only,
/// so clients behind one proxy share a budget.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let client = context.remoteAddress?.ipAddress ?? "unknown"
        guard let wait = limiter.admit(client, at: .now) else { return try await next(request, context) }
        let problem = HTTPAPIError.tooManyRequests(
            client: client, retryAfterSeconds: max(1, Int(RateLimiter.seconds(wait).rounded(.up))))
        return Response(
            status: problem.httpStatus, headers: problem.httpHeaderFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.problemJSON)))
    }
}
