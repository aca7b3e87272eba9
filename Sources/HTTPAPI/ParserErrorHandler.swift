import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser refuses with a problem document instead of Hummingbird's
/// bare 400: 414 when the request line and headers overflow the parser's limit (NIO's llhttp
/// stops at 80 KiB; a long URL is the usual cause), 400 for anything else it cannot parse. The
/// connection is closed after the answer, since the parser cannot find where the next request
/// starts.
///
/// While a request that came before the bad one on the same connection (pipelined) is still owed
/// its answer, or while a request's body is being read, the error is left to Hummingbird: it
/// answers what it owes first, then sends its bare 400 and closes. Answering here at once would
/// overtake (and lose) the answer owed.
final class ParserErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// llhttp's limit on a request's line and headers together, bytes (HTTP_MAX_HEADER_SIZE).
    static let headLimitBytes = 80 * 1024

    /// Requests passed on whose response has not ended yet.
    private var owed = 0
    /// Whether a request's head was passed on and its end not yet.
    private var inBody = false
    private var sent = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            owed += 1
            inBody = true
        case .end: inBody = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { owed = max(0, owed - 1) }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, owed == 0, !inBody else {
            context.fireErrorCaught(error)
            return
        }
        guard !sent else { return }
        sent = true
        let refusal: HTTPAPIError =
            parserError == .headerOverflow
            ? .requestTooLong(limitBytes: Self.headLimitBytes)
            : .malformedRequest(status: .badRequest, cause: "\(parserError)")
        let (head, body) = refusal.closingResponseParts
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
