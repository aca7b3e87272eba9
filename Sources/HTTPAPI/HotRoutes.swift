import Foundation
import HTTPTypes
import Logging
import NIOCore
import Places
import Synchronization

/// The hot operations (`/v1/nearby`, `/v1/nearest`, `/v1/users/nearby`, GET and HEAD) answered
/// without Hummingbird's router and the generated server: `HotRouteHandler` hands it each request
/// it reads, and sends what it answers straight back on the connection.
///
/// Every step of the generated path that applies to these operations is taken here in the same
/// order, with the same code: the request log, the rate limit (429, no metrics, no position),
/// the metrics, `Vicinity-Position`, problem documents for errors, `Vicinity-Min-Position`, the
/// bearer token, the text of the parameters (`QueryTextMiddleware`), the handler's work
/// (`VicinityAPI.nearbyReply`, `nearestReply`, `nearbyUsers`) and the lists' bytes
/// (`HitList`, as `HitsJSONMiddleware` sends them). What `HotRequest` cannot vouch for, and a
/// read that must wait for a position, are left to the generated server (`answer` returns nil).
/// `HotRoutesDifferentialTests` sends the same random requests to a server with and without
/// these routes and compares the answers byte for byte.
final class HotRoutes: Sendable {
    let api: VicinityAPI
    /// The HTTP server's limit per client address; nil for none.
    let limiter: RateLimiter?
    /// The clock the limit is counted by (`RateLimitMiddleware.now`).
    let now: @Sendable () -> ContinuousClock.Instant
    /// Where requests are logged, when they are (`RequestLogMiddleware`).
    let logger: Logger?
    /// The `Server` header's value, as Hummingbird sends it.
    let serverName: String?
    /// The encoder the generated server writes JSON bodies with (`HTTPServer.configuration`),
    /// for the answers `HitList` does not write.
    private let encoder: JSONEncoder
    /// Requests answered here so far (tests check that the routes were taken).
    let answered = Atomic<Int>(0)
    /// The most bytes one connection's channel has held unsent when `HotRouteHandler` flushed its
    /// answers (tests check that a client that does not read cannot raise it beyond the channel's
    /// high watermark and one answer).
    let bufferedPeak = Atomic<Int>(0)
    /// Whether `noteBuffered` asks the channels (sockets'; an `EmbeddedChannel` cannot tell).
    let tracksBufferedBytes: Bool

