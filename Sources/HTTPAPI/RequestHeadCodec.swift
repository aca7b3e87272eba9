import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// NIO's HTTP/1 parts to the HTTP types Hummingbird reads, and back: `HTTP1ToHTTPServerCodec`'s
/// conversions (plain `http`, cookies not split), with one cut. A request target in origin form
/// (`/v1/nearby?…`, every target but `*` and absolute URLs) is the request's path as it is: the
/// library's codec finds that out by parsing each target as a URL, which costs more than the rest
/// of the request's head together. Other targets go through the library's conversion.
///
/// `HotRouteHandler.Installer` puts it in the place of Hummingbird's `HTTP1ToHTTPServerCodec`.
final class RequestHeadCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            do {
                context.fireChannelRead(wrapInboundOut(.head(try Self.request(head))))
            } catch {
                context.fireErrorCaught(error)
            }
        case .body(let body): context.fireChannelRead(wrapInboundOut(.body(body)))
        case .end(let trailers):
            context.fireChannelRead(wrapInboundOut(.end(trailers.map { HTTPFields($0, splitCookie: false) })))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response): context.write(wrapOutboundOut(.head(HTTPResponseHead(response))), promise: promise)
        case .body(let body): context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
        case .end(let trailers): context.write(wrapOutboundOut(.end(trailers.map(HTTPHeaders.init))), promise: promise)
        }
    }

    /// The request `HTTP1ToHTTPServerCodec` makes of `head`.
    ///
    /// - Throws: the library's conversion error for a method the HTTP types do not take.
    static func request(_ head: HTTPRequestHead) throws -> HTTPRequest {
        // A URL needs a scheme, which starts with a letter: a target starting with `/` has none,
        // and the library's conversion keeps such a target as the path.
        guard head.uri.utf8.first == UInt8(ascii: "/") else {
            return try HTTPRequest(head, secure: false, splitCookie: false)
        }
        return HTTPRequest(
            method: try HTTPRequest.Method(head.method), scheme: "http", authority: head.headers["Host"].first,
            path: head.uri, headerFields: HTTPFields(head.headers, splitCookie: false))
    }
}
