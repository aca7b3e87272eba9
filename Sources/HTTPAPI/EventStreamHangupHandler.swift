import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection of a client that hangs up while an event stream (`text/event-stream`)
/// is being sent to it, so that the stream (which watches the connection's `closeFuture`) ends
/// at once and its watch with it.
///
/// Hummingbird lets clients half-close (`allowRemoteHalfClosure`), and NIO's HTTP pipeline reads
/// nothing more while a response is in progress: the FIN of a `curl` that was killed arrives as
/// `ChannelEvent.inputClosed` and nothing else happens until a write fails — for a quiet watch, at
/// the next heartbeat, and on a half-closed connection the first write after it still succeeds.
/// An ordinary answer ends by itself and is left alone; an event stream never ends, and a client
/// that sends nothing more while it reads one is taken to have gone.
final class EventStreamHangupHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// An event stream's head was written and not yet its end.
    private var streaming = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            streaming =
                head.status.kind != .informational
                && head.headerFields[.contentType]?.hasPrefix("text/event-stream") == true
        case .end: streaming = false
        case .body: break
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if streaming, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
