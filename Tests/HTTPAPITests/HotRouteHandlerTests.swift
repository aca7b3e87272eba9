import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing

@testable import HTTPAPI

/// `HotRouteHandler` and `OutputStallHandler` on an `EmbeddedChannel`, whose event loop runs only
/// when the test says: how many answers one read gets, when reading stops and resumes, and the
/// order of answers and requests passed on.
@Suite struct HotRouteHandlerTests {
    /// Counts the `read`s that reach the socket's side of the pipeline.
    final class ReadCounter: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = NIOAny
        var reads = 0

        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// A channel with `ReadCounter` then `HotRouteHandler` over the fixture's places.
    static func channel(_ fixture: HotRoutesFixture) throws -> (EmbeddedChannel, ReadCounter) {
        let routes = HotRoutes(
            api: VicinityAPI(directory: fixture.directory), limiter: nil, logger: nil, serverName: nil)
        let counter = ReadCounter()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([counter, HotRouteHandler(routes: routes)])
        return (channel, counter)
    }

    /// A GET of `/v1/nearby` whose answer echoes `limit` (1 to 10,000), and its end.
    static func nearby(limit: Int) -> [HTTPRequestPart] {
        let path = "/v1/nearby?lat=41.088154&lon=29.015615&radius=200&limit=\(limit)"
        return [.head(HTTPRequest(method: .get, scheme: nil, authority: "x", path: path)), .end(nil)]
    }

    /// `parts` in one read: every part, then the read's end.
    static func read(_ parts: [HTTPRequestPart], into channel: EmbeddedChannel) {
        for part in parts { channel.pipeline.syncOperations.fireChannelRead(NIOAny(part)) }
        channel.pipeline.syncOperations.fireChannelReadComplete()
    }

