import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Answers a connection beyond `limit` open at once with a 503 problem and closes it, reading
/// none of its requests: as the line protocol's `maximumClients` (Redis's `maxclients`), so that a
/// client opening connections without end cannot take every socket of the process.
///
/// One handler per connection, sharing a `ConnectionLimitHandler.Count` across the server. Inbound
/// only (it writes its 503 without seeing writes), so that the answers of the connection's requests
/// do not pass through it.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// The connections open now, shared by every connection's handler.
    final class Count: Sendable {
        let open = Atomic<Int>(0)
        init() {}
    }

    private let count: Count
    private let limit: Int
    private var counted = false
    private var refused = false

    init(count: Count, limit: Int) {
        self.count = count
        self.limit = limit
    }

    func channelActive(context: ChannelHandlerContext) {
        if count.open.add(1, ordering: .relaxed).newValue > limit {
            count.open.subtract(1, ordering: .relaxed)
            refused = true
            context.fireChannelActive()
            let problem = HTTPAPIError.tooManyConnections(limit: limit)
            let (head, body) = problem.closingResponseParts
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            // Output closed first and the connection a second later: a client still sending its
            // request reads the 503 rather than a reset (what it sends meanwhile is dropped).
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
                channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            }
            return
        }
        counted = true
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            count.open.subtract(1, ordering: .relaxed)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        context.fireChannelRead(data)
    }
}
