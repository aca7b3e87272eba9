import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 client on one keep-alive connection to 127.0.0.1 (a new one when the server
/// closed it), reading each answer by its `Content-Length`, for tests that compare answers byte
/// for byte. The blocking socket work runs on a dispatch thread, never on the test's.
final class HTTPTestClient: @unchecked Sendable {
    /// A request as sent: method, target and headers in order (`Host` comes first, always).
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [(String, String)] = []

        static func get(_ target: String) -> Request { Request(method: "GET", target: target) }

        var text: String {
            "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        }
    }

    /// An answer as received: the status line, every header in order (a `Date` value replaced by
    /// `<date>` once its form is checked) and the body's bytes.
    struct Response: Equatable, CustomStringConvertible, Sendable {
        var statusLine: String
        var headers: [String]
        var body: [UInt8]

        var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }

        var description: String {
            let text = String(decoding: body.prefix(400), as: UTF8.self)
            return "\(statusLine) | \(headers.joined(separator: " | ")) | \(body.count) bytes: \(text)"
        }
    }

    let port: Int
    private var socketDescriptor: Int32 = -1
    private var pending: [UInt8] = []
    private let queue = DispatchQueue(label: "HTTPTestClient")

    init(port: Int) throws { self.port = port }

    deinit { if socketDescriptor >= 0 { close(socketDescriptor) } }

    /// Connections opened so far.
    private(set) var connections = 0

    /// Sends `request` and reads its answer; on a new connection when the server closed the last
    /// one, unless `reconnect` is false.
    func exchange(_ request: Request, reconnect: Bool = true) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.blockingExchange(request, reconnect: reconnect) })
            }
        }
    }

    /// Sends `request` again and again, each after the last answer, for `duration`; the answers'
    /// statuses, in order. The whole loop runs on the client's dispatch thread, so the pace of
    /// the requests does not hang on the test's concurrency pool, which a full parallel run can
    /// keep busy for seconds between two awaits (a pause longer than a server's idle timeout
    /// closes the connection in the middle of the loop).
    func exchangeRepeatedly(_ request: Request, for duration: Duration) async throws -> [Int] {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result {
                        let started = ContinuousClock.now
                        var statuses: [Int] = []
                        while ContinuousClock.now - started < duration {
                            statuses.append(try self.blockingExchange(request, reconnect: true).status)
                        }
                        return statuses
                    })
            }
        }
    }

    enum Failure: Error { case connect, closed, malformed(String) }

    private func blockingExchange(_ request: Request, reconnect: Bool) throws -> Response {
        if socketDescriptor < 0 {
            guard reconnect || connections == 0 else { throw Failure.closed }
            try connectSocket()
        }
        send(Array(request.text.utf8))
        let response = try readResponse(method: request.method)
        if response.headers.contains(where: { $0.lowercased() == "connection: close" }) { reset() }
        return response
    }

    private func reset() {
        if socketDescriptor >= 0 { close(socketDescriptor) }
        socketDescriptor = -1
        pending = []
    }

    private func connectSocket() throws {
        connections += 1
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else { throw Failure.connect }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads more into `pending`; false when the server closed.
    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let read = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
        guard read > 0 else { return false }
        pending += buffer[..<read]
        return true
    }

    private func readResponse(method: String) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = pending.firstRange(of: separator)?.lowerBound
            if headEnd == nil, !fill() {
                reset()
                throw Failure.closed
            }
        }
        let head = String(decoding: pending[..<headEnd!], as: UTF8.self)
        pending.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        var length = 0
        var headers: [String] = []
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { throw Failure.malformed(line) }
            if parts[0].lowercased() == "content-length" { length = Int(parts[1]) ?? 0 }
            if parts[0].lowercased() == "date" {
                guard HTTPTestClient.isIMFDate(parts[1]) else { throw Failure.malformed(line) }
                headers.append("\(parts[0]): <date>")
            } else {
                headers.append(line)
            }
        }
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        if method == "HEAD" || status == 204 || status == 304 || status < 200 { length = 0 }
        while pending.count < length {
            guard fill() else {
                reset()
                throw Failure.closed
            }
        }
        let body = Array(pending[..<length])
        pending.removeFirst(length)
        return Response(statusLine: statusLine, headers: headers, body: body)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` in form (RFC 9110 §5.6.7).
    static func isIMFDate(_ text: String) -> Bool {
        let parts = text.split(separator: " ")
        return parts.count == 6 && parts[0].count == 4 && parts[0].hasSuffix(",") && parts[1].count == 2
            && parts[2].count == 3 && parts[3].count == 4 && parts[4].count == 8 && parts[5] == "GMT"
    }
}
