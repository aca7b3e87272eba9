import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A Server-Sent Events client on a plain socket, for the watch tests: sends one request and
/// parses what comes back as it arrives — the status and headers, the chunked body, the events and
/// the heartbeats — as a client without an SSE library would. Parsing is incremental, so that a
/// stream of many thousands of events costs no more than reading it.
final class EventStreamClient: Sendable {
    /// One event as it arrived: its `event:`, `id:` (nil when it had none) and `data:` lines.
    struct Event: Sendable, Equatable, CustomStringConvertible {
        var name: String
        var id: String?
        var data: String

        /// The data's JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
        /// The data's `position`.
        var position: UInt64 { (json["position"] as? NSNumber)?.uint64Value ?? 0 }
        /// The object's id, for `inside`, `enter`, `exit` and `move`.
        var object: String? { json["id"] as? String }

        var description: String { "\(name)[\(id ?? "-")] \(data)" }
    }

    /// What the stream holds so far.
    struct Received: Sendable {
        var status: Int?
        var headers: [String: String] = [:]
        var events: [Event] = []
        var keepAlives = 0
        /// The body's last chunk came: the stream ended.
        var ended = false
        /// The server closed the connection.
        var closed = false
    }

    /// The parser's state: bytes not yet parsed, and what they made so far.
    fileprivate struct State {
        var received = Received()
        var pending: [UInt8] = []
        var headDone = false
        /// Bytes of the current chunk still to come (nil: a size line is next).
        var chunkLeft: Int?
        /// The body's text not yet ending in a blank line.
        var body: [UInt8] = []
    }

    private let descriptor: Int32
    private let state = Mutex(State())
    private let open = Atomic<Bool>(true)

    /// Connects to 127.0.0.1 on `port` and sends `method target` with `headers`.
    init(port: Int, target: String, headers: [String: String] = [:], method: String = "GET") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard sent > 0 else { break }
            offset += sent
        }
    }

    deinit { close() }

    /// Closes the connection (the client goes away).
    func close() {
        if open.exchange(false, ordering: .relaxed) { Glibc.close(descriptor) }
    }

    /// What was received so far.
    var received: Received { state.withLock { $0.received } }

    /// Reads until `done` holds of what was received, the server closes, or `seconds` pass. The
    /// reading blocks a thread of its own: on the shared dispatch queues (as wide as the machine
    /// has cores) a few streams waiting for seconds would hold up every other test's waits.
    @discardableResult
    func receive(for seconds: Double = 30, until done: @escaping @Sendable (Received) -> Bool) async -> Received {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.blockingReceive(for: seconds, until: done)) }.start()
        }
    }

    /// Reads until `count` events came.
    @discardableResult
    func receive(events count: Int, for seconds: Double = 30) async -> Received {
        await receive(for: seconds) { $0.events.count >= count || $0.ended }
    }

    /// Reads until an event named `name` came.
    @discardableResult
    func receive(_ name: String, for seconds: Double = 30) async -> Received {
        await receive(for: seconds) { $0.events.contains { $0.name == name } || $0.ended }
    }

    private func blockingReceive(for seconds: Double, until done: (Received) -> Bool) -> Received {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let current = received
            if done(current) || current.closed || !open.load(ordering: .relaxed) { return current }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return current }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left * 1000, 200).rounded(.up))) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                state.withLock { $0.feed(buffer[..<count]) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                state.withLock { $0.received.closed = true }
            }
        }
    }
}

extension EventStreamClient.State {
    /// Parses the bytes that came: the head once, then chunks, then events.
    fileprivate mutating func feed(_ bytes: ArraySlice<UInt8>) {
        pending += bytes
        if !headDone {
            guard let end = Self.find([13, 10, 13, 10], in: pending) else { return }
            let lines = String(decoding: pending[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            received.status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                received.headers[line[..<colon].lowercased()] =
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            pending.removeFirst(end + 4)
            headDone = true
        }
        var start = 0
        while !received.ended {
            if let left = chunkLeft {
                // The chunk's data, then its CRLF.
                let available = min(left, pending.count - start)
                body += pending[start..<(start + available)]
                start += available
                if available < left {
                    chunkLeft = left - available
                    break
                }
                guard pending.count - start >= 2 else {
                    chunkLeft = 0
                    break
                }
                start += 2
                chunkLeft = nil
            } else {
                guard let lineEnd = Self.find([13, 10], in: pending[start...]) else { break }
                let size = Int(String(decoding: pending[start..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                start = lineEnd + 2
                if size == 0 {
                    received.ended = true
                } else {
                    chunkLeft = size
                }
            }
        }
        pending.removeFirst(start)
        parseEvents()
    }

    /// Events: blocks separated by a blank line; a block of comment lines is a heartbeat.
    private mutating func parseEvents() {
        var start = 0
        while let end = Self.find([10, 10], in: body[start...]) {
            let block = String(decoding: body[start..<end], as: UTF8.self)
            start = end + 2
            var event = EventStreamClient.Event(name: "message", id: nil, data: "")
            var isEvent = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    if line == ": keep-alive" { received.keepAlives += 1 }
                } else if line.hasPrefix("event: ") {
                    event.name = String(line.dropFirst(7))
                    isEvent = true
                } else if line.hasPrefix("id: ") {
                    event.id = String(line.dropFirst(4))
                } else if line.hasPrefix("data: ") {
                    event.data = String(line.dropFirst(6))
                    isEvent = true
                }
            }
            if isEvent { received.events.append(event) }
        }
        body.removeFirst(start)
    }

    /// Where `pattern` starts in `bytes` (an index of `bytes`), or nil.
    private static func find(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
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

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? { find(pattern, in: bytes[...]) }
}
