import Foundation
import Glibc
import Places
import PlacesSQLite
import TestSupport
import Testing

@testable import VicinityCLI

/// `vicinity serve` as a process: a port in use on either protocol, and a graceful stop on SIGTERM
/// that keeps what was acknowledged.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServeTests {
    /// A running `vicinity serve`, its standard error read as it comes.
    final class Server {
        let process = Process()
        private let errors = Pipe()
        private(set) var standardError = ""

        init(_ arguments: [String]) throws {
            process.executableURL = BuiltExecutable.url("vicinity")
            process.arguments = ["serve"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
        }

        /// Reads standard error until it holds `text` or the process ended; whether it does.
        func wait(for text: String) -> Bool {
            while !standardError.contains(text) {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { return false }
                standardError += String(decoding: chunk, as: UTF8.self)
            }
            return true
        }

        /// Waits for the end; the exit status, and everything written on standard error.
        func finish() -> Int32 {
            standardError += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// The port that `serve` says it listens on for `protocolName` ("line protocol", "HTTP").
        func port(of protocolName: String) -> Int? {
            let pattern = try? NSRegularExpression(pattern: "127\\.0\\.0\\.1:([0-9]+) \\(\(protocolName)\\)")
            let range = NSRange(standardError.startIndex..., in: standardError)
            guard let match = pattern?.firstMatch(in: standardError, range: range),
                let digits = Range(match.range(at: 1), in: standardError)
            else { return nil }
            return Int(standardError[digits])
        }
    }

    /// A socket listening on 127.0.0.1, on a port the system chose: a port in use.
    final class BusyPort {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && listen(descriptor, 1) == 0
                        && getsockname(descriptor, $0, &length) == 0
                }
            }
            try #require(bound)
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    /// Regression: a line port in use ended `serve` with exit 70 and NIO's `bind(descriptor:…)
    /// (errno: 98)`, naming no port. Either port in use is a usage error naming the address.
    @Test(arguments: ["line", "http"])
    func aPortInUseIsAUsageErrorNamingTheAddress(busy: String) throws {
        let taken = try BusyPort()
        let ports =
            busy == "line" ? ["--line-port", "\(taken.port)"] : ["--line-port", "0", "--http-port", "\(taken.port)"]
        let server = try Server(["--db", TestEnvironment.freshDatabase()] + ports)
        #expect(server.finish() == 64, "\(server.standardError)")
        let expected =
            busy == "line"
            ? "vicinity: cannot serve the line protocol on 127.0.0.1:\(taken.port): Address already in use "
                + "(choose another --line-port)"
            : "vicinity: cannot serve HTTP on 127.0.0.1:\(taken.port): Address already in use "
                + "(choose another --http-port, or --no-http)"
        #expect(server.standardError.contains(expected), "\(server.standardError)")
        #expect(!server.standardError.contains("serving"))
    }

    /// Must show (issue 14): SIGTERM stops `serve` gracefully: exit 0, "stopping" then "stopped",
    /// and a write acknowledged before it is in the database afterwards. The request log names the
    /// write, never the token.
    @Test func sigtermStopsGracefullyKeepingAcknowledgedWrites() throws {
        let database = TestEnvironment.freshDatabase()
        let admin = CLI.test(["admin-token", "--db", database]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(admin.utf8.count == 43)
        let server = try Server(["--db", database, "--line-port", "0", "--http-port", "0", "--log-level", "info"])
        try #require(server.wait(for: "(HTTP)\n"), "\(server.standardError)")
        let port = try #require(server.port(of: "line protocol"), "\(server.standardError)")
        let client = try RawClient(port: port)
        client.send("AUTH \(admin)\r\nPLACE.SET pharmacy kept 41.0881 29.0151\r\n")
        #expect(client.receive(until: "+OK\r\n+OK\r\n") == "+OK\r\n+OK\r\n")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.finish() == 0, "\(server.standardError)")
        #expect(server.process.terminationReason == .exit)
        let log = server.standardError
        let stopping = log.range(of: "vicinity: stopping: answering what clients sent, then closing\n")
        let stopped = log.range(of: "vicinity: stopped\n")
        #expect(stopping != nil && stopped != nil && stopping!.upperBound <= stopped!.lowerBound, "\(log)")
        #expect(log.contains("command=PLACE.SET") && log.contains("outcome=ok"), "\(log)")
        #expect(!log.contains(admin), "the token is not logged")
        let store = try SQLitePlaceStore(path: database)
        #expect(try store.places().contains { $0.id == "kept" })
    }
}
