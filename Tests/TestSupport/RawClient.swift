import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP client on a plain socket to 127.0.0.1, for tests: sends bytes, reads what comes
/// back — what a client that speaks no protocol library sends and sees.
public final class RawClient: @unchecked Sendable {
    private let socketDescriptor: Int32
    /// Signalled when `sendDiscardingAnswers`'s reading thread stops.
    private let discarding = DispatchSemaphore(value: 0)

    /// Connects to 127.0.0.1 on `port`; throws `ECONNREFUSED` when nothing accepts.
    ///
    /// - Parameter receiveBuffer: the socket's receive buffer, bytes (`SO_RCVBUF`, set before
    ///   connecting: the kernel then does not grow it); nil for the system's.
    public init(port: Int, receiveBuffer: Int? = nil) throws {
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw POSIXError(.EMFILE) }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(socketDescriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        // Generous: `swift test` runs suites in parallel on two cores, and a reply that misses the
        // timeout shifts every later reply on the connection (WirePrivacyTests failed so once, seed
        // 13, during a full run under load; it has not recurred).
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socketDescriptor) }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, 0) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Sends no more: the peer reads the end of its input (`shutdown(SHUT_WR)`); reading goes on.
    public func shutdownWriting() { shutdown(socketDescriptor, Int32(SHUT_WR)) }

    /// Sends `text` on a thread of its own while another thread reads and throws away whatever
    /// comes back: a client that pipelines without waiting for answers. `stopDiscarding()` ends it.
    public func sendDiscardingAnswers(_ text: String) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while buffer.withUnsafeMutableBytes({ recv(self.socketDescriptor, $0.baseAddress, $0.count, 0) }) > 0 {}
            self.discarding.signal()
        }
        Thread.detachNewThread {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(self.socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Shuts the connection both ways and waits for `sendDiscardingAnswers`'s reader to stop.
    public func stopDiscarding() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        discarding.wait()
    }

    /// Reads until `count` bytes came, the peer closed, or 30 s passed.
    public func receive(atLeast count: Int) -> String { receive { $0.count >= count } }

    /// Reads until the text ends with `suffix` (or the peer closes, or 30 s pass).
    public func receive(until suffix: String) -> String {
        receive { $0.reversed().starts(with: suffix.utf8.reversed()) }
    }

    /// Reads until `count` whole RESP replies came (or the peer closes, or 30 s pass); returns them
    /// as text, concatenated.
    public func receive(replies count: Int) -> String { receive { RawClient.completeReplies(in: $0) >= count } }

    /// Reads until `count` lines came (JSON output).
    public func receive(lines count: Int) -> String { receive { $0.count(where: { $0 == 0x0A }) >= count } }

    /// Reads until `done` holds of the bytes received (checked before each read, so nothing is
    /// read once it holds), the peer closes, or a read waits 30 s; the bytes as text.
    private func receive(until done: ([UInt8]) -> Bool) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(received) {
            let read = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
            if read <= 0 { break }
            received += buffer[0..<read]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What arrives within `limit` seconds or until `done` holds of it, and after how many seconds
    /// the server closed the connection (nil when it is still open). The waiting happens on a
    /// dispatch thread: a server under test may answer on this process's concurrency pool.
    public func receive(for limit: Double, until done: @escaping @Sendable (String) -> Bool = { _ in false }) async
        -> (text: String, closedAfter: Double?)
    {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.blockingReceive(for: limit, until: done))
            }
        }
    }

    private func blockingReceive(for limit: Double, until done: (String) -> Bool) -> (
        text: String, closedAfter: Double?
    ) {
        let start = Date()
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = limit - Date().timeIntervalSince(start)
            guard left > 0 else { return (text, nil) }
            // Wait at most until the limit for something to read (or the close), not for the
            // socket's own 30 s timeout.
            var descriptor = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(min(left * 1000, 1000).rounded(.up))) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                text += String(decoding: buffer[..<count], as: UTF8.self)
                if done(text) { return (text, nil) }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return (text, Date().timeIntervalSince(start))
            }
        }
    }

    /// How many whole top-level replies the bytes hold.
    public static func completeReplies(in bytes: [UInt8]) -> Int {
        var position = 0
        var count = 0
        while let end = replyEnd(bytes, from: position) {
            position = end
            count += 1
        }
        return count
    }

    /// Where the reply starting at `start` ends, or nil if it is not complete.
    private static func replyEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        guard
            let lineEnd = (start..<max(start, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 })
        else { return nil }
        let header = String(decoding: bytes[(start + 1)..<lineEnd], as: UTF8.self)
        let next = lineEnd + 2
        switch bytes[start] {
        case UInt8(ascii: "$"):
            guard let length = Int(header) else { return nil }
            if length < 0 { return next }
            return next + length + 2 <= bytes.count ? next + length + 2 : nil
        case UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: ">"):
            guard var elements = Int(header) else { return nil }
            if bytes[start] == UInt8(ascii: "%") { elements *= 2 }
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
}
