import Foundation
import TestSupport

/// A Server-Sent Events client on a plain socket, for the watch tests: sends one GET, and parses
/// what comes back — the status, the chunked body, the events and the heartbeats — as a client
/// without an SSE library would.
final class EventStreamClient: @unchecked Sendable {
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
    }

    private var client: RawClient?
    /// Every byte received, as text.
    private(set) var text = ""

    /// Connects and sends `GET target` with `headers`.
    init(port: Int, target: String, headers: [String: String] = [:], method: String = "GET") throws {
        let client = try RawClient(port: port)
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        client.send(request + "\r\n")
        self.client = client
    }

    /// Closes the connection (the client goes away).
    func close() { client = nil }

    /// Reads until `done` holds of what was received, the server closes, or `seconds` pass.
    @discardableResult
    func receive(for seconds: Double = 15, until done: @escaping @Sendable (Received) -> Bool) async -> Received {
        guard let client else { return EventStreamClient.parse(text) }
        let before = text
        if done(EventStreamClient.parse(before)) { return EventStreamClient.parse(before) }
        let (more, _) = await client.receive(for: seconds) { done(EventStreamClient.parse(before + $0)) }
        text += more
        return EventStreamClient.parse(text)
    }

    /// Reads until `count` events came.
    @discardableResult
    func receive(events count: Int, for seconds: Double = 15) async -> Received {
        await receive(for: seconds) { $0.events.count >= count || $0.ended }
    }

    /// Reads until an event named `name` came.
    @discardableResult
    func receive(_ name: String, for seconds: Double = 15) async -> Received {
        await receive(for: seconds) { $0.events.contains { $0.name == name } || $0.ended }
    }

    /// Reads until the stream ends or the server closes the connection, or `seconds` pass: what
    /// came, and whether the connection was closed.
    func receiveToTheEnd(for seconds: Double) async -> (received: Received, closed: Bool) {
        guard let client else { return (EventStreamClient.parse(text), true) }
        let before = text
        let (more, closed) = await client.receive(for: seconds) { EventStreamClient.parse(before + $0).ended }
        text += more
        return (EventStreamClient.parse(text), closed != nil)
    }

    /// The response in `text`: head, then the chunked body's events.
    static func parse(_ text: String) -> Received {
        var received = Received()
        let bytes = Array(text.utf8)
        guard let headEnd = find([13, 10, 13, 10], in: bytes, from: 0) else { return received }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        received.status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            received.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        // The chunked body.
        var body: [UInt8] = []
        var at = headEnd + 4
        while let lineEnd = find([13, 10], in: bytes, from: at),
            let size = Int(String(decoding: bytes[at..<lineEnd], as: UTF8.self), radix: 16)
        {
            if size == 0 {
                received.ended = true
                break
            }
            guard lineEnd + 2 + size + 2 <= bytes.count else { break }
            body += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            at = lineEnd + 2 + size + 2
        }
        // Events: blocks separated by a blank line; a block of comment lines is a heartbeat.
        let blocks = String(decoding: body, as: UTF8.self).components(separatedBy: "\n\n").dropLast()
        for block in blocks {
            var event = Event(name: "message", id: nil, data: "")
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
        return received
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}
