import NIOCore

/// One connection's commands, in order: decoded requests in, encoded replies out.
///
/// Replies go out in the order the requests came, also when a write waits for its commit: later
/// requests wait in a queue meanwhile (reading pauses when it grows). A client that stops
/// reading its replies makes the connection stop reading requests, and is closed when the stall
/// lasts `outputStallSeconds`. A protocol error is answered `-ERR Protocol error: …` and closes this
/// connection only.
///
/// Replies are flushed once per read, not once per request: a pipeline of 16 requests that came in
/// one read goes out in one `writev` rather than a system call per reply (BENCHMARKS.md has the
/// measurement). They are flushed at once when the channel stops being
/// writable (else it could never become writable again) and when a reply comes later than its read
/// (a write waiting for its commit).
///
/// Consecutive pipelined writes already queued (up to `maximumGroup`) that name distinct records
/// run together (`LineService.executeWrites`): their writes join the directory's queue at once and
/// share a commit instead of waiting for one commit each; replies stay in request order and go out
/// only once every write of the group is stored.
final class CommandHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Request
    typealias OutboundIn = Never
    typealias OutboundOut = ByteBuffer

    private let service: LineService
    private let configuration: ServerConfiguration
    private var session: Session?
    private var queue: [Request] = []
    private var busy = false
    private var closed = false
    private var stallTimer: Scheduled<Void>?
    /// Set by the server's shutdown: close once the queue is empty.
    private var draining = false
    /// Whether the channel reads by itself (`ChannelOptions.autoRead`), as this handler last set it.
    private var reading = true
    /// The most pipelined writes run as one group.
    static let maximumGroup = 1_024
    /// The connection's geo watches (made with the session; their subscriber on the first watch).
    private var watches: ConnectionWatches?
    /// Replies encoded and not yet handed to the channel: the replies of one read go through the
    /// pipeline as one buffer (one allocation, one write), handed over before every flush, before
    /// any other write, and whenever it holds `handOverBytes`.
    private var output: ByteBuffer?
    /// The most reply bytes kept before they are handed to the channel (which then counts them
    /// against its high-water mark).
    static let handOverBytes = 1 << 16
    /// Whether each reply goes to the channel on its own (for `RequestLogHandler`, which pairs
    /// each write with a request).
    private let handsOverEachReply: Bool

    /// - Parameter handsOverEachReply: write each reply to the channel as it is encoded rather
    ///   than those of a read together (a request log needs one write per reply).
    init(service: LineService, configuration: ServerConfiguration, handsOverEachReply: Bool = false) {
        self.service = service
        self.configuration = configuration
        self.handsOverEachReply = handsOverEachReply
    }

    func channelActive(context: ChannelHandlerContext) {
        guard
            let session = service.connect(
                maximumClients: configuration.maximumClients, endpoint: CommandHandler.endpoint(context.channel))
        else {
            closed = true
            var buffer = context.channel.allocator.buffer(capacity: 64)
            buffer.writeString("-ERR max number of clients reached\r\n")
            context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in context.close(promise: nil) }
            return
        }
        let channel = context.channel
        let watches = ConnectionWatches(capacity: configuration.watchQueue) {
            // On the applying thread: hop to the connection's loop, which writes the events.
            channel.eventLoop.execute {
                guard let context = try? channel.pipeline.syncOperations.context(handlerType: CommandHandler.self),
                    let handler = context.handler as? CommandHandler
                else { return }
                handler.writeWatchEvents(context: context)
            }
        }
        self.watches = watches
        var connected = session
        connected.watches = watches
        connected.userQueryLimit = configuration.userQueryLimit
        connected.clientAddress = context.channel.remoteAddress?.ipAddress
        self.session = connected
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let session { service.disconnect(session) }
        session = nil
        closed = true
        stallTimer?.cancel()
        // Always: the hub forgets the watches and the subscriber's queue is freed.
        if let subscriber = watches?.current { service.directory.unwatchAll(for: subscriber) }
        watches = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        queue.append(unwrapInboundIn(data))
        // A client that pipelines faster than replies go out waits for them.
        if queue.count > 1_024 { setAutoRead(false, context: context) }
        process(context: context, flush: false)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushOutput(context: context)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !closed else { return }
        closed = true
        let message: String
        if let error = error as? LineProtocolError {
            message = "ERR " + error.description
        } else {
            message = "ERR Protocol error: \(error)"
        }
        write(.error(message), context: context)
        flushOutput(context: context)
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A connection that watches only listens (as a Redis subscriber, it is never idle).
        if let event = event as? IdleStateHandler.IdleStateEvent, event == .read, !busy, queue.isEmpty,
            (watches?.count ?? 0) == 0
        {
            closed = true
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stallTimer?.cancel()
            stallTimer = nil
            setAutoRead(true, context: context)
            process(context: context, flush: true)
            writeWatchEvents(context: context)
        }
        if !context.channel.isWritable, stallTimer == nil, configuration.outputStallSeconds > 0 {
            setAutoRead(false, context: context)
            let channel = context.channel
            stallTimer = context.eventLoop.scheduleTask(in: .seconds(Int64(configuration.outputStallSeconds))) {
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// Writes the watch events queued for this connection, between replies (on the loop, never
    /// inside one), while the channel is writable: when it is not, they stay in the subscriber's
    /// bounded queue (which closes it when the client never catches up) and this resumes when the
    /// channel is writable again. A subscriber closed for falling behind gets its final `closed`
    /// events written, an error, and the connection closed.
    func writeWatchEvents(context: ChannelHandlerContext) {
        guard !closed, let watches, let subscriber = watches.current else { return }
        handOver(context: context)
        var wrote = false
        while context.channel.isWritable || subscriber.isClosed {
            let events = subscriber.take()
            if events.isEmpty { break }
            var buffer = context.channel.allocator.buffer(capacity: 192 * events.count)
            let format = self.format
            for event in events {
                // A watch ended by UNWATCH may still have had events queued: none follow it.
                guard let channel = watches.channel(of: event.watch) else { continue }
                WatchEventText.write(event, channel: channel, format: format, to: &buffer)
                if event.kind == .closed { _ = watches.remove(event.watch) }
            }
            if buffer.readableBytes > 0 {
                context.write(wrapOutboundOut(buffer), promise: nil)
                wrote = true
            }
        }
        if subscriber.isClosed {
            closed = true
            write(
                .error(
                    "ERR closing the connection: its watch events were not read in time (more than "
                        + "\(watches.capacity) waiting)"), context: context)
            flushOutput(context: context)
            context.close(promise: nil)
            return
        }
        if wrote { context.flush() }
    }

    /// The format replies and events are written in now.
    private var format: RESPReplyEncoder.Format {
        session?.replyFormat ?? .resp2
    }

    /// Turns reading on or off, only when that changes it (setting an option costs a future).
    private func setAutoRead(_ on: Bool, context: ChannelHandlerContext) {
        guard reading != on else { return }
        reading = on
        context.channel.setOption(ChannelOptions.autoRead, value: on).whenComplete { _ in }
    }

    /// Closes the connection once every queued request is answered (graceful shutdown).
    func drain(context: ChannelHandlerContext) {
        draining = true
        if !busy && queue.isEmpty {
            closed = true
            flushOutput(context: context)
            context.close(promise: nil)
        }
    }

    /// Answers queued requests in order until one has to wait (a write) or the channel is full.
    ///
    /// - Parameter flush: whether to flush what was written; `channelRead` leaves that to
    ///   `channelReadComplete`, so that a read's replies go out together.
    private func process(context: ChannelHandlerContext, flush: Bool) {
        while !busy, !closed, !queue.isEmpty, context.channel.isWritable, let session {
            // In watch mode every command goes through `execute`, which refuses writes there.
            if session.transaction == nil, !LineService.inWatchMode(session), let group = takeWriteGroup() {
                busy = true
                let eventLoop = context.eventLoop
                let bound = NIOLoopBound((self, context), eventLoop: eventLoop)
                service.executeWrites(group, session: session) { replies in
                    if eventLoop.inEventLoop {
                        bound.value.0.finishGroup(replies, context: bound.value.1, resume: false)
                    } else {
                        eventLoop.execute { bound.value.0.finishGroup(replies, context: bound.value.1, resume: true) }
                    }
                }
                continue
            }
            let request = queue.removeFirst()
            guard let arguments = CommandHandler.strings(request.arguments) else {
                write(CommandHandler.binaryReply(request), context: context)
                continue
            }
            busy = true
            let eventLoop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: eventLoop)
            // The completion may come at once (reads) or from the writer thread (writes).
            service.execute(arguments, session: session) { reply, updated in
                if eventLoop.inEventLoop {
                    // At once, inside this loop: it goes on with the next request itself.
                    bound.value.0.finish(reply, session: updated, context: bound.value.1, resume: false)
                } else {
                    eventLoop.execute {
                        bound.value.0.finish(reply, session: updated, context: bound.value.1, resume: true)
                    }
                }
            }
        }
        if flush || !context.channel.isWritable { flushOutput(context: context) }
        if queue.count < 512, !closed, context.channel.isWritable { setAutoRead(true, context: context) }
        if draining, !busy, queue.isEmpty, !closed {
            closed = true
            // Unflushed replies would be dropped by the close.
            flushOutput(context: context)
            context.close(promise: nil)
        }
    }

    /// Two or more writes at the head of the queue that name distinct records
    /// (`LineService.writeKeys`), taken off it; nil when the head is not such a run.
    private func takeWriteGroup() -> [[String]]? {
        var commands: [[String]] = []
        var keys = Set<String>()
        while commands.count < queue.count, commands.count < CommandHandler.maximumGroup {
            let request = queue[commands.count]
            guard let first = request.arguments.first, CommandHandler.mayBeGroupable(first),
                let name = first.getString(at: first.readerIndex, length: first.readableBytes),
                LineService.groupableWrites.contains(name.uppercased()),
                let arguments = CommandHandler.strings(request.arguments),
                let named = LineService.writeKeys(arguments), keys.isDisjoint(with: named)
            else { break }
            keys.formUnion(named)
            commands.append(arguments)
        }
        guard commands.count > 1 else { return nil }
        queue.removeFirst(commands.count)
        return commands
    }

    /// Whether a command name may be one of `LineService.groupableWrites`, from its length and
    /// first letter alone: false for the reads that come in pipelines (GEOSEARCH, NEARBY, PING, …),
    /// which then need no text made of their name.
    static func mayBeGroupable(_ name: ByteBuffer) -> Bool {
        guard let first = name.getInteger(at: name.readerIndex, as: UInt8.self) else { return false }
        switch (ASCII.lowercased(first), name.readableBytes) {
        case (UInt8(ascii: "g"), 6), (UInt8(ascii: "z"), 4), (UInt8(ascii: "p"), 9), (UInt8(ascii: "u"), 8...15):
            return true
        default:
            return false
        }
    }

    private func finishGroup(_ replies: [RESPReply], context: ChannelHandlerContext, resume: Bool) {
        busy = false
        guard !closed, session != nil else { return }
        for reply in replies { write(reply, context: context) }
        if resume { process(context: context, flush: true) }
    }

    private func finish(_ reply: RESPReply, session updated: Session, context: ChannelHandlerContext, resume: Bool) {
        busy = false
        guard !closed, session != nil else { return }
        session = updated
        write(reply, context: context)
        if updated.closing {
            closed = true
            handOver(context: context)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        if resume { process(context: context, flush: true) }
    }

    /// Encodes a reply after those not yet handed over (as Redis appends a reply to its client's
    /// output buffer); a full buffer goes to the channel at once.
    private func write(_ reply: RESPReply, context: ChannelHandlerContext) {
        var buffer = output ?? context.channel.allocator.buffer(capacity: 1_024)
        // Not held twice while it grows.
        output = nil
        RESPReplyEncoder.write(reply, format: format, to: &buffer)
        if handsOverEachReply || buffer.readableBytes >= CommandHandler.handOverBytes {
            context.write(wrapOutboundOut(buffer), promise: nil)
        } else {
            output = buffer
        }
    }

    /// Hands the replies encoded so far to the channel (not flushed).
    private func handOver(context: ChannelHandlerContext) {
        guard let buffer = output else { return }
        output = nil
        context.write(wrapOutboundOut(buffer), promise: nil)
    }

    /// Hands the replies over and flushes them.
    private func flushOutput(context: ChannelHandlerContext) {
        handOver(context: context)
        context.flush()
    }

    /// How other connections reach this one: its addresses, a close, and a write that goes out past
    /// this handler and the request log (a `MONITOR` line answers no request of this connection).
    static func endpoint(_ channel: Channel) -> ClientRegistry.Endpoint {
        ClientRegistry.Endpoint(
            address: channel.remoteAddress.map(RequestLogHandler.text) ?? "",
            localAddress: channel.localAddress.map(RequestLogHandler.text) ?? "",
            close: { channel.close(promise: nil) },
            send: { line in
                channel.eventLoop.execute {
                    let decoder = ByteToMessageHandler<RESPRequestDecoder>.self
                    guard let context = try? channel.pipeline.syncOperations.context(handlerType: decoder) else {
                        return
                    }
                    context.writeAndFlush(NIOAny(channel.allocator.buffer(string: line)), promise: nil)
                }
            })
    }

    /// The reply to a request with an argument that is not UTF-8 text. Redis is binary-safe, and
    /// `ECHO` and `PING` give their payload back byte for byte (`redis-cli --pipe` ends its input
    /// with `ECHO` of 20 random bytes and waits for them); every other command's arguments are
    /// names, ids, numbers and options, which are text.
    static func binaryReply(_ request: Request) -> RESPReply {
        if request.arguments.count == 2, request.isCommand("ECHO") || request.isCommand("PING") {
            return .bulkString(request.arguments[1])
        }
        return .error("ERR arguments must be UTF-8 text")
    }

    /// The arguments as text, or nil when one is not valid UTF-8.
    static func strings(_ arguments: [ByteBuffer]) -> [String]? {
        var strings: [String] = []
        strings.reserveCapacity(arguments.count)
        for argument in arguments {
            // Decoded with repair, then kept only if its bytes come back unchanged (valid UTF-8);
            // `String(validating:as:)` would do both at once but is generic code, slow per call,
            // and needs macOS 15.
            let text = argument.withUnsafeReadableBytes { raw in
                raw.withMemoryRebound(to: UInt8.self) { bytes -> String? in
                    let text = String(decoding: bytes, as: UTF8.self)
                    // ASCII (nearly every argument) is valid as it is: no comparison with the
                    // decoded text.
                    var high: UInt8 = 0
                    for byte in bytes { high |= byte }
                    if high < 0x80 { return text }
                    return text.utf8.count == bytes.count && text.utf8.elementsEqual(bytes) ? text : nil
                }
            }
            guard let text else { return nil }
            strings.append(text)
        }
        return strings
    }
}
