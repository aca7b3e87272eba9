import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 for the privacy tests: sends bytes and keeps every byte that
/// comes back, so that replies can be compared byte for byte. Reads block a `Thread` of their own,
/// never the cooperative pool (the servers under test answer on it).
///
/// Not for concurrent use: one caller sends and reads at a time (each read is awaited).
final class Wire: @unchecked Sendable {
    private let descriptor: Int32
    /// Everything received so far.
    private(set) var received: [UInt8] = []
    /// How much of `received` an earlier `exchange` handed out already.
    private var consumed = 0

    /// Connects to 127.0.0.1 on `port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads until `done` holds of everything received, the peer closes, or `seconds` pass; then
    /// returns what came since the last `take()`, and marks it taken.
    func take(for seconds: Double = 20, until done: @escaping @Sendable ([UInt8]) -> Bool) async -> [UInt8] {
        await Wire.offPool {
            self.blockingRead(for: seconds, until: done)
            defer { self.consumed = self.received.count }
            return Array(self.received[self.consumed...])
        }
    }

    /// Sends `requests` and reads until `count` more whole RESP replies came (or, with `lines`,
    /// `count` more lines: `OUTPUT json`); the bytes of those replies.
    func exchange(_ requests: [UInt8], replies count: Int, lines: Bool = false) async -> [UInt8] {
        send(requests)
        let start = consumed
        return await take { received in
            let fresh = received[start...]
            return lines ? fresh.count(where: { $0 == 0x0A }) >= count : RESP.replies(in: fresh) >= count
        }
    }

    private func blockingRead(for seconds: Double, until done: ([UInt8]) -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(received) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left * 1000, 200).rounded(.up))) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                return
            }
        }
    }

    /// Runs `body` on a thread of its own and waits for it without holding a pool thread.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    // MARK: - HTTP

    /// One HTTP/1.1 request on a connection of its own (`Connection: close`): the response as
    /// `HTTPMessage` reads it.
    static func http(port: Int, _ target: String, token: String?, accept: String? = nil) async throws -> HTTPMessage {
        let wire = try Wire(port: port)
        wire.send(request(target, token: token, accept: accept, close: true))
        let bytes = await wire.take { HTTPMessage($0)?.complete == true }
        return HTTPMessage(bytes) ?? HTTPMessage(head: ["(no response)"], body: [], complete: false)
    }

    static func request(_ target: String, token: String?, accept: String?, close: Bool) -> String {
        var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if let accept { text += "Accept: \(accept)\r\n" }
        if close { text += "Connection: close\r\n" }
        return text + "\r\n"
    }
}

/// An HTTP response as the privacy tests compare it: the status line and the headers (the
/// `Date` header left out: the clock is no one's position), and the body with any chunked
/// transfer coding removed (where a stream's chunks are cut depends on timing, not on data) and
/// SSE heartbeats (`: keep-alive`) dropped.
struct HTTPMessage: CustomStringConvertible {
    var head: [String]
    var body: [UInt8]
    /// The whole body came (its length, or the last chunk).
    var complete: Bool

    init(head: [String], body: [UInt8], complete: Bool) {
        self.head = head
        self.body = body
        self.complete = complete
    }

    /// Nil until the head has come.
    init?(_ bytes: [UInt8]) {
        guard let end = RESP.find([13, 10, 13, 10], in: bytes[...]) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        head = [lines[0]] + lines.dropFirst().filter { !$0.lowercased().hasPrefix("date:") }
        let rest = bytes[(end + 4)...]
        let fields = lines.dropFirst().map { $0.lowercased() }
        if fields.contains("transfer-encoding: chunked") {
            (body, complete) = HTTPMessage.dechunked(rest)
        } else if let length = fields.first(where: { $0.hasPrefix("content-length:") }).flatMap({
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }) {
            body = Array(rest.prefix(length))
            complete = rest.count >= length
        } else {
            body = Array(rest)
            complete = false
        }
        let heartbeat = Array(": keep-alive\n\n".utf8)
        while let at = RESP.find(heartbeat, in: body[...]) { body.removeSubrange(at..<(at + heartbeat.count)) }
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String { head.joined(separator: "\n") + "\n\n" + text }

    static func dechunked(_ bytes: ArraySlice<UInt8>) -> (body: [UInt8], complete: Bool) {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while let lineEnd = RESP.find([13, 10], in: bytes[index...]) {
            guard let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16) else {
                return (body, false)
            }
            if size == 0 { return (body, true) }
            let start = lineEnd + 2
            guard bytes.endIndex >= start + size else {
                body += bytes[start...]
                return (body, false)
            }
            body += bytes[start..<(start + size)]
            index = min(bytes.endIndex, start + size + 2)
        }
        return (body, false)
    }
}

/// Reading RESP2/RESP3 replies just far enough to count them.
enum RESP {
    /// A command as a RESP array of bulk strings.
    static func array(_ words: [String]) -> [UInt8] {
        var bytes = Array("*\(words.count)\r\n".utf8)
        for word in words { bytes += Array("$\(word.utf8.count)\r\n\(word)\r\n".utf8) }
        return bytes
    }

    /// How many whole top-level replies `bytes` holds.
    static func replies(in bytes: ArraySlice<UInt8>) -> Int {
        var position = bytes.startIndex
        var count = 0
        while let end = replyEnd(bytes, from: position) {
            position = end
            count += 1
        }
        return count
    }

    /// Where the reply starting at `start` ends, or nil when it is not complete.
    static func replyEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start < bytes.endIndex, let lineEnd = find([13, 10], in: bytes[start...]) else { return nil }
        let header = String(decoding: bytes[(start + 1)..<lineEnd], as: UTF8.self)
        let next = lineEnd + 2
        switch bytes[start] {
        case UInt8(ascii: "$"), UInt8(ascii: "="), UInt8(ascii: "!"):
            guard let length = Int(header) else { return nil }
            if length < 0 { return next }
            return next + length + 2 <= bytes.endIndex ? next + length + 2 : nil
        case UInt8(ascii: "*"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "~"), UInt8(ascii: "|"):
            guard var elements = Int(header) else { return nil }
            if bytes[start] == UInt8(ascii: "%") || bytes[start] == UInt8(ascii: "|") { elements *= 2 }
            var position = next
            for _ in 0..<max(0, elements) {
                guard let end = replyEnd(bytes, from: position) else { return nil }
                position = end
            }
            return position
        default:
            return next
        }
    }

    /// Where `pattern` starts in `bytes` (an index of `bytes`), or nil.
    static func find(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var index = bytes.startIndex
        while index <= bytes.endIndex - pattern.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }
}
