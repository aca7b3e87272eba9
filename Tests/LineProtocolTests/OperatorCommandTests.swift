import Foundation
import TestSupport
import Testing

@testable import LineProtocol

/// CLIENT, MONITOR, SLOWLOG, SCAN, KEYS, MEMORY and INFO as an operator's tools use them.
@Suite struct OperatorCommandTests {
    typealias Fixture = RedisGeoCommandTests.Fixture
    typealias Server = LineServerTests.Fixture

    static func resp(_ arguments: String...) -> String { LineServerTests.resp(arguments) }

    /// The `id=…` lines of a `CLIENT LIST` reply (split on scalars: `\r\n` is one `Character`).
    static func lines(_ reply: String) -> [String] {
        reply.unicodeScalars.split(separator: "\n").map { String($0) }.filter { $0.hasPrefix("id=") }
    }

    /// The `id=` of a connection, from its `CLIENT ID` reply.
    static func clientID(_ client: RawClient) -> String {
        client.send(Self.resp("CLIENT", "ID"))
        return String(client.receive(replies: 1).dropFirst().prefix { $0.isNumber })
    }

    @Test func clientListShowsConnectionsAndKillIsForTheAdmin() async throws {
        let server = try await Server.start()
        let admin = try server.client()
        admin.send(Self.resp("AUTH", server.admin) + Self.resp("CLIENT", "SETNAME", "operator"))
        #expect(admin.receive(replies: 2) == "+OK\r\n+OK\r\n")
        let other = try server.client()
        other.send(Self.resp("CLIENT", "SETINFO", "LIB-NAME", "redis-py"))
        #expect(other.receive(replies: 1) == "+OK\r\n")
        let otherID = Self.clientID(other)

        admin.send(Self.resp("CLIENT", "LIST"))
        let list = admin.receive(replies: 1)
        let lines = Self.lines(list)
        #expect(lines.count == 2, "\(list)")
        #expect(lines.contains { $0.contains(" name=operator ") && $0.contains(" cmd=client|list ") })
        #expect(lines.contains { $0.hasPrefix("id=\(otherID) addr=127.0.0.1:") && $0.contains(" lib-name=redis-py ") })
        #expect(lines.allSatisfy { $0.contains(" laddr=127.0.0.1:\(server.port) ") && $0.contains(" flags=N ") })

        // Without the admin token a client sees and closes only its own connection.
        other.send(Self.resp("CLIENT", "LIST"))
        let own = other.receive(replies: 1)
        #expect(Self.lines(own).count == 1)
        #expect(!own.contains("operator"))
        other.send(Self.resp("CLIENT", "KILL", "ID", "1"))
        #expect(other.receive(replies: 1).hasPrefix("-NOPERM "))

        admin.send(Self.resp("CLIENT", "KILL", "ID", otherID))
        #expect(admin.receive(replies: 1) == ":1\r\n")
        let closed = await other.receive(for: 5)
        #expect(closed.closedAfter != nil)
        admin.send(Self.resp("CLIENT", "KILL", "127.0.0.1:1"))
        #expect(admin.receive(replies: 1) == "-ERR No such client\r\n")
        await server.server.shutdown()
    }

