import Synchronization

/// A token bucket per client: each client may make `requestsPerSecond` requests a second on
/// average, in bursts of up to `burst` (one second's worth unless said otherwise). Used by the
/// HTTP API's per-address limit and by `UserQueryLimit`; the clock is passed in, so that tests
/// need no waiting.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Requests a second per client, 1 or more.
    public let requestsPerSecond: Int
    /// The most requests a client may make at once after a quiet spell, 1 or more.
    public let burst: Int
    /// Clients remembered before those whose buckets have refilled are forgotten (a forgotten
    /// client starts again with a full bucket, which is what it had): 10,000 buckets take well
    /// under a megabyte.
    public static let maximumClients = 10_000
    private let buckets = Mutex<[String: Bucket]>([:])

    public init(requestsPerSecond: Int, burst: Int? = nil) {
        self.requestsPerSecond = max(1, requestsPerSecond)
        self.burst = max(1, burst ?? requestsPerSecond)
    }

    /// Takes one request from `client`'s bucket.
    ///
    /// - Returns: nil when the request may go ahead, else how long until it could.
    public func admit(_ client: String, at now: ContinuousClock.Instant) -> Duration? {
        let rate = Double(requestsPerSecond)
        let capacity = Double(burst)
        func refilled(_ bucket: Bucket) -> Double {
            min(capacity, bucket.tokens + max(0, RateLimiter.seconds(bucket.updated.duration(to: now))) * rate)
        }
        return buckets.withLock { buckets in
            if buckets[client] == nil, buckets.count >= RateLimiter.maximumClients {
                buckets = buckets.filter { refilled($0.value) < capacity }
            }
            var bucket =
                buckets[client].map { Bucket(tokens: refilled($0), updated: now) }
                ?? Bucket(tokens: capacity, updated: now)
            defer { buckets[client] = bucket }
            guard bucket.tokens >= 1 else { return .seconds((1 - bucket.tokens) / rate) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// The clients remembered now.
    public var clientCount: Int { buckets.withLock { $0.count } }

    /// A duration in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
