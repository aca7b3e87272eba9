import Foundation
import NIOPosix
import Synchronization
import TestSupport
import Testing

@testable import HTTPAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `HotRouteHandler` waits for a client that does not read and lets the other connections of its
/// event loop in while it answers a long pipeline: one event loop (`--threads 1`), a client that
/// sends thousands of requests at once, and a second client that asks one question meanwhile.
@Suite(.timeLimit(.minutes(10))) struct HotRouteBackPressureTests {
    /// Every place of the fixture (about 40 KB of JSON an answer).
    static let large = "GET /v1/nearby?lat=41.088154&lon=29.015615&radius=3000&limit=10000 HTTP/1.1\r\nHost: x\r\n\r\n"
    /// A few dozen places.
    static let medium = "GET /v1/nearby?lat=41.088154&lon=29.015615&radius=500 HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Found in review: the hot routes answered a pipeline without waiting for the client to read,
    /// so a client that never read grew the server's memory without bound. Now the answers stop
    /// once the channel is not writable (it holds at most its high watermark and one answer), the
    /// connection stops being read, another connection on the same loop is still answered, and the
    /// output-stall timeout closes the stalled connection.
    @Test func aClientThatDoesNotReadIsNotAnsweredBeyondTheSocket() async throws {
        signal(SIGPIPE, SIG_IGN)
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = HTTPServer(
            directory: fixture.directory, host: "127.0.0.1", port: 0, outputStallSeconds: 3, eventLoopGroup: loop,
            hotRoutes: true)
        let port = try await server.start()
        let probe = try HTTPTestClient(port: port)
        let one = try await probe.exchange(.get("/v1/nearby?lat=41.088154&lon=29.015615&radius=3000&limit=10000"))
        #expect(one.status == 200 && one.body.count > 30_000, "\(one.body.count) bytes")

        let requests = 2_000
        let stalled = try RawClient(port: port, receiveBuffer: 4_096)
        let text = String(repeating: Self.large, count: requests)
        // Threads of their own for the blocking calls: Dispatch's shared pool has a thread a core,
        // and the other suites' clients wait on it.
        Thread.detachNewThread { stalled.send(text) }
        for _ in 0..<600 where server.hotRouteAnswers < 4 { try await Task.sleep(for: .milliseconds(50)) }

        // The loop answers another connection meanwhile.
        let other = try await probe.exchange(.get("/v1/nearby?lat=41.088&lon=29.0156&radius=50"))
        #expect(other.status == 200)
        #expect(server.hotRouteAnswers < requests, "the pipeline is still pending")

        // Until the answers stop coming (the socket's buffers are full).
        var answered = server.hotRouteAnswers
        var still = 0
        for _ in 0..<200 where still < 10 {
            try await Task.sleep(for: .milliseconds(100))
            let now = server.hotRouteAnswers
            still = now == answered ? still + 1 : 0
            answered = now
        }
        #expect(answered < requests / 2, "\(answered) of \(requests) answered to a client that reads nothing")
        // NIO's default high watermark, 64 KiB, plus one answer and its head.
        let bound = 65_536 + one.body.count + 1_024
        #expect(
            server.hotRouteBufferedPeak <= bound, "\(server.hotRouteBufferedPeak) bytes held for a connection")
        // The peak was sampled at all: the channel went unwritable, past NIO's low watermark.
        #expect(server.hotRouteBufferedPeak >= 32_768, "\(server.hotRouteBufferedPeak) bytes: never sampled")

        // The stalled connection is closed once the stall lasts 3 s (the client still reads
        // nothing); the other one stays open.
        for _ in 0..<300 where server.openConnections > 1 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(server.openConnections == 1, "the stalled connection is still open")
        let closed = await stalled.receive(for: 60)
        #expect(closed.closedAfter != nil, "the client did not see its connection closed")
        await server.shutdown()
        try await loop.shutdownGracefully()
    }

    /// Found in review: a client that sends its pipeline and then shuts its side (`nc -N`) got
    /// only the answers the socket had taken when the end of its input reached Hummingbird, which
    /// then closed the connection and dropped the answers still waiting to be sent. Every answer
    /// arrives, then the close.
    @Test func aClientThatStopsSendingGetsEveryAnswerBeforeTheClose() async throws {
        signal(SIGPIPE, SIG_IGN)
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let server = HTTPServer(directory: fixture.directory, host: "127.0.0.1", port: 0, hotRoutes: true)
        let port = try await server.start()
        let requests = 400
        let client = try RawClient(port: port, receiveBuffer: 4_096)
        let text = String(repeating: Self.large, count: requests)
        Thread.detachNewThread {
            client.send(text)
            client.shutdownWriting()
        }
        // Reading starts once the server's answers have filled the socket.
        try await Task.sleep(for: .seconds(1))
        let received = await client.receive(for: 120)
        let answers = received.text.components(separatedBy: "HTTP/1.1 200 OK\r\n").count - 1
        #expect(answers == requests, "\(answers) of \(requests) answers before the close")
        #expect(received.closedAfter != nil, "the connection was not closed after the answers")
        await server.shutdown()
    }

    /// Found in review: a long pipeline was answered inside one read, holding up every other
    /// connection of the event loop until it was done. Now a connection's answers are spread over
    /// turns of the loop: a question asked on another connection while a pipeline of thousands is
    /// being answered is answered before the pipeline is.
    @Test func aLongPipelineLetsTheLoopsOtherConnectionsIn() async throws {
        signal(SIGPIPE, SIG_IGN)
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = HTTPServer(
            directory: fixture.directory, host: "127.0.0.1", port: 0, eventLoopGroup: loop, hotRoutes: true)
        let port = try await server.start()
        // Far more than the loop answers while the other question is asked, even on a loaded
        // machine (10,000 were all answered first once, during a full run on two cores).
        let requests = 200_000
        let pipeline = try RawClient(port: port)
        pipeline.sendDiscardingAnswers(String(repeating: Self.medium, count: requests))
        for _ in 0..<600 where server.hotRouteAnswers < 50 { try await Task.sleep(for: .milliseconds(50)) }
        let before = server.hotRouteAnswers
        #expect(before >= 50 && before < requests, "\(before) answered before the other question")

        let other = try HTTPTestClient(port: port)
        let answer = try await other.exchange(.get("/v1/nearby?lat=41.088&lon=29.0156&radius=50"))
        let after = server.hotRouteAnswers
        #expect(answer.status == 200)
        // Without turns, the rest of the pipeline read so far (up to a read of 4 × 64 KiB, about
        // 2,900 requests) came first.
        #expect(after < requests, "the pipeline was answered before the other question")
        pipeline.stopDiscarding()
        await server.shutdown()
        try await loop.shutdownGracefully()
    }
}
