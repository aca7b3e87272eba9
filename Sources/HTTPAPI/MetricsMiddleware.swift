import HTTPTypes
import OpenAPIRuntime

/// Counts every request by operation and the status sent, and times it. The outermost
/// middleware, so that it sees the problem documents `ProblemMiddleware` makes of errors.
struct MetricsMiddleware: ServerMiddleware {
    let metrics: HTTPMetrics

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let answer = try await next(request, body, metadata)
            metrics.record(operation: operationID, status: answer.0.status.code, duration: clock.now - start)
            return answer
        } catch {
            metrics.record(operation: operationID, status: 500, duration: clock.now - start)
            throw error
        }
    }
}
