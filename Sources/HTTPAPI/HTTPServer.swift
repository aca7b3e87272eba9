import Hummingbird
import Logging
import NIOCore
import NIOPosix
import OpenAPIHummingbird
import OpenAPIRuntime
import Places
import ServiceLifecycle
import Synchronization

/// The HTTP API on Hummingbird 2: the generated routes over `VicinityAPI`, with the middlewares
/// that make every error a problem document.
///
/// A `Service`: `vicinity serve` runs one in a `ServiceGroup` next to the line protocol, over the
/// same `DurableDirectory` and event loops. Tests start and stop one on their own:
///
/// ```swift
/// let http = HTTPServer(directory: durable, host: "127.0.0.1", port: 0)
/// let port = try await http.start()
/// …
/// await http.shutdown()  // finishes the requests in progress
/// ```
public final class HTTPServer: Service, Sendable {
    public let directory: DurableDirectory
    public let host: String
    /// The port asked for; 0 lets the system choose (`start` returns the one bound).
    public let port: Int
    /// Requests a second per client address before 429s; 0 for no limit.
    public let rateLimit: Int
    /// Seconds a connection may stay open with no request in progress before it is closed; 0 for
    /// never. Without it a client that connects and sends nothing holds a socket for ever.
    public let idleTimeoutSeconds: Int
    /// Connections open at once; one more is answered 503 and closed (`ConnectionLimitHandler`).
    public let maximumConnections: Int
    /// Seconds a connection may leave answers unread (its channel not writable) before it is
    /// closed (`OutputStallHandler`); 0 for never.
    public let outputStallSeconds: Int
    /// The loops connections are served on; the caller's, never shut down here.
    public let eventLoopGroup: any EventLoopGroup
    /// Where requests are logged (`RequestLogMiddleware`): one line each at `.info`.
    public let logger: Logger
    /// How the watch streams (Server-Sent Events) behave.
    public let watchStreams: WatchStreamSettings
    /// The budget of queries about other users, per asker (`--user-query-rate`).
    public let userQueryLimit: UserQueryLimit
    /// Whether the hot operations are answered by `HotRoutes` (true, the default) or by the
    /// generated server like every other operation; the answers are the same
    /// (`HotRoutesDifferentialTests`), the hot routes' for less CPU a request.
    public let hotRoutes: Bool
    /// The map in the browser at `/` (`MapPage`): its tiles.
    public let page: MapPage
    private let connections = ConnectionLimitHandler.Count()
    /// The clock the rate limit is counted by; tests stop it (before `start`).
    let rateLimitClock = Mutex<@Sendable () -> ContinuousClock.Instant>({ .now })
    /// The hot routes of the server running, if it has them.
    private let hot = Mutex<HotRoutes?>(nil)
    private let state = Mutex<(group: ServiceGroup?, task: Task<Void, Error>?)>((nil, nil))

