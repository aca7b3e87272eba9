import Foundation
import Logging
import NIOCore

/// Logs one line per request at `.info`: the command's name, the client's address, the outcome and
/// the milliseconds from the request's arrival to its reply; connections opening and closing at
/// `.debug`.
///
/// It sits between the decoder and `CommandHandler`, seeing each request come in and each reply go
/// out: `CommandHandler` answers in order with one write per reply, so the n-th reply is the n-th
/// request's. It logs neither arguments nor replies, so no token reaches the log (AUTH's and
/// HELLO's arguments, USER.ADD's reply); a first word that is no command (a token pasted on its
/// own, say) is logged as `unknown`. `LineServer` adds it only when the logger's level lets
/// `.info` through.
final class RequestLogHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Request
    typealias InboundOut = Request
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var logger: Logger
    /// Requests not answered yet, oldest first: the command's name and when it arrived.
    private var waiting = CircularBuffer<(command: String, arrived: NIODeadline)>()
    /// Every name a request may be logged by (`LineService.commandNames`).
    private static let knownCommands = Set(LineService.commandNames)

    init(logger: Logger) { self.logger = logger }

    func handlerAdded(context: ChannelHandlerContext) {
        logger[metadataKey: "peer"] = .string(context.channel.remoteAddress.map(RequestLogHandler.text) ?? "-")
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.debug("connection opened")
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        logger.debug("connection closed", metadata: ["unanswered": "\(waiting.count)"])
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let request = unwrapInboundIn(data)
        waiting.append((RequestLogHandler.name(of: request), .now()))
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // `CommandHandler` answers a protocol error and closes: the requests still waiting get no
        // reply, and the error's reply answers none of them.
        logger.info("protocol error", metadata: ["unanswered": "\(waiting.count)"])
        waiting.removeAll()
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let reply = unwrapOutboundIn(data)
        // Empty writes flush before a close; a refused client's error answers no request.
        if reply.readableBytes > 0, let (command, arrived) = waiting.popFirst() {
            let nanoseconds = max(0, (NIODeadline.now() - arrived).nanoseconds)
            logger.info(
                "request",
                metadata: [
                    "command": .string(command), "outcome": .string(RequestLogHandler.outcome(of: reply)),
                    "duration_ms": .string(String(format: "%.3f", Double(nanoseconds) / 1e6)),
                ])
        }
        context.write(data, promise: promise)
    }

    /// The request's command in capitals when it is one the server knows, else `unknown`.
    static func name(of request: Request) -> String {
        guard let first = request.arguments.first, first.readableBytes <= 32,
            let text = first.getString(at: first.readerIndex, length: first.readableBytes)
        else { return "unknown" }
        let name = text.uppercased()
        return knownCommands.contains(name) ? name : "unknown"
    }

    /// `ok`, or `error` and the error's code word (`ERR`, `NOPERM`, `WRONGPASS`); the message is
    /// left out, since it may quote what the client sent.
    static func outcome(of reply: ByteBuffer) -> String {
        let bytes = reply.readableBytesView
        if bytes.first == UInt8(ascii: "-") {
            let code = bytes.dropFirst().prefix { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }.prefix(16)
            return "error " + String(decoding: code, as: UTF8.self)
        }
        if bytes.starts(with: #"{"ok":false"#.utf8) { return "error" }
        return "ok"
    }

    /// `address:port`, as clients and logs write it.
    static func text(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return address.protocol == .inet6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
