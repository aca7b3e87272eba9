import ArgumentParser
import Foundation
import VicinityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `vicinity-bench line-bench`: one client that sends a file of commands to a RESP server (Vicinity or
/// Redis) one at a time, each waiting for its whole reply, and reports calls per second, latency
/// percentiles and a digest of every reply byte — so two servers can be timed on the same query
/// set in the same run and shown to give identical replies. Used by
/// scripts/bench-line.sh.
struct LineBenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "line-bench", abstract: "Time a file of commands against a RESP server, one call at a time.")

    @Option(help: "Server address (IPv4).") var host = "127.0.0.1"
    @Option(help: "Server port.") var port: Int
    @Option(help: "File of commands, one per line, words separated by spaces (no quoting).") var file: String
    @Option(help: "Passes over the file; the median pass is reported.") var passes = 3

    func validate() throws {
        guard (1...65_535).contains(port) else {
            throw ValidationError("invalid port \"\(port)\": expected 1 to 65535")
        }
        guard (1...99).contains(passes) else { throw ValidationError("invalid passes \"\(passes)\": expected 1 to 99") }
    }

    func execute(_ output: inout CommandOutput) throws {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw CLIError.noInput("cannot read \(file)")
        }
        let requests = text.split(whereSeparator: \.isNewline).map { line in
            let words = line.split(separator: " ")
            return Array(("*\(words.count)\r\n" + words.map { "$\($0.utf8.count)\r\n\($0)\r\n" }.joined()).utf8)
        }
        guard !requests.isEmpty else { throw CLIError.data("\(file) holds no command") }
        let connection = try Connection(host: host, port: port)
        defer { connection.close() }
        // A warm-up pass, then the measured ones.
        let digest = try connection.run(requests).digest
        var seconds: [Double] = []
        var latencies: [Double] = []
        for _ in 0..<passes {
            let start = DispatchTime.now().uptimeNanoseconds
            let pass = try connection.run(requests)
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            guard pass.digest == digest else { throw CLIError.internalError("the replies changed between passes") }
            latencies += pass.latencies
        }
        latencies.sort()
        let median = seconds.sorted()[seconds.count / 2]
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(p * Double(latencies.count)))] }
        output.line(
            String(
                format:
                    "%d calls/pass, median pass %.3f s: %.0f calls/s, %.1f µs/call (p50 %.1f, p99 %.1f), replies %.1f KiB/pass, digest %016llx",
                requests.count, median, Double(requests.count) / median, median / Double(requests.count) * 1e6,
                percentile(0.5), percentile(0.99), Double(connection.replyBytes) / Double(passes + 1) / 1024,
                digest))
    }

    /// A blocking TCP connection with Nagle's algorithm off.
    final class Connection {
        private let descriptor: Int32
        private var buffer = [UInt8](repeating: 0, count: 1 << 20)
        private(set) var replyBytes = 0

        init(host: String, port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw CLIError.internalError("socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                Glibc.close(descriptor)
                throw CLIError.usage("invalid host \"\(host)\": expected an IPv4 address such as 127.0.0.1")
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(descriptor)
                throw CLIError.noInput("cannot connect to \(host):\(port): \(reason)")
            }
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }

        func close() { Glibc.close(descriptor) }

        /// Sends each request and reads its whole reply before the next; returns the FNV-1a digest
        /// of all reply bytes and each call's time in microseconds.
        func run(_ requests: [[UInt8]]) throws -> (digest: UInt64, latencies: [Double]) {
            var digest: UInt64 = 0xcbf2_9ce4_8422_2325
            var latencies: [Double] = []
            latencies.reserveCapacity(requests.count)
            for request in requests {
                let start = DispatchTime.now().uptimeNanoseconds
                try send(request)
                let length = try receiveReply()
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
                replyBytes += length
                for byte in buffer[0..<length] { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            }
            return (digest, latencies)
        }

        private func send(_ bytes: [UInt8]) throws {
            var sent = 0
            while sent < bytes.count {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
                guard written > 0 else { throw CLIError.ioError("send failed: \(String(cString: strerror(errno)))") }
                sent += written
            }
        }

        /// Reads until the buffer holds one whole reply; returns its length. The server must not
        /// send anything else (one call in flight at a time).
        private func receiveReply() throws -> Int {
            var filled = 0
            while true {
                if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
                let received = buffer.withUnsafeMutableBytes {
                    read(descriptor, $0.baseAddress! + filled, $0.count - filled)
                }
                guard received > 0 else { throw CLIError.ioError("the server closed the connection") }
                filled += received
                let end = try buffer.withUnsafeBytes { bytes in
                    try RESPReplyScanner.end(of: UnsafeRawBufferPointer(rebasing: bytes[0..<filled]), from: 0)
                }
                if let end {
                    guard end == filled else { throw CLIError.data("the server sent more than one reply") }
                    return end
                }
            }
        }
    }
}
