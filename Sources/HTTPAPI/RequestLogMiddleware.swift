import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Logs one line per request at `.info`: method, the route matched, the client's address, the
/// status and the milliseconds the answer took to make.
///
/// The route is logged as the contract writes it (`/v1/users/{id}/location`), never the path
/// sent: a path names users, private ones too, and who they are is no business of whoever reads
/// the logs. No query string and no header is logged: a token travels in the `Authorization`
/// header, and a client may put one in a query (`?token=…`) however the contract reads it.
/// Bodies are never logged (`POST /v1/users` answers with the new user's token).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = VicinityRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: response.status.code, since: started)
            return response
        } catch {
            // Hummingbird answers an error that carries a status with it, any other with a 500.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context: context, status: status, since: started)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, since started: ContinuousClock.Instant) {
        RequestLogMiddleware.log(
            to: logger, method: request.method, route: context.endpointPath, peer: context.remoteAddress,
            status: status, since: started)
    }

    /// The line of one request (`HotRoutes` logs its requests with it too).
    static func log(
        to logger: Logger, method: HTTPRequest.Method, route: String?, peer: SocketAddress?, status: Int,
        since started: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - started
        let milliseconds =
            Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "request",
            metadata: [
                "method": .string(method.rawValue), "path": .string(route ?? "(no route)"),
                "peer": .string(peer.map(RequestLogMiddleware.text) ?? "-"),
                "status": .stringConvertible(status),
                "duration_ms": .string(String(format: "%.3f", milliseconds)),
            ])
    }

    /// `address:port`, as clients and logs write it.
    static func text(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return address.protocol == .inet6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
