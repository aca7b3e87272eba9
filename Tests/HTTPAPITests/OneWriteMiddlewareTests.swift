import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import HTTPAPI

/// A body of known length leaves in one piece (one write after the head); others as they came;
/// a body that fails or lies about its length is a problem+json 500.
@Suite struct OneWriteMiddlewareTests {
    /// What a body writes, piece by piece.
    final class Recorder: ResponseBodyWriter {
        var pieces: [String] = []
        var finished = 0

        func write(_ buffer: ByteBuffer) async throws { pieces.append(String(buffer: buffer)) }
        func finish(_ trailingHeaders: HTTPFields?) async throws { finished += 1 }
    }

    struct Broken: Error {}

    /// `{"a":1}` in three pieces, declaring `length`; `failing` throws after the first piece.
    static func response(length: Int?, failing: Bool = false) -> Response {
        Response(
            status: .ok,
            body: ResponseBody(contentLength: length) { writer in
                try await writer.write(ByteBuffer(string: "{\"a\":"))
                if failing { throw Broken() }
                try await writer.write(ByteBuffer(string: "1"))
                try await writer.write(ByteBuffer(string: "}"))
                try await writer.finish(nil)
            })
    }

    static func pieces(of response: Response) async throws -> (pieces: [String], finished: Int) {
        let recorder = Recorder()
        try await response.body.write(recorder)
        return (recorder.pieces, recorder.finished)
    }

    static func gathered(_ response: Response, limit: Int = 1 << 20) async -> Response {
        await OneWriteMiddleware.gathered(response, limit: limit, path: "/v1/test")
    }

    @Test func aBodyOfKnownLengthIsGatheredIntoOneWrite() async throws {
        let gathered = await Self.gathered(Self.response(length: 7))
        #expect(gathered.status == .ok && gathered.body.contentLength == 7)
        let (pieces, finished) = try await Self.pieces(of: gathered)
        #expect(pieces == ["{\"a\":1}"] && finished == 1)
    }

    @Test func unknownOrLongBodiesStayStreams() async throws {
        for (length, limit) in [(nil, 1 << 20), (7, 6)] as [(Int?, Int)] {
            let passed = await Self.gathered(Self.response(length: length), limit: limit)
            let (pieces, finished) = try await Self.pieces(of: passed)
            #expect(pieces == ["{\"a\":", "1", "}"] && finished == 1)
        }
    }

    @Test func aBodyThatFailsOrIsNotItsLengthIsA500Problem() async throws {
        for response in [Self.response(length: 7, failing: true), Self.response(length: 6), Self.response(length: 9)] {
            let answer = await Self.gathered(response)
            #expect(answer.status == .internalServerError)
            #expect(answer.headers[.contentType] == "application/problem+json")
            let (pieces, _) = try await Self.pieces(of: answer)
            #expect(pieces.joined().contains(#"the server failed to answer /v1/test"#), "\(pieces)")
        }
    }

    @Test func theServersRouterSendsEveryAnswerInOnePiece() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let responder = try HTTPServer.router(directory: fixture.api.directory).buildResponder()
        let context = VicinityRequestContext(
            source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
        for path in ["/healthz", "/v1/nearby?lat=41.088154&lon=29.015615", "/v1/nearby?lat=95&lon=29", "/v2/nowhere"] {
            let request = Request(
                head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: path),
                body: RequestBody(buffer: ByteBuffer()))
            let response = try await responder.respond(to: request, context: context)
            let (pieces, finished) = try await Self.pieces(of: response)
            #expect(pieces.count == 1 && finished == 1, "\(path): \(pieces.count) pieces")
            #expect(pieces.first?.utf8.count == response.body.contentLength)
            // One buffer, which Hummingbird writes with the head in one go (a body written by a
            // closure, even in one piece, leaves after the head is flushed).
            let backing = Mirror(reflecting: response.body).descendant("_backing").map { "\($0)" } ?? "?"
            #expect(backing.hasPrefix("byteBuffer("), "\(path): \(backing.prefix(40))")
        }
    }
}
