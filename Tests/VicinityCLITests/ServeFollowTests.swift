import Foundation
import Glibc
import TestSupport
import Testing

@testable import VicinityCLI

/// Issue 16, must show 2: `serve` follows its database. What other processes commit — an import
/// of 10,000 places, a user added or made private, a new admin token — is in the server's answers
/// within 100 ms, without a restart.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServeFollowTests {
    /// Runs `vicinity` as a separate process and waits for it; its exit status and output.
    static func vicinity(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = try #require(BuiltExecutable.url("vicinity"))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Sends one inline command and returns its reply.
    static func ask(_ client: RawClient, _ command: String) -> String {
        client.send(command + "\r\n")
        return client.receive(replies: 1)
    }

    /// Asks `command` every 2 ms until `done` holds for the reply; the milliseconds it took, or nil
    /// after 5 s.
    static func millisecondsUntil(_ client: RawClient, _ command: String, _ done: (String) -> Bool) -> Double? {
        let start = DispatchTime.now().uptimeNanoseconds
        while true {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            if done(ask(client, command)) { return elapsed }
            if elapsed > 5_000 { return nil }
            usleep(2_000)
        }
    }

    @Test func writesByOtherProcessesAreServedWithin100Milliseconds() throws {
        let database = TestEnvironment.freshDatabase()
        let (status, tokenLine) = try Self.vicinity(["admin-token", "--db", database])
        try #require(status == 0)
        let admin = tokenLine.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServeTests.Server(["--db", database, "--line-port", "0", "--no-http"])
        defer {
            kill(server.process.processIdentifier, SIGTERM)
            _ = server.finish()
        }
        try #require(server.wait(for: "(line protocol)\n"), "\(server.standardError)")
        let client = try RawClient(port: try #require(server.port(of: "line protocol")))

        // An import of 10,000 places by another process.
        let folder = (database as NSString).deletingLastPathComponent
        var csv = "id,name,lat,lon\n"
        for index in 0..<10_000 { csv += "p\(index),Place \(index),\(40 + Double(index) / 1e4),29\n" }
        try csv.write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        #expect(try Self.vicinity(["import", folder + "/places.csv", "--kind", "pharmacy", "--db", database]).0 == 0)
        let imported = Self.millisecondsUntil(client, "NEAREST pharmacy 40.9999 29 1") { $0.contains("p9999") }
        #expect(imported != nil && imported! <= 100, "the import was served after \(imported ?? -1) ms")

        // A user added, then made private, by `vicinity user`.
        let asAdmin = ["VICINITY_TOKEN": admin]
        #expect(
            try Self.vicinity(
                ["user", "add", "ayse", "--name", "Ayşe", "--at", "39", "32", "--db", database],
                environment: asAdmin
            ).0 == 0)
        let added = Self.millisecondsUntil(client, "NEARBY user 39 32 200") { $0.contains("ayse") }
        #expect(added != nil && added! <= 100, "the new user was served after \(added ?? -1) ms")
        #expect(
            try Self.vicinity(["user", "visibility", "ayse", "private", "--db", database], environment: asAdmin).0
                == 0)
        let hidden = Self.millisecondsUntil(client, "NEARBY user 39 32 200") {
            $0.hasPrefix("*") && !$0.contains("ayse")
        }
        #expect(hidden != nil && hidden! <= 100, "the private user left the answers after \(hidden ?? -1) ms")

        // The admin token rotated by the operator: the old one stops working, the new one works.
        #expect(Self.ask(client, "AUTH \(admin)") == "+OK\r\n")
        let (rotated, newLine) = try Self.vicinity(["admin-token", "--rotate", "--db", database])
        #expect(rotated == 0)
        let newToken = newLine.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = Self.millisecondsUntil(client, "AUTH \(admin)") { $0.hasPrefix("-") }
        #expect(refused != nil && refused! <= 100, "the old admin token was refused after \(refused ?? -1) ms")
        #expect(Self.ask(client, "AUTH \(newToken)") == "+OK\r\n")
        print(
            "followed: import \(imported ?? -1) ms, user \(added ?? -1) ms, private \(hidden ?? -1) ms, token \(refused ?? -1) ms"
        )
    }
}
