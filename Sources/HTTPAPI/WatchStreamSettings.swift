/// How the watch streams (`/v1/nearby/watch`, `/v1/users/nearby/watch`) behave: `HTTPServer`'s
/// and `VicinityAPI`'s setting.
public struct WatchStreamSettings: Sendable, Hashable {
    /// Seconds without an event before a `: keep-alive` comment line is sent, more than 0 (15:
    /// under the 30 to 60 s after which proxies and load balancers drop a quiet connection).
    public var heartbeatSeconds: Double
    /// The most events queued for one stream (`WatchSubscriber.capacity`), 1 or more: a stream
    /// further behind is closed with a final `closed` event.
    public var queueCapacity: Int
    /// Seconds a stream closed for falling behind may wait for a client that reads nothing to
    /// take its final `closed` event before the connection is closed, more than 0.
    public var stallSeconds: Double

    public init(heartbeatSeconds: Double = 15, queueCapacity: Int = 10_000, stallSeconds: Double = 10) {
        self.heartbeatSeconds = heartbeatSeconds
        self.queueCapacity = queueCapacity
        self.stallSeconds = stallSeconds
    }
}