    @Test func monitorStreamsEveryCommandWithSecretsRedacted() async throws {
        let server = try await Server.start()
        let monitor = try server.client()
        monitor.send(Self.resp("MONITOR"))
        #expect(monitor.receive(replies: 1).hasPrefix("-NOPERM "))
        monitor.send(Self.resp("AUTH", server.admin) + Self.resp("MONITOR"))
        #expect(monitor.receive(replies: 2) == "+OK\r\n+OK\r\n")

        let client = try server.client()
        client.send(
            Self.resp("AUTH", server.ayse) + Self.resp("HELLO", "2", "AUTH", "default", server.ayse)
                + Self.resp("NEARBY", "pharmacy", "41.0885", "29.0158", "500") + Self.resp("ECHO", "a \"b\"\n")
                + Self.resp("NOSUCH", server.ayse))
        _ = client.receive(replies: 5)
        let stream = await monitor.receive(for: 5) { $0.contains("ECHO") }
        let lines = stream.text.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 4, "\(stream.text)")
        #expect(!stream.text.contains(server.ayse))
        #expect(
            lines.first?.range(
                of: #"^\+\d+\.\d{6} \[0 127\.0\.0\.1:\d+\] "AUTH" "\(redacted\)"$"#, options: .regularExpression) != nil
        )
        #expect(lines.dropFirst().first?.hasSuffix(#""HELLO" "2" "AUTH" "(redacted)" "(redacted)""#) == true)
        #expect(lines.dropFirst(2).first?.hasSuffix(#""NEARBY" "pharmacy" "41.0885" "29.0158" "500""#) == true)
        #expect(lines.last?.hasSuffix(#""ECHO" "a \"b\"\n""#) == true)
        await server.server.shutdown()
    }

    @Test func slowLogKeepsRedactedAndShortenedEntries() async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.run(["CONFIG", "GET", "slowlog-*"])
                == .map(["slowlog-log-slower-than": .text("10000"), "slowlog-max-len": .text("128")]))
        #expect(await fixture.run(["CONFIG", "SET", "slowlog-log-slower-than", "0"], as: fixture.anonymous) != .ok)
        // Threshold 0 logs every command, CONFIG SET itself included; 4 entries are kept.
        #expect(await fixture.run(["CONFIG", "SET", "slowlog-log-slower-than", "0", "slowlog-max-len", "4"]) == .ok)
        _ = await fixture.run(["AUTH", "secret-password"])
        _ = await fixture.run(["ECHO", String(repeating: "x", count: 200)])
        _ = await fixture.run(["EXISTS"] + (1...40).map { "k\($0)" })
        #expect(await fixture.run(["SLOWLOG", "LEN"]) == .integer(4))
        let all = await fixture.run(["SLOWLOG", "GET", "-1"])
        guard let entries = all.elements, entries.count == 4, let exists = entries[1].elements,
            let echo = entries[2].elements, let auth = entries[3].elements
        else {
            Issue.record("\(all)")
            return
        }
        #expect(exists.count == 6)
        #expect(entries[0].elements?[3] == .array([.text("SLOWLOG"), .text("LEN")]))
        let existsArguments = exists[3].elements ?? []
        #expect(existsArguments.count == 32)
        // Redis counts the name too: 41 words, 31 kept, the 32nd says 41 - 32 + 1 more.
        #expect(existsArguments.last == .text("... (10 more arguments)"))
        #expect(echo[3].elements?.last == .text(String(repeating: "x", count: 128) + "... (72 more bytes)"))
        #expect(auth[3] == .array([.text("AUTH"), .text("(redacted)")]))
        #expect(await fixture.run(["SLOWLOG", "GET"], as: fixture.anonymous).isNoPermission)
        #expect(await fixture.run(["SLOWLOG", "RESET"]) == .ok)
        #expect(await fixture.run(["SLOWLOG", "LEN"]) == .integer(1))  // RESET itself, with threshold 0
    }

    @Test func scanAndKeysListOnlyWhatTheCallerMaySee() async throws {
        let fixture = try Fixture()
        #expect(await fixture.run(["KEYS", "*"]) == .array([.text("polar"), .text("user")]))
        _ = await fixture.run(["USER.VISIBILITY", "ayse", "private"])
        // Only private users now: `user` is in no listing, not even for a private user himself.
        for session in [fixture.admin, fixture.anonymous, fixture.mehmet] {
            #expect(await fixture.run(["KEYS", "*"], as: session) == .array([.text("polar")]))
            #expect(await fixture.run(["SCAN", "0"], as: session) == .array([.text("0"), .array([.text("polar")])]))
        }
        _ = await fixture.run(["GEOADD", "cafes", "29", "41", "a"])
        _ = await fixture.run(["GEOADD", "bakeries", "29", "41", "b"])
        #expect(
            await fixture.run(["SCAN", "0", "COUNT", "2"])
                == .array([.text("2"), .array([.text("bakeries"), .text("cafes")])]))
        #expect(await fixture.run(["SCAN", "2", "COUNT", "2"]) == .array([.text("0"), .array([.text("polar")])]))
        #expect(
            await fixture.run(["SCAN", "0", "MATCH", "[bc]a*s", "TYPE", "zset"])
                == .array([.text("0"), .array([.text("bakeries"), .text("cafes")])]))
        #expect(await fixture.run(["SCAN", "0", "TYPE", "string"]) == .array([.text("0"), .array([])]))
        #expect(await fixture.run(["SCAN", "x"]) == .error("ERR invalid cursor"))
        #expect(await fixture.run(["MEMORY", "USAGE", "cafes", "SAMPLES", "0"]) == .integer(64 + 80))
        #expect(await fixture.run(["MEMORY", "USAGE", "user"]) == .nullBulk)
    }

    @Test(arguments: [
        ("*", "anything", true), ("a?c", "abc", true), ("a?c", "ac", false), ("[bc]at", "cat", true),
        ("[^bc]at", "cat", false), ("[a-c]x", "bx", true), ("\\*", "*", true), ("\\*", "a", false),
        ("h*o", "hello", true), ("h*l", "hello", false), ("user", "user", true), ("*.*", "place.set", true),
    ])
    func globsMatchAsRedis(pattern: String, text: String, matches: Bool) {
        #expect(KeyPattern(pattern).matches(text) == matches)
    }

    @Test func infoHasTheFieldsRedisToolsRead() async throws {
        let fixture = try Fixture()
        let info = ConnectionCommandTests.text(await fixture.run(["INFO"]))
        for field in [
            "used_memory:", "used_memory_human:", "connected_clients:", "blocked_clients:0",
            "total_connections_received:", "total_commands_processed:", "instantaneous_ops_per_sec:",
            "db0:keys=2,expires=0,avg_ttl=0", "# Memory\r\n", "# Persistence\r\n", "places:1",
        ] {
            #expect(info.contains(field), "\(field)")
        }
        let used = info.split(separator: "\r\n").first { $0.hasPrefix("used_memory:") }.flatMap {
            Int($0.dropFirst(12))
        }
        #expect((used ?? 0) > 0)
        #expect(LineService.humanBytes(512) == "512B")
        #expect(LineService.humanBytes(1536) == "1.50K")
        #expect(LineService.humanBytes(3 * 1024 * 1024) == "3.00M")
    }
}

extension RESPReply {
    var elements: [RESPReply]? {
        if case .array(let elements) = self.expanded { return elements }
        return nil
    }

    var isNoPermission: Bool {
        if case .error(let line) = self { return line.hasPrefix("NOPERM ") }
        return false
    }
}
