import HTTPTypes
import Places
import Testing

@testable import HTTPAPI

/// The token bucket behind the 429: a burst of one second's worth, then one request per
/// 1/rate seconds, per client address.
@Suite struct RateLimiterTests {
    let start = ContinuousClock.now

    @Test func aBurstOfOneSecondsWorthThenTheWaitForTheNextToken() throws {
        let limiter = RateLimiter(requestsPerSecond: 4)
        for _ in 0..<4 { #expect(limiter.admit("10.0.0.1", at: start) == nil) }
        let wait = try #require(limiter.admit("10.0.0.1", at: start))
        #expect(abs(RateLimiter.seconds(wait) - 0.25) < 1e-9)
        // Another client has its own bucket.
        #expect(limiter.admit("10.0.0.2", at: start) == nil)
        // A quarter of a second later, one more request.
        #expect(limiter.admit("10.0.0.1", at: start + .milliseconds(250)) == nil)
        #expect(limiter.admit("10.0.0.1", at: start + .milliseconds(250)) != nil)
        // After a long pause the bucket is full again, not fuller.
        for _ in 0..<4 { #expect(limiter.admit("10.0.0.1", at: start + .seconds(60)) == nil) }
        #expect(limiter.admit("10.0.0.1", at: start + .seconds(60)) != nil)
    }

    @Test func manyClientsAreForgottenOnceTheirBucketsRefill() {
        let limiter = RateLimiter(requestsPerSecond: 1)
        for client in 0..<RateLimiter.maximumClients { _ = limiter.admit("c\(client)", at: start) }
        // c0 spent its token at `start`; two seconds later it is full, forgotten, and admitted.
        #expect(limiter.admit("new", at: start + .seconds(2)) == nil)
        #expect(limiter.admit("c0", at: start + .seconds(2)) == nil)
        #expect(limiter.clientCount == 2)
    }

    @Test func theProblemSaysWhenToRetry() {
        let problem = HTTPAPIError.tooManyRequests(client: "127.0.0.1", retryAfterSeconds: 1)
        #expect(problem.httpStatus == .tooManyRequests)
        #expect(problem.httpHeaderFields[.retryAfter] == "1")
        #expect(problem.description == "too many requests from 127.0.0.1; retry in 1 s")
    }
}
