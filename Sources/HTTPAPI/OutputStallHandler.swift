import NIOCore

/// Closes a connection whose channel stays unwritable for `seconds`: the client has left that
/// long a socket's worth of answers unread (as the line protocol's `outputStallSeconds`).
///
/// Both ways of answering stop when the channel is not writable (Hummingbird's writer waits,
/// `HotRouteHandler` holds its answers and stops reading), so a client that pipelines requests and
/// never reads holds only bounded memory; without this it would hold it, and its socket, for ever
/// (Hummingbird's idle timeout never fires while an answer is in progress).
final class OutputStallHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let seconds: Int
    private var timer: Scheduled<Void>?

    /// - Parameter seconds: 1 or more.
    init(seconds: Int) { self.seconds = seconds }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            timer?.cancel()
            timer = nil
        } else if timer == nil {
            let channel = context.channel
            timer = context.eventLoop.scheduleTask(in: .seconds(Int64(seconds))) { channel.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}
