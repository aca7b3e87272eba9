import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The line-protocol server: RESP2/RESP3 and inline lines on one TCP port, commands run by a
/// `LineService` over the `Places` façade. Reads run in parallel on the event loops it is given.
///
/// A `Service`: in a `ServiceGroup` it binds (unless `start` did), serves until the group shuts
/// down gracefully or is cancelled, then shuts down as `shutdown` does.
///
/// ```swift
/// let server = LineServer(service: service, configuration: configuration, eventLoopGroup: group)
/// let address = try await server.start()   // bind now: a port in use fails here
/// try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
public final class LineServer: Service, Sendable {
    public let service: LineService
    public let configuration: ServerConfiguration
    /// The loops connections are served on; the caller's, never shut down here.
    public let eventLoopGroup: any EventLoopGroup
    /// Where connections and requests are logged (`RequestLogHandler`): one line per request at
    /// `.info`, connections at `.debug`.
    public let logger: Logger
    private let state = Mutex<(server: Channel?, connections: [ObjectIdentifier: Channel])>((nil, [:]))

    /// - Parameters:
    ///   - eventLoopGroup: the loops to serve on; `vicinity serve` passes the one group both
    ///     protocols share (`--threads` loops).
    ///   - logger: requests are logged at `.info` when its level lets them through; the default
    ///     logs nothing.
    public init(
        service: LineService, configuration: ServerConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "vicinity.line", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.service = service
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Binds and starts accepting; the address actually bound (port 0 picks one).
    ///
    /// - Throws: NIO's error when the address cannot be bound (in use, not an address of this
    ///   machine); the caller names the address.
    public func start() async throws -> SocketAddress {
        let configuration = self.configuration
        let service = self.service
        let logger = self.logger
        // Requests are logged only when the level lets them through: no handler, no cost.
        let logsRequests = logger.logLevel <= .info
        service.directory.watchLimits = configuration.watchLimits
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // TCP_NODELAY at IPPROTO_TCP: `socketOption(.tcp_nodelay)` set option 1 at SOL_SOCKET,
            // which is SO_DEBUG: refused (EACCES) without CAP_NET_ADMIN, so every connection was
            // reset when not root, and never set when root (LineServerTests.noDelayIsOn).
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark,
                value: .init(low: 1 << 16, high: max(1 << 16 + 1, configuration.outputHighWaterMark))
            )
            .childChannelInitializer { [weak self] channel in
                self?.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    if configuration.idleTimeoutSeconds > 0 {
                        try handlers.addHandler(
                            IdleStateHandler(readTimeout: .seconds(Int64(configuration.idleTimeoutSeconds))))
                    }
                    try handlers.addHandler(ByteToMessageHandler(RESPRequestDecoder(limits: configuration.limits)))
                    if logsRequests { try handlers.addHandler(RequestLogHandler(logger: logger)) }
                    try handlers.addHandler(
                        CommandHandler(
                            service: service, configuration: configuration, handsOverEachReply: logsRequests))
                }
            }
        let channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        state.withLock { $0.server = channel }
        guard let address = channel.localAddress else { throw LineProtocolError.protocolError("no local address") }
        return address
    }

    /// Serves until the service group shuts down gracefully (or cancels), then shuts down: stops
    /// accepting, answers what clients have sent, closes. Binds first unless `start` did.
    public func run() async throws {
        if state.withLock({ $0.server == nil }) { _ = try await start() }
        // Returns at a graceful shutdown and throws when cancelled: either way, stop.
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Stops accepting connections, lets every connection finish the requests it has sent (their
    /// writes are committed) and closes them. The event loops are the caller's and keep running.
    public func shutdown() async {
        let (server, connections) = state.withLock { ($0.server, Array($0.connections.values)) }
        try? await server?.close()
        for channel in connections {
            channel.eventLoop.execute {
                if let context = try? channel.pipeline.syncOperations.context(handlerType: CommandHandler.self),
                    let handler = context.handler as? CommandHandler
                {
                    handler.drain(context: context)
                }
            }
        }
        for channel in connections {
            // A connection that cannot finish in 10 s is closed anyway.
            let timeout = channel.eventLoop.scheduleTask(in: .seconds(10)) { channel.close(promise: nil) }
            try? await channel.closeFuture.get()
            timeout.cancel()
        }
    }

    private func track(_ channel: Channel) {
        let key = ObjectIdentifier(channel)
        state.withLock { $0.connections[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLock { $0.connections.removeValue(forKey: key) }
        }
    }

    /// The connections open now (tests read their socket options).
    var openConnections: [Channel] { state.withLock { Array($0.connections.values) } }
}
