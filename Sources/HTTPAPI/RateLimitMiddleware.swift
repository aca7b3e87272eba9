import Hummingbird
import NIOCore
import Places

/// Answers 429 with `Retry-After` to a client address over its `RateLimiter` budget, before the
/// request reaches the API (nothing of it is read). Clients are told apart by IP address only,
/// so clients behind one proxy share a budget.
///
/// `/healthz` and `/metrics` are never limited (nor counted): a load balancer's health checks and
/// a Prometheus scrape come from one address, and must not be told to wait because of it (the
/// contract declares no 429 for them).
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext
    let limiter: RateLimiter
    static let unlimitedPaths: Set<String> = ["/healthz", "/metrics"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // The route matched, not the path as sent: `/healthz/` and `//healthz` reach the same one.
        if let route = context.endpointPath, RateLimitMiddleware.unlimitedPaths.contains(route) {
            return try await next(request, context)
        }
        let client = context.remoteAddress?.ipAddress ?? "unknown"
        guard let wait = limiter.admit(client, at: .now) else { return try await next(request, context) }
        return HTTPAPIError.tooManyRequests(
            client: client, retryAfterSeconds: max(1, Int(RateLimiter.seconds(wait).rounded(.up)))
        ).response
    }
}
