/// How many watches a server holds, and how much it remembers for resuming them: a server's
/// flags (`serve --max-watches …`).
public struct WatchLimits: Sendable, Hashable {
    /// The most watches the server holds at once, over every subscriber.
    public var maximumWatches: Int
    /// The most watches one subscriber (a connection, a stream) holds at once.
    public var maximumPerSubscriber: Int
    /// How many of the latest applied changes are remembered for resuming a watch from a log
    /// position (`Last-Event-ID`); 0: a resume always starts afresh.
    public var historyChanges: Int

    public init(maximumWatches: Int = 100_000, maximumPerSubscriber: Int = 100, historyChanges: Int = 100_000) {
        self.maximumWatches = maximumWatches
        self.maximumPerSubscriber = maximumPerSubscriber
        self.historyChanges = historyChanges
    }
}

/// What the watches are doing, for `INFO` and `/metrics`.
public struct WatchStatistics: Sendable, Hashable {
    /// Watches held now.
    public var watches = 0
    /// Subscribers holding at least one watch.
    public var subscribers = 0
    /// Events queued for subscribers since start.
    public var eventsQueued = 0
    /// Subscribers closed for falling behind, since start.
    public var subscribersDropped = 0
    /// Changes evaluated against the watches since start, and the CPU time it took, seconds.
    public var changesEvaluated = 0
    public var evaluationSeconds = 0.0
}
