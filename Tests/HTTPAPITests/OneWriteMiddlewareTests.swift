import Hummingbird
import NIOCore
import Testing

@testable import HTTPAPI

/// A body of known length leaves in one piece (one write after the head); others as they came.
@Suite struct OneWriteMiddlewareTests {
    /// What a body writes, piece by piece.
    final class Recorder: ResponseBodyWriter {
        var pieces: [String] = []
        var finished = 0

        func write(_ buffer: ByteBuffer) async throws { pieces.append(String(buffer: buffer)) }
        func finish(_ trailingHeaders: HTTPFields?) async throws { finished += 1 }
    }

    static func response(length: Int?) -> Response {
        Response(
            status: .ok,
            body: ResponseBody(contentLength: length) { writer in
                try await writer.write(ByteBuffer(string: "{\"a\":"))
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

    @Test func aBodyOfKnownLengthIsGatheredIntoOneWrite() async throws {
        let gathered = try await OneWriteMiddleware.gathered(Self.response(length: 7), limit: 1 << 20)
        #expect(gathered.body.contentLength == 7)
        let (pieces, finished) = try await Self.pieces(of: gathered)
        #expect(pieces == ["{\"a\":1}"] && finished == 1)
    }

    @Test func unknownOrLongBodiesStayStreams() async throws {
        for (length, limit) in [(nil, 1 << 20), (7, 6)] as [(Int?, Int)] {
            let passed = try await OneWriteMiddleware.gathered(Self.response(length: length), limit: limit)
            let (pieces, finished) = try await Self.pieces(of: passed)
            #expect(pieces == ["{\"a\":", "1", "}"] && finished == 1)
        }
    }

    @Test func anEmptyBodyStaysEmpty() async throws {
        let gathered = try await OneWriteMiddleware.gathered(Response(status: .noContent), limit: 1 << 20)
        let (pieces, finished) = try await Self.pieces(of: gathered)
        #expect(pieces.joined().isEmpty && finished == 1)
    }
}
