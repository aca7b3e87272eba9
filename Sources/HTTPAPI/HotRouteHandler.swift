import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Answers the requests `HotRoutes` takes on the connection's event loop, before Hummingbird's
/// request task sees them; passes every other request on, whole, to Hummingbird.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler` (`Installer` puts it there), so that
/// the idle timeout and a graceful shutdown see the requests it answers. Answers leave in request
/// order: while a request passed on is owed its answer, the next ones are passed on too
/// (Hummingbird answers a connection's requests one after another).
final class HotRouteHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let routes: HotRoutes
    /// Requests passed on whose answer has not ended yet.
    private var owed = 0
    /// Whether the parts of the request being read are passed on.
    private var passing = false
    /// The request being read that these routes answer at its end.
    private var taken: HotRequest?

    init(routes: HotRoutes) { self.routes = routes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if owed == 0, let request = routes.accept(head) {
                taken = request
                passing = false
            } else {
                owed += 1
                passing = true
                context.fireChannelRead(data)
            }
        case .body:
            if passing { context.fireChannelRead(data) }
        case .end:
            if passing {
                passing = false
                context.fireChannelRead(data)
            } else if let request = taken {
                taken = nil
                send(routes.answer(request, from: context.channel.remoteAddress), for: request, context: context)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { owed = max(0, owed - 1) }
        context.write(data, promise: promise)
    }

    /// Head, body (not for HEAD) and end in one flush, as Hummingbird writes a whole body.
    private func send(_ answer: HotRoutes.Answer, for request: HotRequest, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        if request.method != .head, !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: answer.body))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Puts a `HotRouteHandler` after Hummingbird's `HTTPConnectionStateHandler` once the
    /// connection's pipeline is complete (Hummingbird adds that handler after the additional ones
    /// it is given), then leaves.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        private let routes: HotRoutes

        init(routes: HotRoutes) { self.routes = routes }

        func channelActive(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            let handler = HotRouteHandler(routes: routes)
            do {
                let state = try pipeline.context(handlerType: HTTPConnectionStateHandler.self)
                try pipeline.addHandler(handler, position: .after(state.handler))
            } catch {
                // Without the state handler (another Hummingbird), here: the answers still go out.
                try? pipeline.addHandler(handler, position: .after(self))
            }
            context.fireChannelActive()
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
