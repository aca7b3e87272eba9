import NIOCore

/// Closes a connection whose channel stays unwritable for `seconds` without sending anything: the
/// client has left that long a socket's worth of answers unread (as the line protocol's
/// `outputStallSeconds`).
///
/// Both ways of answering stop when the channel is not writable (Hummingbird's writer waits,
/// `HotRouteHandler` holds its answers and stops reading), so a client that pipelines requests and
/// never reads holds only bounded memory; without this it would hold it, and its socket, for ever
/// (Hummingbird's idle timeout never fires while an answer is in progress). A slow client that
/// keeps reading is not a stalled one: a large body can keep the channel unwritable for longer
/// than `seconds`, so each time the period ends with fewer bytes waiting than at its start, a new
/// period begins.
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
            arm(context: context, waiting: Self.waitingBytes(context.channel))
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    /// Starts a period of `seconds`; at its end the connection is closed unless it is writable
    /// again or fewer than `waiting` bytes wait to be sent.
    private func arm(context: ChannelHandlerContext, waiting: Int?) {
        let channel = context.channel
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(Int64(seconds))) {
            self.timer = nil
            guard !channel.isWritable else { return }
            let now = Self.waitingBytes(channel)
            if let now, let waiting, now < waiting {
                self.arm(context: context, waiting: now)
            } else {
                channel.close(promise: nil)
            }
        }
    }

    /// The bytes written and not yet sent, when the channel can tell (a socket can).
    private static func waitingBytes(_ channel: any Channel) -> Int? {
        try? channel.syncOptions?.getOption(.bufferedWritableBytes)
    }
}