    /// The `limit` each answer written so far echoes, in order.
    static func answeredLimits(_ channel: EmbeddedChannel) throws -> [Int] {
        var limits: [Int] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
            guard case .body(let buffer) = part else { continue }
            let text = String(buffer: buffer)
            let limit = text.firstRange(of: "\"limit\":").map { text[$0.upperBound...].prefix { $0.isNumber } }
            limits.append(Int(limit ?? "") ?? -1)
        }
        return limits
    }

    @Test func oneReadGetsABoundedNumberOfAnswersAndTheRestFollowInOrder() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let (channel, _) = try Self.channel(fixture)
        let count = 5 * HotRouteHandler.answersPerTurn + 3
        let perTurn = HotRouteHandler.answersPerTurn
        Self.read((1...count).flatMap { Self.nearby(limit: $0) }, into: channel)
        #expect(try Self.answeredLimits(channel) == Array(1...perTurn))
        // Nothing more in this turn of the loop, the next ones later.
        channel.embeddedEventLoop.run()
        #expect(try Self.answeredLimits(channel).isEmpty)
        for turn in 1..<5 {
            channel.embeddedEventLoop.advanceTime(by: HotRouteHandler.turnDelay)
            #expect(try Self.answeredLimits(channel) == Array((turn * perTurn + 1)...((turn + 1) * perTurn)))
        }
        channel.embeddedEventLoop.advanceTime(by: HotRouteHandler.turnDelay)
        #expect(try Self.answeredLimits(channel) == Array((5 * perTurn + 1)...count))
        _ = try channel.finish()
    }

    /// Makes the channel unwritable when an answer's head is written through it, as a socket's
    /// channel does when that write takes its unsent bytes past the high watermark.
    final class WatermarkAtHead: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart
        let channel: EmbeddedChannel

        init(channel: EmbeddedChannel) { self.channel = channel }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            context.write(data, promise: promise)
            if case .head = unwrapOutboundIn(data), channel.isWritable {
                channel.isWritable = false
                channel.pipeline.syncOperations.fireChannelWritabilityChanged()
            }
        }
    }

    /// Found in review: the writability change that an answer's head causes flushed the answers
    /// written so far and marked nothing left to flush, so the head's body and end, written next,
    /// stayed unflushed for good (the client waited for the idle timeout).
    @Test func anAnswerWhoseHeadMakesTheChannelUnwritableIsFlushedWhole() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let (channel, _) = try Self.channel(fixture)
        try channel.pipeline.syncOperations.addHandler(WatermarkAtHead(channel: channel), position: .first)
        // Two answers in one read: the second's head crosses the watermark after the first one was
        // written and not yet flushed.
        Self.read(Self.nearby(limit: 1), into: channel)
        #expect(try Self.answeredLimits(channel) == [1])
        channel.isWritable = true
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        Self.read(Self.nearby(limit: 2) + Self.nearby(limit: 3), into: channel)
        var parts: [String] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
            switch part {
            case .head: parts.append("head")
            case .body: parts.append("body")
            case .end: parts.append("end")
            }
        }
        #expect(parts == ["head", "body", "end"], "\(parts)")
        _ = try channel.finish()
    }

    @Test func noAnswersWhileTheChannelIsNotWritableAndNoReadsWhileRequestsWait() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let (channel, counter) = try Self.channel(fixture)
        channel.isWritable = false
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        Self.read((1...3).flatMap { Self.nearby(limit: $0) }, into: channel)
        channel.read()
        channel.embeddedEventLoop.run()
        #expect(try Self.answeredLimits(channel).isEmpty)
        #expect(counter.reads == 0, "read while answers wait")

        channel.isWritable = true
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: HotRouteHandler.turnDelay)
        #expect(try Self.answeredLimits(channel) == [1, 2, 3])
        #expect(counter.reads == 1, "the read held is passed on once the queue is empty")
        channel.read()
        #expect(counter.reads == 2)
        _ = try channel.finish()
    }

    /// A request the routes leave to Hummingbird (`/healthz`) is passed on after the answers owed
    /// before it, and the hot requests after it are passed on too until its answer is written.
    @Test func requestsAfterOnePassedOnWaitForItsAnswer() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let (channel, _) = try Self.channel(fixture)
        let health: [HTTPRequestPart] = [
            .head(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/healthz")), .end(nil),
        ]
        Self.read(Self.nearby(limit: 1) + health + Self.nearby(limit: 2), into: channel)
        #expect(try Self.answeredLimits(channel) == [1])
        var passed: [String] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .head(let head) = part { passed.append(head.path ?? "") }
        }
        #expect(passed == ["/healthz", "/v1/nearby?lat=41.088154&lon=29.015615&radius=200&limit=2"])
        // Hummingbird's two answers go out through the handler; then the routes answer again.
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        _ = try Self.answeredLimits(channel)
        Self.read(Self.nearby(limit: 3), into: channel)
        #expect(try Self.answeredLimits(channel) == [3])
        _ = try channel.finish()
    }

    /// The end of the input waits behind the requests read before it.
    @Test func theEndOfTheInputFollowsTheAnswersOwed() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let (channel, _) = try Self.channel(fixture)
        final class EventRecorder: ChannelInboundHandler, RemovableChannelHandler {
            typealias InboundIn = NIOAny
            var inputClosed = false
            func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
                if let event = event as? ChannelEvent, event == .inputClosed { inputClosed = true }
            }
        }
        let recorder = EventRecorder()
        try channel.pipeline.syncOperations.addHandler(recorder)
        let count = HotRouteHandler.answersPerTurn + 1
        Self.read((1...count).flatMap { Self.nearby(limit: $0) }, into: channel)
        channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(!recorder.inputClosed)
        channel.embeddedEventLoop.advanceTime(by: HotRouteHandler.turnDelay)
        #expect(recorder.inputClosed)
        #expect(try Self.answeredLimits(channel) == Array(1...count))
        _ = try channel.finish()
    }

    @Test func theOutputStallHandlerClosesAConnectionLeftUnwritable() throws {
        let channel = EmbeddedChannel(handler: OutputStallHandler(seconds: 3))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.isWritable = false
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        // Writable again within the time: the count starts afresh at the next stall.
        channel.isWritable = true
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        channel.isWritable = false
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// Hot answers' head and body go straight to the encoder only in a pipeline without NIO's
    /// pipelining assistant, protocol error handler and header validator, which must see every
    /// part of an answer.
    @Test func answersSkipToTheEncoderOnlyWhereNoHandlerMustSeeEveryPart() throws {
        let plain = EmbeddedChannel()
        // As Hummingbird's HTTP1Channel configures it.
        try plain.pipeline.syncOperations.configureHTTPServerPipeline(
            withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false)
        #expect(HotRouteHandler.Installer.encoderEntry(plain.pipeline.syncOperations) != nil)
        for (assistance, errors, validation) in [(true, false, false), (false, true, false), (false, false, true)] {
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: assistance, withErrorHandling: errors,
                withOutboundHeaderValidation: validation)
            #expect(HotRouteHandler.Installer.encoderEntry(channel.pipeline.syncOperations) == nil)
        }
        _ = try plain.finish()
    }
}