    /// - Parameters:
    ///   - host: the address to listen on, e.g. `127.0.0.1`.
    ///   - port: 0 to 65535; 0 lets the system choose.
    ///   - rateLimit: requests a second per client address (bursts of one second's worth), 0 for
    ///     no limit.
    ///   - idleTimeoutSeconds: seconds without a request before a connection is closed, 0 for
    ///     never (as the line protocol's `idleTimeoutSeconds`).
    ///   - maximumConnections: connections open at once, 1 or more (as the line protocol's
    ///     `maximumClients`).
    ///   - outputStallSeconds: seconds a client may leave answers unread before its connection is
    ///     closed, 0 for never (as the line protocol's `outputStallSeconds`).
    ///   - eventLoopGroup: the loops to serve on; `vicinity serve` passes the one group both
    ///     protocols share (`--threads` loops).
    ///   - logger: requests are logged at `.info` when its level lets them through, Hummingbird's
    ///     own messages from `.warning` up; the default logs nothing.
    ///   - watchStreams: the watch streams' heartbeat and queue.
    ///   - userQueryLimit: the budget of queries about other users (user queries, maps and watches
    ///     of users, other users' records); `vicinity serve` passes the one instance the line
    ///     protocol uses too. Unlimited by default.
    ///   - hotRoutes: whether `/v1/nearby`, `/v1/nearest` and `/v1/users/nearby` are answered by
    ///     `HotRoutes` before Hummingbird (true, the default) or by the generated server, as every
    ///     other operation.
    ///   - page: the browser map served at `/`; OpenStreetMap's tiles unless told.
    public init(
        directory: DurableDirectory, host: String, port: Int, rateLimit: Int = 0, idleTimeoutSeconds: Int = 300,
        maximumConnections: Int = 10_000, outputStallSeconds: Int = 30,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "vicinity.http", factory: { _ in SwiftLogNoOpLogHandler() }),
        watchStreams: WatchStreamSettings = WatchStreamSettings(), userQueryLimit: UserQueryLimit = .unlimited,
        hotRoutes: Bool = true, page: MapPage = MapPage()
    ) {
        self.directory = directory
        self.host = host
        self.port = port
        self.rateLimit = rateLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maximumConnections = maximumConnections
        self.outputStallSeconds = outputStallSeconds
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        self.watchStreams = watchStreams
        self.userQueryLimit = userQueryLimit
        self.hotRoutes = hotRoutes
        self.page = page
    }

    /// The middlewares, outermost first: request metrics, the position applied on every answer,
    /// problems for every error, response headers as the handler meant them, the wait for a
    /// read's `Vicinity-Min-Position` (before the token is resolved: a token made by a write on
    /// another server is known here only once its position is applied), the bearer token, the
    /// body's type and size, the text of number parameters.
    static func middlewares(for api: VicinityAPI) -> [any ServerMiddleware] {
        [
            MetricsMiddleware(metrics: api.metrics), PositionHeaderMiddleware(directory: api.directory),
            ProblemMiddleware(), ResponseHeaderMiddleware(), MinimumPositionMiddleware(directory: api.directory),
            BearerTokenMiddleware(directory: api.directory), BodyLimitMiddleware(), QueryTextMiddleware(),
            HitsJSONMiddleware(),
        ]
    }

    /// JSON answers in one line with keys sorted, as `vicinity … --json` prints them (the
    /// runtime's default pretty-prints: half as many bytes again for a list of 300 places).
    static let configuration = Configuration(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])

    /// A router serving every operation of openapi.yaml over `directory`, and the browser map.
    ///
    /// - Parameters:
    ///   - rateLimit: requests a second per client address, 0 for no limit.
    ///   - logger: one line per request at `.info`, when its level lets them through.
    ///   - watchStreams: how the watch streams behave.
    ///   - userQueryLimit: the budget of queries about other users.
    ///   - page: the browser map served at `/`.
    public static func router(
        directory: DurableDirectory, rateLimit: Int = 0, logger: Logger? = nil,
        watchStreams: WatchStreamSettings = WatchStreamSettings(), userQueryLimit: UserQueryLimit = .unlimited,
        page: MapPage = MapPage()
    ) throws -> Router<VicinityRequestContext> {
        let api = VicinityAPI(directory: directory, watchStreams: watchStreams, userQueryLimit: userQueryLimit)
        return try router(
            api: api, limiter: rateLimit > 0 ? RateLimiter(requestsPerSecond: rateLimit) : nil, logger: logger,
            page: page)
    }

    /// A router serving every operation of openapi.yaml with `api`, `limiter` (nil for no limit)
    /// and `logger`, which `HotRoutes` shares, and the browser map `page`.
    static func router(
        api: VicinityAPI, limiter: RateLimiter?, logger: Logger?, page: MapPage = MapPage(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) throws -> Router<VicinityRequestContext> {
        // HEAD answers what GET would, without the body (RFC 9110 9.3.2): `curl -I`, balancers.
        let router = Router(context: VicinityRequestContext.self, options: .autoGenerateHeadEndpoints)
        let table = RouteTable()
        // Outermost, so that every answer is logged: unrouted requests, 429s and problems too.
        if let logger = requestLogger(logger) { router.add(middleware: RequestLogMiddleware(logger: logger)) }
        router.add(middleware: OneWriteMiddleware())
        // Before the routes: Hummingbird wraps a route in the middlewares added before it.
        if let limiter { router.add(middleware: RateLimitMiddleware(limiter: limiter, now: now)) }
        router.add(middleware: UnroutedRequestMiddleware(table: table))
        router.add(middleware: RequestChannelMiddleware())
        router.add(middleware: RequestClientMiddleware())
        try api.registerHandlers(
            on: TableRecordingTransport(router: router, table: table), configuration: configuration,
            middlewares: middlewares(for: api))
        // The page's watch reader waits for the keep-alives this server's streams send.
        page.with(heartbeatSeconds: api.watchStreams.heartbeatSeconds).register(on: router, table: table)
        return router
    }

    /// The logger requests are logged to: `logger` when its level lets `.info` through.
    static func requestLogger(_ logger: Logger?) -> Logger? {
        guard let logger, logger.logLevel <= .info else { return nil }
        return logger
    }

    /// The requests `HotRoutes` has answered since the server started (0 without them).
    var hotRouteAnswers: Int { hot.withLock { $0?.answered.load(ordering: .relaxed) ?? 0 } }

    /// The most bytes a connection held unsent when the hot routes flushed answers (`HotRoutes`).
    var hotRouteBufferedPeak: Int { hot.withLock { $0?.bufferedPeak.load(ordering: .relaxed) ?? 0 } }

    /// The connections open now.
    var openConnections: Int { connections.open.load(ordering: .relaxed) }

    /// Serves until the service group shuts down gracefully (finishing the requests in progress)
    /// or cancels.
    public func run() async throws { try await run(onListening: { _ in }) }

    /// Serves until the service group shuts down gracefully (finishing the requests in progress)
    /// or cancels; `onListening` gets the port bound once the server accepts connections.
    ///
    /// - Throws: when the address cannot be bound (in use, not an address of this machine): NIO's
    ///   error, before `onListening` was called; the caller names the address.
    public func run(onListening: @escaping @Sendable (Int) async -> Void) async throws {
        let api = VicinityAPI(directory: directory, watchStreams: watchStreams, userQueryLimit: userQueryLimit)
        let limiter = rateLimit > 0 ? RateLimiter(requestsPerSecond: rateLimit) : nil
        let now = rateLimitClock.withLock { $0 }
        let router = try HTTPServer.router(api: api, limiter: limiter, logger: logger, page: page, now: now)
        let serverName = "vicinity"
        let hot =
            hotRoutes
            ? HotRoutes(
                api: api, limiter: limiter, logger: HTTPServer.requestLogger(logger), serverName: serverName,
                now: now, tracksBufferedBytes: true)
            : nil
        self.hot.withLock { $0 = hot }
        // Hummingbird says "Server started and listening" at .info; `vicinity serve` says it once.
        var frameworkLogger = logger
        frameworkLogger.logLevel = max(logger.logLevel, .warning)
        let idle = idleTimeoutSeconds > 0 ? TimeAmount.seconds(Int64(idleTimeoutSeconds)) : nil
        let (connections, maximumConnections) = (self.connections, self.maximumConnections)
        let stallSeconds = outputStallSeconds
        let app = Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ConnectionLimitHandler(count: connections, limit: maximumConnections),
                        ParserErrorHandler(), EventStreamHangupHandler(),
                    ] + (stallSeconds > 0 ? [OutputStallHandler(seconds: stallSeconds)] : [])
                        + (hot.map { [HotRouteHandler.Installer(routes: $0)] } ?? []), idleTimeout: idle)),
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            eventLoopGroupProvider: .shared(eventLoopGroup), logger: frameworkLogger)
        try await app.run()
    }

    /// Starts listening in a service group of its own and returns the bound port once the server
    /// accepts connections (tests; `vicinity serve` runs the server in its own group).
    ///
    /// - Throws: when the address cannot be bound (in use, not an address of this machine).
    public func start() async throws -> Int {
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let service = ClosureService { [self] in
            try await run { port in
                boundContinuation.yield(port)
                boundContinuation.finish()
            }
        }
        let group = ServiceGroup(
            configuration: .init(services: [service], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { boundContinuation.finish() }
            try await group.run()
        }
        state.withLock { $0 = (group, task) }
        for await port in bound { return port }
        // The server stopped before it ran: report why.
        try await task.value
        throw CancellationError()
    }

    /// Stops accepting connections, finishes the requests in progress and returns when done (a
    /// watch stream in progress ends with a `closed` event).
    public func shutdown() async {
        let (group, task) = state.withLock { state in
            defer { state = (nil, nil) }
            return state
        }
        await group?.triggerGracefulShutdown()
        _ = try? await task?.value
    }
}
