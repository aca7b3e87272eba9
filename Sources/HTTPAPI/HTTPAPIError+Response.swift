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
