import Places

/// How `LineServer` listens and what it allows each client.
public struct ServerConfiguration: Sendable {
    /// The address to bind: 127.0.0.1 unless told otherwise.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (tests).
    public var port = 7878
    /// Clients connected at once; one more is answered `-ERR max number of clients reached` and
    /// closed (Redis's `maxclients`, default 10,000).
    public var maximumClients = 10_000
    /// Seconds without a request after which a client is closed; 0 never (Redis's `timeout`).
    public var idleTimeoutSeconds = 300
    /// Seconds a client may leave its replies unread (the socket's send buffer full) before it is
    /// closed: a client that never reads is disconnected, not buffered forever.
    public var outputStallSeconds = 30
    /// Replies waiting to be written per connection, in bytes, above which the connection stops
    /// reading requests until the client catches up (64 KiB low, 1 MiB high water mark).
    public var outputHighWaterMark = 1 << 20
    /// Request size limits (inline line, bulk, arguments).
    public var limits = ProtocolLimits.default
    /// Watches held at once (server, per connection) and changes remembered for resuming one;
    /// `LineServer.start` sets them on the directory, which the HTTP API's watches share
    /// (`serve --max-watches`, `--max-watches-per-client`, `--watch-history`).
    public var watchLimits = WatchLimits()
    /// Watch events queued for one connection, 1 or more, beyond which a connection that does not
    /// read them is closed (`serve --watch-queue`, default 10,000).
    public var watchQueue = 10_000
    /// The budget of queries about other users (`serve --user-query-rate`): one instance, which
    /// `vicinity serve` shares with the HTTP API, so a client has one budget across protocols.
    /// Each connection draws on it as its principal (the anonymous by their IP address).
    public var userQueryLimit: UserQueryLimit = .unlimited

    public init() {}
}