    init(
        api: VicinityAPI, limiter: RateLimiter?, logger: Logger?, serverName: String?,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, tracksBufferedBytes: Bool = false
    ) {
        self.tracksBufferedBytes = tracksBufferedBytes
        self.api = api
        self.limiter = limiter
        self.now = now
        self.logger = logger
        self.serverName = serverName
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// An answer: the head and the body (sent but for HEAD, whose head keeps GET's length).
    struct Answer {
        var head: HTTPResponse
        var body: ByteBuffer
    }

    /// Where the bodies' buffers come from.
    private static let allocator = ByteBufferAllocator()

    /// Notes the bytes `channel` holds unsent (`bufferedPeak`) while it is not writable (it went
    /// past its high watermark and has not yet drained below its low one); on the channel's event
    /// loop. A writable channel holds less than the high watermark, which no peak the tests bound
    /// is near: asking for the option costs an allocation.
    func noteBuffered(in channel: any Channel) {
        guard tracksBufferedBytes, !channel.isWritable,
            let bytes = try? channel.syncOptions?.getOption(.bufferedWritableBytes)
        else {
            return
        }
        bufferedPeak.max(bytes, ordering: .relaxed)
    }

    /// The request, if these routes answer it: nil to leave it to the generated server.
    func accept(_ head: HTTPRequest) -> HotRequest? {
        guard let request = HotRequest(head) else { return nil }
        // A read that must wait for a position waits in the generated server's middleware.
        if let wanted = try? MinimumPositionMiddleware.wanted(in: request.headerFields), let position = wanted.position,
            api.directory.appliedPosition < position
        {
            return nil
        }
        return request
    }

    /// The answer to a request `accept` took, with the headers Hummingbird adds (`Date`,
    /// `Server`); logged as `RequestLogMiddleware` logs.
    ///
    /// - Parameters:
    ///   - peer: the connection's remote address.
    ///   - client: `peer`'s IP address as text (`SocketAddress.ipAddress`), which a connection
    ///     makes once for all its requests (`HotRouteHandler`).
    func answer(_ request: HotRequest, from peer: SocketAddress?, client: String?) -> Answer {
        // The log's duration only: without a logger the clock is not read.
        let started = logger == nil ? nil : ContinuousClock.now
        answered.add(1, ordering: .relaxed)
        var answer: Answer
        if let limiter, let refusal = RateLimitMiddleware.refusal(by: limiter, of: peer, at: now()) {
            answer = HotRoutes.problem(refusal, length: true)
        } else {
            answer = served(request, client: client)
        }
        answer.head.headerFields[.date] = HTTPDate.now
        if let serverName { answer.head.headerFields[.server] = serverName }
        if let logger, let started {
            RequestLogMiddleware.log(
                to: logger, method: request.method, route: request.route, peer: peer, status: answer.head.status.code,
                since: started)
        }
        return answer
    }

    /// The generated server's middlewares and handler, in their order (`HTTPServer.middlewares`).
    private func served(_ request: HotRequest, client: String?) -> Answer {
        let clock = ContinuousClock()
        let start = clock.now
        var answer: Answer
        do {
            answer = try operate(request, client: client)
        } catch {
            answer = HotRoutes.problem(
                ProblemMiddleware.problem(for: error, operationID: request.operationID), length: false)
        }
        if answer.head.headerFields[PositionHeaderMiddleware.positionField] == nil {
            answer.head.headerFields[PositionHeaderMiddleware.positionField] = String(api.directory.appliedPosition)
        }
        // Hummingbird's `Response` adds the length last when the body did not state it.
        if answer.head.headerFields[.contentLength] == nil {
            answer.head.headerFields[.contentLength] = String(answer.body.readableBytes)
        }
        api.metrics.record(operation: request.operationID, status: answer.head.status.code, duration: clock.now - start)
        return answer
    }

    private func operate(_ request: HotRequest, client: String?) throws -> Answer {
        _ = try MinimumPositionMiddleware.wanted(in: request.headerFields)
        let token = try request.headerFields[.authorization].map { (field) throws(HTTPAPIError) -> String in
            try BearerTokenMiddleware.resolvedToken(in: field, directory: api.directory)
        }
        let operation = try request.operation.get()
        return try HotRoutes.binding(token, to: RequestToken.$current) {
            try HotRoutes.binding(client, to: RequestClient.$address) { try work(operation) }
        }
    }

    /// `body` with `local` bound to `value`, as `withValue` binds it; `body` alone when the
    /// binding would change nothing (both nil: no token, no `crs`), which saves the binding's
    /// allocation on most requests.
    @inline(__always)
    static func binding<R>(_ value: String?, to local: TaskLocal<String?>, _ body: () throws -> R) rethrows -> R {
        if value == nil, local.get() == nil { return try body() }
        return try local.withValue(value, operation: body)
    }

    /// The handler's work and the generated serializer's answer.
    private func work(_ operation: HotRequest.Operation) throws -> Answer {
        switch operation {
        case .nearby(let query, let accept, let crs):
            let reply = try HotRoutes.binding(crs, to: CompatibilityParameters.$crs) {
                try api.nearbyReply(query, accept: accept, byHandle: true)
            }
            switch reply {
            case .seeOther(let location): return HotRoutes.seeOther(location)
            case .list(let list): return HotRoutes.json(list.jsonBuffer(HotRoutes.allocator), vary: true, length: false)
            }
        case .nearest(let query, let accept, let crs):
            let reply = try HotRoutes.binding(crs, to: CompatibilityParameters.$crs) {
                try api.nearestReply(query, accept: accept)
            }
            switch reply {
            case .seeOther(let location): return HotRoutes.seeOther(location)
            case .list(let list): return HotRoutes.json(list.jsonBuffer(HotRoutes.allocator), vary: true, length: false)
            }
        case .nearbyUsers(let query):
            let result = try api.nearbyUsers(query)
            do {
                let bytes = try encoder.encode(result)
                return HotRoutes.json(HotRoutes.allocator.buffer(bytes: bytes), vary: false, length: true)
            } catch {
                throw HTTPAPIError.internalError(operation: "findNearbyUsers")
            }
        }
    }

    /// A 200 JSON list with the generated serializer's headers: `Vary` where the contract declares
    /// it, the type, and the length where the generated encoder states it (`HitsJSONMiddleware`
    /// removes it, Hummingbird adds it again after `Vicinity-Position`).
    private static func json(_ bytes: ByteBuffer, vary: Bool, length: Bool) -> Answer {
        var head = HTTPResponse(status: .ok)
        if vary { head.headerFields[.vary] = "Accept" }
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        if length { head.headerFields[.contentLength] = String(bytes.readableBytes) }
        return Answer(head: head, body: bytes)
    }

    /// The 303 to the GeoJSON operation.
    private static func seeOther(_ location: String) -> Answer {
        var head = HTTPResponse(status: .seeOther)
        head.headerFields[.location] = location
        head.headerFields[.vary] = "Accept"
        return Answer(head: head, body: ByteBuffer())
    }

    /// A problem document, as `HTTPAPIError.response` sends it (`length`: its length stated at
    /// once) or `ProblemMiddleware` (the length added after `Vicinity-Position`).
    static func problem(_ error: HTTPAPIError, length: Bool) -> Answer {
        var head = HTTPResponse(status: error.httpStatus, headerFields: error.httpHeaderFields)
        let body = allocator.buffer(bytes: error.problemJSON)
        if length { head.headerFields[.contentLength] = String(body.readableBytes) }
        return Answer(head: head, body: body)
    }
}
