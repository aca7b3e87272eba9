import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Answers the requests `HotRoutes` takes on the connection's event loop, before Hummingbird's
/// request task sees them; passes every other request on, whole, to Hummingbird.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler` (`Installer` puts it there), so that
/// the idle timeout and a graceful shutdown see the requests it answers. Answers leave in request
/// order: while a request passed on is owed its answer, the next ones are passed on too
/// (Hummingbird answers a connection's requests one after another).
///
/// What is read waits in a queue, in order, and leaves it as Hummingbird's path would let it:
/// - Back-pressure: an answer is written only while the channel is writable, and the connection
///   reads no more (the outbound `read` is held) while the channel is not writable or requests
///   wait in the queue. A client that pipelines requests and never reads its answers stops being
///   read once its answers fill the socket; what waits in the process is then at most one read's
///   requests and the channel's high watermark plus one answer (`OutputStallHandler` closes the
///   connection when the stall lasts).
/// - Fairness: at most `answersPerTurn` answers in one turn of the event loop; the rest are
///   answered in later turns (`scheduleTurn`), so that a long pipeline lets the loop's other
///   connections be served between its answers.
///
/// The end of the input and errors met while requests wait are passed on after them, in order.
final class HotRouteHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The most answers written in one turn of the event loop.
    static let answersPerTurn = 16
    /// How long after a turn that spent its budget the next one is due (`scheduleTurn`): long
    /// enough to be later than the end of the loop's turn, short against an answer's time.
    static let turnDelay = TimeAmount.microseconds(20)

    /// What was read and waits to be answered or passed on.
    private enum Waiting {
        /// A request these routes answer, read to its end.
        case answer(HotRequest)
        /// A part of a request passed on to Hummingbird.
        case part(NIOAny)
        /// An inbound event (the end of the input) to pass on after what came before it.
        case event(any Sendable)
        /// An error to pass on after what came before it.
        case error(any Error)
    }

    private let routes: HotRoutes
    /// The context of the HTTP/1 request decoder, which sits right after the response encoder:
    /// an answer's head and body written from it go to the encoder at once, past the handlers
    /// between (`send`). Nil (everything goes the whole way) when the pipeline has no such decoder,
    /// and once the channel is gone (a context refers to the whole pipeline).
    private var encoderEntry: ChannelHandlerContext?
    /// Requests passed on (or waiting to be) whose answer has not ended yet.
    private var owed = 0
    /// Whether the parts of the request being read are passed on.
    private var passing = false
    /// The request being read that these routes answer at its end.
    private var taken: HotRequest?
    private var waiting = CircularBuffer<Waiting>()
    /// Answers written since the current turn of the event loop began.
    private var answeredThisTurn = 0
    /// A later turn is scheduled to go on with the queue.
    private var turnScheduled = false
    /// A `read` from the pipeline's tail is held until the queue is empty and the channel writable.
    private var readHeld = false
    /// The channel is gone (or the handler removed): nothing more is written.
    private var finished = false
    /// Answers were written and not yet flushed.
    private var unflushed = false
    /// An error waiting in the queue is being passed on again from the pipeline's head.
    private var refiring = false
    /// The connection's remote address and its IP address as text, made once (`client(of:)`).
    private var peerText: (peer: SocketAddress, text: String?)?

    init(routes: HotRoutes, encoderEntry: ChannelHandlerContext? = nil) {
        self.routes = routes
        self.encoderEntry = encoderEntry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if owed == 0, let request = routes.accept(head) {
                taken = request
                passing = false
            } else {
                owed += 1
                passing = true
                waiting.append(.part(data))
            }
        case .body:
            if passing { waiting.append(.part(data)) }
        case .end:
            if passing {
                passing = false
                waiting.append(.part(data))
            } else if let request = taken {
                taken = nil
                waiting.append(.answer(request))
            }
        }
        // The read's end flushes and passes on the end of the read.
        if !turnScheduled { work(context: context, inRead: true) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context: context)
        if waiting.isEmpty, !turnScheduled { answeredThisTurn = 0 }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            if waiting.isEmpty {
                resumeReading(context: context)
            } else {
                scheduleTurn(context: context)
            }
        } else {
            // Else the channel could never become writable again.
            flushIfNeeded(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !waiting.isEmpty, let event = event as? ChannelEvent, event == .inputClosed {
            waiting.append(.event(event))
            flushIfNeeded(context: context)
            return
        }
        flushIfNeeded(context: context)
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard waiting.isEmpty || refiring else {
            waiting.append(.error(error))
            return
        }
        flushIfNeeded(context: context)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { finish() }

    func read(context: ChannelHandlerContext) {
        if waiting.isEmpty, context.channel.isWritable {
            context.read()
        } else {
            readHeld = true
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { owed = max(0, owed - 1) }
        context.write(data, promise: promise)
    }

    /// `peer.ipAddress`, made once a connection (a connection's remote address does not change;
    /// the text is made by `inet_ntop` and a new `String`).
    private func client(of peer: SocketAddress?) -> String? {
        guard let peer else { return nil }
        if let peerText, peerText.peer == peer { return peerText.text }
        let text = peer.ipAddress
        peerText = (peer, text)
        return text
    }

    private func finish() {
        finished = true
        encoderEntry = nil
        waiting.removeAll()
    }

    /// Answers and passes on what waits, in order, while the channel is writable and this turn's
    /// budget lasts; reads again once nothing waits. Within a read (`inRead`) the read's end
    /// flushes and passes on the end of the read; in a turn of its own, this does both.
    private func work(context: ChannelHandlerContext, inRead: Bool) {
        var passed = false
        while !finished, let next = waiting.first {
            if case .answer(let request) = next {
                guard context.channel.isWritable, answeredThisTurn < Self.answersPerTurn else { break }
                waiting.removeFirst()
                answeredThisTurn += 1
                let peer = context.channel.remoteAddress
                send(routes.answer(request, from: peer, client: client(of: peer)), for: request, context: context)
                continue
            }
            waiting.removeFirst()
            switch next {
            case .answer: break
            case .part(let data):
                context.fireChannelRead(data)
                passed = true
            case .event(let event):
                flushIfNeeded(context: context)
                context.fireUserInboundEventTriggered(event)
            case .error(let error):
                flushIfNeeded(context: context)
                // From the pipeline's head: `ParserErrorHandler` answers a parser's error once
                // nothing is owed any more.
                refiring = true
                context.pipeline.syncOperations.fireErrorCaught(error)
                refiring = false
            }
        }
        if !inRead {
            flushIfNeeded(context: context)
            if passed { context.fireChannelReadComplete() }
        }
        if finished { return }
        if waiting.isEmpty {
            resumeReading(context: context)
        } else if context.channel.isWritable {
            // This turn's budget is spent: a later turn goes on (else a change of writability).
            scheduleTurn(context: context)
        }
    }

    /// Flushes the answers written since the last flush, noting how many bytes the channel holds.
    private func flushIfNeeded(context: ChannelHandlerContext) {
        guard unflushed else { return }
        unflushed = false
        routes.noteBuffered(in: context.channel)
        context.flush()
    }

    /// Passes on the `read` held, if any, when the channel is writable.
    private func resumeReading(context: ChannelHandlerContext) {
        guard readHeld, !finished, context.channel.isWritable else { return }
        readHeld = false
        context.read()
    }

    /// Goes on with the queue in a later turn of the event loop (once), after the loop has
    /// looked for I/O: a task submitted with `execute` (or due now) would run in the same turn,
    /// since the loop runs every task ready before it polls its sockets again; one due
    /// `turnDelay` later is not ready yet when the turn ends.
    private func scheduleTurn(context: ChannelHandlerContext) {
        guard !turnScheduled, !finished else { return }
        turnScheduled = true
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.turnDelay) {
            self.turnScheduled = false
            self.answeredThisTurn = 0
            guard !self.finished else { return }
            self.work(context: context, inRead: false)
        }
    }

    /// Head, body (not for HEAD) and end, as Hummingbird writes a whole body; flushed later.
    ///
    /// The head and the body go straight to the HTTP/1 encoder as its own parts (`encoderEntry`,
    /// the same conversion as `HTTP1ToHTTPServerCodec`'s, so the same bytes): the handlers between
    /// do nothing with them (none of them watches an answer's head or body but for an event
    /// stream's, which is never a hot answer). The end goes the whole way, so that every handler
    /// that counts answers (`HTTPConnectionStateHandler`'s idle timeout and graceful shutdown,
    /// `ParserErrorHandler`) sees it, after the head and body, in order.
    ///
    /// A write can make the channel unwritable, and `channelWritabilityChanged` then flushes what
    /// was written: the answer is marked unflushed after its last part, so that the parts written
    /// after such a flush are flushed too.
    private func send(_ answer: HotRoutes.Answer, for request: HotRequest, context: ChannelHandlerContext) {
        let hasBody = request.method != .head && answer.body.readableBytes > 0
        if let encoderEntry {
            encoderEntry.write(NIOAny(HTTPServerResponsePart.head(Self.encoderHead(answer.head))), promise: nil)
            if hasBody {
                encoderEntry.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(answer.body))), promise: nil)
            }
        } else {
            context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
            if hasBody { context.write(wrapOutboundOut(.body(answer.body)), promise: nil) }
        }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        unflushed = true
    }

    /// `head` as the HTTP/1 encoder takes it: the conversion `HTTP1ToHTTPServerCodec` applies
    /// (HTTP/1.1, the status's code and reason, the fields in order by their names as written).
    static func encoderHead(_ head: HTTPResponse) -> HTTPResponseHead { HTTPResponseHead(head) }

    /// Puts a `HotRouteHandler` after Hummingbird's `HTTPConnectionStateHandler` once the
    /// connection's pipeline is complete (Hummingbird adds that handler after the additional ones
    /// it is given), and a `RequestHeadCodec` in the place of its `HTTP1ToHTTPServerCodec`, then
    /// leaves.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        private let routes: HotRoutes

        init(routes: HotRoutes) { self.routes = routes }

        func channelActive(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            let handler = HotRouteHandler(routes: routes, encoderEntry: Self.encoderEntry(pipeline))
            do {
                let state = try pipeline.context(handlerType: HTTPConnectionStateHandler.self)
                try pipeline.addHandler(handler, position: .after(state.handler))
            } catch {
                // Without the state handler (another Hummingbird), here: the answers still go out.
                try? pipeline.addHandler(handler, position: .after(self))
            }
            if let codec = try? pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self),
                (try? pipeline.addHandler(RequestHeadCodec(), position: .after(codec.handler))) != nil
            {
                pipeline.removeHandler(context: codec, promise: nil)
            }
            context.fireChannelActive()
            pipeline.removeHandler(context: context, promise: nil)
        }

        /// The request decoder's context, where a hot answer's head and body are written so that
        /// they reach the encoder at once: only when no handler between the decoder and this one
        /// must see every part of an answer (NIO's pipelining assistant, protocol error handler and
        /// response-header validator, which Hummingbird leaves out today), else nil (every part
        /// then goes through the whole pipeline).
        static func encoderEntry(_ pipeline: ChannelPipeline.SynchronousOperations) -> ChannelHandlerContext? {
            guard (try? pipeline.context(handlerType: HTTPServerPipelineHandler.self)) == nil,
                (try? pipeline.context(handlerType: HTTPServerProtocolErrorHandler.self)) == nil,
                (try? pipeline.context(handlerType: NIOHTTPResponseHeadersValidator.self)) == nil
            else { return nil }
            return try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
        }
    }
}
