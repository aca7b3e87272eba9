import NIOCore
import NIOPosix
import Synchronization

/// The line-protocol server: RESP2/RESP3 and inline lines on one TCP port, commands run by a
/// `LineService` over the `Places` façade. Event loops on all cores; reads in parallel.
///
/// ```swift
/// let server = LineServer(service: service, configuration: configuration)
/// let address = try await server.start()
/// …
/// await server.shutdown()   // stop accepting, answer what is queued, close
/// ```
public final class LineServer: Sendable {
    public let service: LineService
    public let configuration: ServerConfiguration
    private let group: MultiThreadedEventLoopGroup
    private let state = Mutex<(server: Channel?, connections: [ObjectIdentifier: Channel])>((nil, [:]))

    public init(service: LineService, configuration: ServerConfiguration, threads: Int = System.coreCount) {
        self.service = service
        self.configuration = configuration
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
    }

    /// Binds and starts accepting; the address actually bound (port 0 picks one).
    public func start() async throws -> SocketAddress {
        let configuration = self.configuration
        let service = self.service
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
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
                    try handlers.addHandler(CommandHandler(service: service, configuration: configuration))
                }
            }
        let channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        state.withLock { $0.server = channel }
        guard let address = channel.localAddress else { throw LineProtocolError.protocolError("no local address") }
        return address
    }

    /// Stops accepting connections, lets every connection finish the requests it has sent (their
    /// writes are committed), closes them, and stops the event loops.
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
        try? await group.shutdownGracefully()
    }

    private func track(_ channel: Channel) {
        let key = ObjectIdentifier(channel)
        state.withLock { $0.connections[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLock { $0.connections.removeValue(forKey: key) }
        }
    }
}
