import Hummingbird
import NIOCore

extension HTTPAPIError {
    /// The problem as a Hummingbird response, for the middlewares that answer before the
    /// generated server runs (unrouted requests, the rate limit) or instead of it (a body that
    /// failed): status, headers and the problem document in one buffer.
    var response: Response {
        Response(
            status: httpStatus, headers: httpHeaderFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problemJSON)))
    }
}

extension HTTPAPIError {
    /// The problem as a head and a body for handlers below Hummingbird's `Response` (a refused
    /// connection, a request the parser refused), with `Connection: close`: the connection is
    /// closed after it.
    var closingResponseParts: (head: HTTPResponse, body: ByteBuffer) {
        var head = HTTPResponse(status: httpStatus, headerFields: httpHeaderFields)
        head.headerFields[.connection] = "close"
        let body = ByteBuffer(bytes: problemJSON)
        head.headerFields[.contentLength] = String(body.readableBytes)
        return (head, body)
    }
}
