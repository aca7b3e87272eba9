import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser refuses with a problem document instead of Hummingbird's
/// bare 400: 414 when the request line and headers overflow the parser's limit (NIO's llhttp
/// stops at 80 KiB; a long URL is the usual cause), 400 for anything else it cannot parse. The
/// connection is closed after the answer, since the parser cannot find where the next request
/// starts.
final class ParserErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// llhttp's limit on a request's line and headers together, bytes (HTTP_MAX_HEADER_SIZE).
    static let headLimitBytes = 80 * 1024

    private var answered = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let problem: HTTPAPIError =
            parserError == .headerOverflow
            ? .requestTooLong(limitBytes: Self.headLimitBytes)
            : .malformedRequest(status: .badRequest, cause: "\(parserError)")
        let (head, body) = problem.closingResponseParts
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
