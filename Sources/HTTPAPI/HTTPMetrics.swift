import Places
import Prometheus
import Synchronization

/// The server's Prometheus metrics (swift-prometheus): HTTP requests by operation and status,
/// request latencies by operation, and, read when scraped, the index sizes per kind and the
/// store's commits.
///
/// The `user` index holds the public users with a location only, so its size says nothing about
/// private users.
public final class HTTPMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// Upper bounds of the latency buckets: 100 µs to 1 s, a decade apart (a query from memory
    /// takes tens of microseconds; a write waits for a commit to disk, milliseconds).
    private static let buckets: [Duration] = [
        .microseconds(100), .milliseconds(1), .milliseconds(10), .milliseconds(100), .seconds(1),
    ]

    /// The series already made, so that a request costs a dictionary look-up rather than the
    /// registry's (which takes its lock and checks the name and labels every time).
    private let counters = Mutex<[Series: Counter]>([:])
    private let histograms = Mutex<[String: DurationHistogram]>([:])

    private struct Series: Hashable {
        var operation: String
        var status: Int
    }

    public init() {}

    /// Counts one answered request and its time.
    ///
    /// - Parameters:
    ///   - operation: the operation id of openapi.yaml, e.g. `findNearby`.
    ///   - status: the HTTP status sent.
    ///   - duration: from the request's arrival at the handler's middlewares to its answer.
    func record(operation: String, status: Int, duration: Duration) {
        counter(Series(operation: operation, status: status)).increment()
        histogram(operation).record(duration)
    }

    private func counter(_ series: Series) -> Counter {
        if let counter = counters.withLock({ $0[series] }) { return counter }
        let counter = registry.makeCounter(
            name: "vicinity_http_requests_total",
            labels: [("operation", series.operation), ("status", String(series.status))])
        counters.withLock { $0[series] = counter }
        return counter
    }

    private func histogram(_ operation: String) -> DurationHistogram {
        if let histogram = histograms.withLock({ $0[operation] }) { return histogram }
        let histogram = registry.makeDurationHistogram(
            name: "vicinity_http_request_duration_seconds", labels: [("operation", operation)],
            buckets: HTTPMetrics.buckets)
        histograms.withLock { $0[operation] = histogram }
        return histogram
    }

    /// The text exposition format, with the index and store figures read from `directory` now.
    func exposition(of directory: DurableDirectory) -> String {
        let (sizes, publicUsers) = directory.read { directory in
            (directory.places.kinds.map { ($0, directory.places.count(kind: $0)) }, directory.publicUserCount)
        }
        for (kind, size) in sizes {
            registry.makeGauge(name: "vicinity_index_points", labels: [("kind", kind)]).set(Int64(size))
        }
        registry.makeGauge(name: "vicinity_index_points", labels: [("kind", PlaceDirectory.userKind)])
            .set(Int64(publicUsers))
        let statistics = directory.statistics
        registry.makeGauge(name: "vicinity_store_commits").set(Int64(statistics.commits))
        registry.makeGauge(name: "vicinity_store_changes").set(Int64(statistics.changes))
        registry.makeGauge(name: "vicinity_store_commit_seconds").set(statistics.commitSeconds)
        return registry.emitToString()
    }
}
