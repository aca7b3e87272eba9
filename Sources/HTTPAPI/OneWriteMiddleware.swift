import HTTPTypes
import Hummingbird
import NIOCore

/// Sends a response whose length is known in one write: head, body and end together.
///
/// swift-openapi-hummingbird 2.1.0 hands every body to Hummingbird as a stream, and Hummingbird
/// writes a streamed response part by part, each part flushed: the head left in one `write(2)`
/// and the body in another, so a client woke twice for every answer (measured with strace on
/// `/healthz`). Every body the generated server makes is already whole in memory, so gathering it
/// into one buffer costs one copy and saves a system call, a wake-up of the client and two
/// hand-offs between the handler's task and the event loop for each request.
///
/// Bodies without a known length, or longer than `limit` bytes, are passed on as streams.
struct OneWriteMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext
    /// The longest body gathered, in bytes.
    var limit = 64 << 20

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try await OneWriteMiddleware.gathered(next(request, context), limit: limit)
    }

    /// The response with its body in one buffer when its length is known and at most `limit`
    /// bytes; as it is otherwise.
    static func gathered(_ response: Response, limit: Int) async throws -> Response {
        var response = response
        guard let length = response.body.contentLength, length <= limit else { return response }
        let gathered = GatheredBody()
        try await response.body.write(gathered)
        if gathered.trailers != nil { throw HTTPError(.internalServerError) }
        response.body = ResponseBody(byteBuffer: gathered.buffer ?? ByteBuffer())
        return response
    }
}

/// A body writer that keeps what it is given: the first buffer as it is, later ones appended.
private final class GatheredBody: ResponseBodyWriter {
    var buffer: ByteBuffer?
    /// Trailing fields, which a gathered body cannot carry (the generated server sends none).
    var trailers: HTTPFields?

    func write(_ part: ByteBuffer) async throws {
        guard buffer != nil else {
            buffer = part
            return
        }
        buffer!.writeImmutableBuffer(part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws { trailers = trailingHeaders }
}
