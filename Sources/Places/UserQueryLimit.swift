/// The budget of queries about users (`--user-query-rate`), against scraping: a client that asks
/// for the people around point after point is slowed down to `perSecond` queries a second, after
/// a burst of `burst`, on every protocol of one process alike (one limit is shared by them).
///
/// A client is its principal: a user by their id, the anonymous by their address (so that a
/// scraper cannot multiply its budget with connections); the admin is not limited. What counts as
/// one query: any read that answers about other users — a radius, nearest or count query of kind
/// `user`, a map of users, a user's record, `GEOPOS`/`GEODIST`/`GEOHASH`/`GEOSEARCH`… of the
/// `user` key, a watch of users (once, when it starts).
public final class UserQueryLimit: Sendable {
    /// Queries a second per client on average; 0: no limit.
    public let perSecond: Int
    /// Queries a client may make at once after a quiet spell.
    public let burst: Int
    private let limiter: RateLimiter?
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameters:
    ///   - perSecond: 0 (no limit) or more.
    ///   - burst: defaults to 10 seconds' worth (a map page loads its table and stream at once).
    ///   - now: the clock; tests stop it, so that no budget refills while a loaded machine stalls.
    public init(
        perSecond: Int, burst: Int? = nil, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.perSecond = max(0, perSecond)
        self.burst = max(1, burst ?? self.perSecond * 10)
        limiter = self.perSecond > 0 ? RateLimiter(requestsPerSecond: self.perSecond, burst: self.burst) : nil
        self.now = now
    }

    /// No limit at all.
    public static let unlimited = UserQueryLimit(perSecond: 0)

    /// Takes one query from the client's budget.
    ///
    /// - Parameters:
    ///   - principal: who asks.
    ///   - address: the client's network address (used for the anonymous), nil when unknown.
    ///   - time: the time (default: the limit's clock).
    /// - Throws: `PlacesError.tooManyQueries` when the budget is spent.
    public func admit(
        _ principal: Principal, address: String?, at time: ContinuousClock.Instant? = nil
    ) throws(PlacesError) {
        guard let limiter else { return }
        let client: String
        switch principal {
        case .admin: return
        case .user(let id): client = "user\u{0}" + id
        case .anonymous: client = "address\u{0}" + (address ?? "unknown")
        }
        if let wait = limiter.admit(client, at: time ?? now()) {
            throw .tooManyQueries(
                perSecond: perSecond, burst: burst,
                retryAfterSeconds: max(1, Int(RateLimiter.seconds(wait).rounded(.up))))
        }
    }
}
