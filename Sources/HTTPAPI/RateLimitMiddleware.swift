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
    /// The clock the budget is counted by (tests stop it).
    var now: @Sendable () -> ContinuousClock.Instant = { .now }
    static let unlimitedPaths: Set<String> = ["/healthz", "/metrics"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // The route matched, not the path as sent: `/healthz/` and `//healthz` reach the same one.
        if let route = context.endpointPath, RateLimitMiddleware.unlimitedPaths.contains(route) {
            return try await next(request, context)
        }
        guard let refusal = RateLimitMiddleware.refusal(by: limiter, of: context.remoteAddress, at: now()) else {
            return try await next(request, context)
        }
        return refusal.response
    }

    /// Takes a request from the client's budget: nil when it may go ahead, else its 429 (`HotRoutes`
    /// asks here too).
    static func refusal(by limiter: RateLimiter, of address: SocketAddress?, at now: ContinuousClock.Instant)
        -> HTTPAPIError?
    {
        let client = address?.ipAddress ?? "unknown"
        guard let wait = limiter.admit(client, at: now) else { return nil }
        return .tooManyRequests(client: client, retryAfterSeconds: max(1, Int(RateLimiter.seconds(wait).rounded(.up))))
    }
}
