import Places
import Prometheus
import Synchronization

/// The server's Prometheus metrics (swift-prometheus): HTTP requests by operation and status,
/// request latencies by operation, and, read when scraped, the index sizes per kind, the
/// store's commits and how far memory follows the store's change log (`ReplicationStatus`).
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
    /// The kinds whose index size was shown: a kind left empty is shown as 0, not as its last size.
    private let kindsShown = Mutex<Set<String>>([])
    /// The replication totals the counters show, by series: a scrape adds what grew since.
    private let totalsShown = Mutex<[String: UInt64]>([:])

    /// The metrics' names (`vicinity_<subsystem>_<name>_<unit>`) with their `# HELP` text
    /// (computed: swift-prometheus 2's descriptor is not `Sendable`).
    private static var requests: MetricNameDescriptor {
        named(
            "http", "requests", unit: "total",
            help: "HTTP requests answered, by operation of openapi.yaml and status sent.")
    }
    private static var requestDuration: MetricNameDescriptor {
        named(
            "http", "request_duration", unit: "seconds",
            help: "Time from a request reaching the API's middlewares to its answer, by operation.")
    }
    private static var indexPoints: MetricNameDescriptor {
        named(
            "index", "points", help: "Points in the queryable index, by kind (user: public users with a location only)."
        )
    }
    private static var storeCommits: MetricNameDescriptor {
        named("store", "commits", help: "Transactions the store committed since the start.")
    }
    private static var storeChanges: MetricNameDescriptor {
        named("store", "changes", help: "Changes those transactions stored.")
    }
    private static var storeCommitSeconds: MetricNameDescriptor {
        named("store", "commit", unit: "seconds", help: "Time spent committing since the start.")
    }

    private static var changeLag: MetricNameDescriptor {
        named(
            "change", "lag", unit: "seconds",
            help: "Seconds memory has been behind the database's change log (while it is out of reach: since it was).")
    }
    private static var changePosition: MetricNameDescriptor {
        named(
            "change", "position",
            help: "Change-log positions: applied to memory, and the newest the database was seen to hold.")
    }
    private static var storeReachable: MetricNameDescriptor {
        named("store", "reachable", help: "1 while the database answers, 0 while it cannot be reached.")
    }
    private static var changesApplied: MetricNameDescriptor {
        named(
            "changes", "applied", unit: "total",
            help: "Changes applied to memory, by who wrote them: this server (own) or other writers (followed).")
    }
    private static var snapshotReloads: MetricNameDescriptor {
        named(
            "snapshot", "reloads", unit: "total",
            help: "Snapshots loaded because the change log no longer held the next change.")
    }

    private static var watches: MetricNameDescriptor {
        named("watches", "held", help: "Watches held now, over every connection and stream.")
    }
    private static var watchSubscribers: MetricNameDescriptor {
        named("watch", "subscribers", help: "Connections and streams holding at least one watch.")
    }
    private static var watchEvents: MetricNameDescriptor {
        named("watch", "events", unit: "total", help: "Watch events queued for subscribers since the start.")
    }
    private static var watchDropped: MetricNameDescriptor {
        named(
            "watch", "subscribers_dropped", unit: "total",
            help: "Subscribers closed because they fell more than their queue behind.")
    }
    private static var watchEvaluation: MetricNameDescriptor {
        named(
            "watch", "evaluation_cpu", unit: "seconds",
            help: "CPU time spent evaluating applied changes against the watches since the start.")
    }

    private static func named(_ subsystem: String, _ name: String, unit: String = "", help: String)
        -> MetricNameDescriptor
    {
        MetricNameDescriptor(
            namespace: "vicinity", subsystem: subsystem, metricName: name, unitName: unit, helpText: help)
    }

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
        HTTPMetrics.cached(series, in: counters) {
            registry.makeCounter(
                descriptor: HTTPMetrics.requests,
                labels: [("operation", series.operation), ("status", String(series.status))])
        }
    }

    private func histogram(_ operation: String) -> DurationHistogram {
        HTTPMetrics.cached(operation, in: histograms) {
            registry.makeDurationHistogram(
                descriptor: HTTPMetrics.requestDuration, labels: [("operation", operation)],
                buckets: HTTPMetrics.buckets)
        }
    }

    /// The value kept for `key`, made and kept the first time (the registry hands the same series
    /// back if two requests make one at once).
    private static func cached<Key: Hashable & Sendable, Value: Sendable>(
        _ key: Key, in cache: borrowing Mutex<[Key: Value]>, make: () -> Value
    ) -> Value {
        if let value = cache.withLock({ $0[key] }) { return value }
        let value = make()
        cache.withLock { $0[key] = value }
        return value
    }

    /// The text exposition format, with the index and store figures read from `directory` now.
    func exposition(of directory: DurableDirectory) -> String {
        let (sizes, publicUsers) = directory.read { directory in
            (directory.places.kinds.map { ($0, directory.places.count(kind: $0)) }, directory.publicUserCount)
        }
        var shown = Dictionary(uniqueKeysWithValues: sizes)
        shown[PlaceDirectory.userKind] = publicUsers
        let emptied = kindsShown.withLock { kinds in
            defer { kinds.formUnion(shown.keys) }
            return kinds.subtracting(shown.keys)
        }
        for kind in emptied { shown[kind] = 0 }
        for (kind, size) in shown {
            registry.makeGauge(descriptor: HTTPMetrics.indexPoints, labels: [("kind", kind)]).set(Int64(size))
        }
        let statistics = directory.statistics
        registry.makeGauge(descriptor: HTTPMetrics.storeCommits).set(Int64(statistics.commits))
        registry.makeGauge(descriptor: HTTPMetrics.storeChanges).set(Int64(statistics.changes))
        registry.makeGauge(descriptor: HTTPMetrics.storeCommitSeconds).set(statistics.commitSeconds)
        showReplication(directory.replication)
        let watching = directory.watchStatistics
        registry.makeGauge(descriptor: HTTPMetrics.watches).set(Int64(watching.watches))
        registry.makeGauge(descriptor: HTTPMetrics.watchSubscribers).set(Int64(watching.subscribers))
        registry.makeGauge(descriptor: HTTPMetrics.watchEvaluation).set(watching.evaluationSeconds)
        addGrowth(
            [
                (
                    "watch events", registry.makeCounter(descriptor: HTTPMetrics.watchEvents),
                    UInt64(watching.eventsQueued)
                ),
                (
                    "watch drops", registry.makeCounter(descriptor: HTTPMetrics.watchDropped),
                    UInt64(watching.subscribersDropped)
                ),
            ])
        return registry.emitToString()
    }

    /// The change log's figures as `ReplicationStatus` has them now.
    private func showReplication(_ status: ReplicationStatus) {
        registry.makeGauge(descriptor: HTTPMetrics.changeLag).set(status.lagSeconds())
        registry.makeGauge(descriptor: HTTPMetrics.changePosition, labels: [("position", "applied")])
            .set(Int64(clamping: status.applied))
        registry.makeGauge(descriptor: HTTPMetrics.changePosition, labels: [("position", "latest")])
            .set(Int64(clamping: max(status.latest, status.applied)))
        registry.makeGauge(descriptor: HTTPMetrics.storeReachable).set(Int64(status.unreachableSince == nil ? 1 : 0))
        let totals: [(series: String, counter: Counter, total: UInt64)] = [
            (
                "own", registry.makeCounter(descriptor: HTTPMetrics.changesApplied, labels: [("source", "own")]),
                status.ownChanges
            ),
            (
                "followed",
                registry.makeCounter(descriptor: HTTPMetrics.changesApplied, labels: [("source", "followed")]),
                status.followedChanges
            ),
            ("reloads", registry.makeCounter(descriptor: HTTPMetrics.snapshotReloads), status.reloads),
        ]
        addGrowth(totals)
    }

    /// Counters only grow: each scrape adds what each total grew by since the last one, under one
    /// lock so that two scrapes at once add it once.
    private func addGrowth(_ totals: [(series: String, counter: Counter, total: UInt64)]) {
        totalsShown.withLock { shown in
            for (series, counter, total) in totals {
                let before = shown[series] ?? 0
                guard total > before else { continue }
                counter.increment(by: Int64(clamping: total - before))
                shown[series] = total
            }
        }
    }
}
