import Foundation
import Geo
import NIOCore
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// Watches over the wire: `WATCH NEARBY`, `SUBSCRIBE "NEARBY …"`, RESP2's watch mode, RESP3
/// pushes between replies, `OUTPUT json` lines, the errors, the limits, and a client that never
/// reads.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WatchCommandTests {
    typealias Fixture = LineServerTests.Fixture

    static func resp(_ arguments: String...) -> String { LineServerTests.resp(arguments) }

    /// A client that presented `token` (nil: anonymous).
    static func client(_ fixture: Fixture, token: String? = nil, receiveBuffer: Int? = nil) throws -> RawClient {
        let client = try RawClient(port: fixture.port, receiveBuffer: receiveBuffer)
        if let token {
            client.send(resp("AUTH", token))
            _ = client.receive(replies: 1)
        }
        return client
    }

    /// The JSON events in RESP2 or RESP3 text: the payload of every `message`.
    static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\r\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("{\"watch\":") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// A bulk string's RESP text.
    static func bulk(_ text: String) -> String { "$\(text.utf8.count)\r\n\(text)\r\n" }

    static func kinds(_ events: [[String: Any]]) -> [String] { events.compactMap { $0["event"] as? String } }

    // MARK: - RESP2

    @Test func resp2WatchModeRunsOnlyTheWatchCommands() async throws {
        let fixture = try await Fixture.start()
        let client = try Self.client(fixture)
        client.send("WATCH NEARBY pharmacy 41.088154 29.015615 700\r\n")
        // The id, three inside events (nearest first), ready.
        let opened = client.receive(replies: 5)
        #expect(
            opened.hasPrefix(":1\r\n*3\r\n$7\r\nmessage\r\n" + Self.bulk("NEARBY pharmacy 41.088154 29.015615 700")))
        let events = Self.events(opened)
        #expect(Self.kinds(events) == ["inside", "inside", "inside", "ready"])
        #expect(events.first?["id"] as? String == "omur")
        #expect("\(events.first?["distance"] ?? "")" == "131.9361")
        client.send("NEARBY pharmacy 41.088154 29.015615 700\r\n")
        #expect(
            client.receive(replies: 1)
                == "-ERR Can't execute 'nearby': only WATCH / UNWATCH / SUBSCRIBE / UNSUBSCRIBE / PING / QUIT are "
                + "allowed in this context\r\n")
        client.send("HELLO 3\r\n")
        #expect(client.receive(replies: 1).hasPrefix("-ERR Can't execute 'hello'"))
        // Pipelined writes (which otherwise run as one group) are refused one by one.
        client.send("USER.MOVE a 41 29\r\nUSER.MOVE b 41 29\r\n")
        #expect(client.receive(replies: 2).components(separatedBy: "-ERR Can't execute 'user.move'").count == 3)
        client.send("PING\r\n")
        #expect(client.receive(replies: 1) == "*2\r\n$4\r\npong\r\n$0\r\n\r\n")
        client.send("PING hi\r\n")
        #expect(client.receive(replies: 1) == "*2\r\n$4\r\npong\r\n$2\r\nhi\r\n")
        // Plain UNWATCH ends every watch and leaves watch mode.
        client.send("UNWATCH\r\n")
        #expect(client.receive(replies: 1) == "+OK\r\n")
        client.send("PING\r\n")
        #expect(client.receive(replies: 1) == "+PONG\r\n")
        #expect(fixture.server.service.directory.watchStatistics.watches == 0)
        client.send("UNSUBSCRIBE\r\n")
        #expect(client.receive(replies: 1) == "*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n")
        await fixture.server.shutdown()
    }

    @Test func resp2EventsFollowMovesAndAPrivateUserLeavesAsIfOutOfRange() async throws {
        let fixture = try await Fixture.start()
        let watcher = try Self.client(fixture)
        let mover = try Self.client(fixture, token: fixture.admin)
        watcher.send(Self.resp("SUBSCRIBE", "NEARBY user 41.0885 29.0158 1000"))
        // The confirmation, ayşe inside (mehmet is private), ready.
        let opened = watcher.receive(replies: 3)
        #expect(
            opened.hasPrefix("*3\r\n$9\r\nsubscribe\r\n" + Self.bulk("NEARBY user 41.0885 29.0158 1000") + ":1\r\n"))
        #expect(Self.kinds(Self.events(opened)) == ["inside", "ready"])
        #expect(!opened.contains("mehmet"))
        func step(_ command: String, expecting kinds: [String]) -> [[String: Any]] {
            mover.send(command)
            _ = mover.receive(replies: 1)
            let text = watcher.receive(replies: kinds.count)
            let events = Self.events(text)
            #expect(Self.kinds(events) == kinds, "\(command)")
            return events
        }
        _ = step("USER.MOVE ayse 41.0890 29.0160\r\n", expecting: ["move"])
        let outOfRange = step("USER.MOVE ayse 41.2 29.2\r\n", expecting: ["exit"])
        _ = step("USER.MOVE ayse 41.0890 29.0160\r\n", expecting: ["enter"])
        let turnedPrivate = step("USER.VISIBILITY ayse PRIVATE\r\n", expecting: ["exit"])
        // The same fields either way: nothing tells a private user from one who walked away.
        #expect(Set(outOfRange[0].keys) == Set(turnedPrivate[0].keys))
        #expect(turnedPrivate[0]["id"] as? String == "ayse")
        _ = step("USER.VISIBILITY ayse PUBLIC\r\n", expecting: ["enter"])
        // Mehmet (private) moves within range: nothing.
        mover.send("USER.MOVE mehmet 41.0886 29.0157\r\n")
        _ = mover.receive(replies: 1)
        _ = step("USER.DEL ayse\r\n", expecting: ["exit"])
        watcher.send(Self.resp("UNSUBSCRIBE", "news"))
        #expect(watcher.receive(replies: 1) == "*3\r\n$11\r\nunsubscribe\r\n$4\r\nnews\r\n:1\r\n")
        watcher.send("UNSUBSCRIBE\r\n")
        #expect(
            watcher.receive(replies: 1)
                == "*3\r\n$11\r\nunsubscribe\r\n" + Self.bulk("NEARBY user 41.0885 29.0158 1000") + ":0\r\n")
        await fixture.server.shutdown()
    }

    // MARK: - RESP3 and JSON

    @Test func resp3PushesComeBetweenRepliesAndEveryCommandStillRuns() async throws {
        let fixture = try await Fixture.start()
        let watcher = try Self.client(fixture)
        let mover = try Self.client(fixture, token: fixture.admin)
        watcher.send(Self.resp("HELLO", "3"))
        _ = watcher.receive(replies: 1)
        watcher.send(Self.resp("WATCH", "NEARBY", "user", "41.0885", "29.0158", "1", "UNIT", "km"))
        let opened = watcher.receive(replies: 3)
        #expect(opened.hasPrefix(":1\r\n>3\r\n$7\r\nmessage\r\n" + Self.bulk("NEARBY user 41.0885 29.0158 1 UNIT km")))
        #expect(Self.kinds(Self.events(opened)) == ["inside", "ready"])
        // Commands keep running, pushes arrive among their replies.
        mover.send("USER.MOVE ayse 41.2 29.2\r\n")
        _ = mover.receive(replies: 1)
        watcher.send("NEARBY pharmacy 41.088154 29.015615 700\r\nPING\r\n")
        let mixed = watcher.receive(replies: 3)
        #expect(Self.kinds(Self.events(mixed)) == ["exit"])
        #expect(mixed.contains("*3\r\n*4\r\n$4\r\nomur\r\n"))
        #expect(mixed.hasSuffix("+PONG\r\n") || mixed.contains("+PONG\r\n>3\r\n"))
        // UNWATCH id ends it; an unknown id is an error.
        watcher.send("UNWATCH 1\r\nUNWATCH 1\r\nUNWATCH x\r\n")
        #expect(
            watcher.receive(replies: 3)
                == ":1\r\n-ERR no watch 1 on this connection\r\n"
                + "-ERR invalid watch id \"x\": expected a number WATCH answered\r\n")
        await fixture.server.shutdown()
    }

    @Test func outputJSONWritesOneEventALine() async throws {
        let fixture = try await Fixture.start()
        let watcher = try Self.client(fixture)
        watcher.send(
            "OUTPUT json\r\nNEARBY pharmacy 41.088154 29.015615 700\r\nWATCH NEARBY pharmacy 41.088154 29.015615 700\r\n"
        )
        let lines = watcher.receive(lines: 7).split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0] == "{\"ok\":true,\"result\":\"OK\"}")
        #expect(lines[2] == "{\"ok\":true,\"result\":1}")
        #expect(
            lines[3].hasPrefix(
                "{\"watch\":1,\"event\":\"inside\",\"position\":")
                && lines[3].hasSuffix(
                    "\"id\":\"omur\",\"name\":\"Omur\",\"lat\":41.087853,\"lon\":29.014096,\"distance\":131.9361,"
                        + "\"bearing\":255.3}")
        )
        // The same distances and bearings as NEARBY's.
        let nearby = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let hits = try #require(nearby["result"] as? [[Any]])
        for (hit, line) in zip(hits, lines[3...5]) {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect("\(hit[0])" == "\(event["id"] ?? "")")
            #expect("\(hit[2])" == "\(event["distance"] ?? "")")
            #expect("\(hit[3])" == "\(event["bearing"] ?? "")")
        }
        #expect(lines[6].hasPrefix("{\"watch\":1,\"event\":\"ready\",\"position\":"))
        // JSON mode is not watch mode: other commands run.
        watcher.send("PING\r\n")
        #expect(watcher.receive(lines: 1) == "{\"ok\":true,\"result\":\"PONG\"}\n")
        await fixture.server.shutdown()
    }

    @Test func eventTextHasEveryField() throws {
        let center = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let object = WatchedObject(
            id: "o\"1", name: "Ömür", coordinate: try Coordinate(latitude: 41.087853, longitude: 29.014096))
        let enter = WatchEvent(watch: 3, kind: .enter, position: 42, object: object, center: center)
        #expect(
            String(buffer: WatchEventText.json(enter))
                == "{\"watch\":3,\"event\":\"enter\",\"position\":42,\"id\":\"o\\\"1\",\"name\":\"Ömür\","
                + "\"lat\":41.087853,\"lon\":29.014096,\"distance\":131.9361,\"bearing\":255.3}")
        let moved = WatchEvent(watch: 3, kind: .center, position: 43, center: center)
        #expect(
            String(buffer: WatchEventText.json(moved))
                == "{\"watch\":3,\"event\":\"center\",\"position\":43,\"lat\":41.088154,\"lon\":29.015615}")
        let nowhere = WatchEvent(watch: 3, kind: .center, position: 44)
        #expect(
            String(buffer: WatchEventText.json(nowhere))
                == "{\"watch\":3,\"event\":\"center\",\"position\":44,\"lat\":null,\"lon\":null}")
        let closed = WatchEvent(watch: 3, kind: .closed, position: 45, message: "the user was removed")
        #expect(
            String(buffer: WatchEventText.json(closed))
                == "{\"watch\":3,\"event\":\"closed\",\"position\":45,\"message\":\"the user was removed\"}")
        var resp3 = ByteBuffer()
        WatchEventText.write(closed, channel: "NEARBY x", format: .resp3, to: &resp3)
        #expect(String(buffer: resp3).hasPrefix(">3\r\n$7\r\nmessage\r\n$8\r\nNEARBY x\r\n$"))
        var json = ByteBuffer()
        WatchEventText.write(closed, channel: "NEARBY x", format: .json, to: &json)
        #expect(String(buffer: json) == String(buffer: WatchEventText.json(closed)) + "\n")
    }

    // MARK: - Errors and limits

    @Test func badArgumentsAreRefusedAsNearbyRefusesThem() async throws {
        let fixture = try await Fixture.start()
        let client = try Self.client(fixture)
        for arguments in [
            "pharmacy nan 29 500", "pharmacy 91 29 500", "pharmacy 41 29 -1", "pharmacy 41 29 500 UNIT yd",
            "pharmacy 41 29 500 MODEL flat", String(repeating: "k", count: 65) + " 41 29 500",
        ] {
            client.send("NEARBY \(arguments)\r\nWATCH NEARBY \(arguments)\r\n")
            let replies = client.receive(replies: 2).split(separator: "\r\n")
            #expect(replies.count == 2 && replies[0] == replies[1] && replies[0].hasPrefix("-ERR"), "\(arguments)")
        }
        client.send("WATCH NEARBY pharmacy 41 29 500 LIMIT 3\r\n")
        #expect(client.receive(replies: 1).hasPrefix("-ERR syntax error: unexpected 'LIMIT' after the radius"))
        client.send("WATCH NEARBY pharmacy 41 29 500 MODEL projected\r\n")
        #expect(
            client.receive(replies: 1)
                == "-ERR invalid model \"projected\" for a watch: expected geodesic or haversine\r\n")
        client.send(Self.resp("SUBSCRIBE", "news"))
        #expect(client.receive(replies: 1).hasPrefix("-ERR channel \"news\" is not a watch"))
        // WATCH of keys keeps Redis's meaning: NEARBY with fewer than four more arguments is a key.
        client.send("WATCH NEARBY pharmacy\r\nUNWATCH\r\n")
        #expect(client.receive(replies: 2) == "+OK\r\n+OK\r\n")
        client.send("MULTI\r\nWATCH NEARBY pharmacy 41 29 500\r\nSUBSCRIBE x\r\nDISCARD\r\n")
        #expect(
            client.receive(replies: 4)
                == "+OK\r\n-ERR WATCH inside MULTI is not allowed\r\n-ERR SUBSCRIBE inside MULTI is not allowed\r\n"
                + "+OK\r\n")
        #expect(fixture.server.service.directory.watchStatistics.watches == 0)
        await fixture.server.shutdown()
    }

    @Test func roamingWatchesNeedTheUsersToken() async throws {
        let fixture = try await Fixture.start()
        // Mehmet is private: to anyone else he does not exist.
        let ayse = try Self.client(fixture, token: fixture.ayse)
        ayse.send("WATCH NEARBY pharmacy USER mehmet 500\r\n")
        let hidden = ayse.receive(replies: 1)
        ayse.send("USER.GET mehmet\r\n")
        #expect(hidden == ayse.receive(replies: 1))
        #expect(hidden.hasPrefix("-ERR"))
        // Ayşe is public: another user may see her, not watch around her.
        let mehmet = try Self.client(fixture, token: fixture.mehmet)
        mehmet.send("WATCH NEARBY pharmacy USER ayse 500\r\n")
        #expect(mehmet.receive(replies: 1).hasPrefix("-NOPERM"))
        // Her own token (and the admin's) may.
        ayse.send("HELLO 3\r\nWATCH NEARBY pharmacy USER ayse 500\r\n")
        let own = ayse.receive(replies: 4)
        #expect(own.contains(":1\r\n>3\r\n$7\r\nmessage\r\n" + Self.bulk("NEARBY pharmacy USER ayse 500")))
        #expect(Self.kinds(Self.events(own)) == ["inside", "ready"])
        // She walks away: the pharmacies leave (measured from where she was), then the centre moves.
        ayse.send("USER.MOVE ayse 41.2 29.2\r\n")
        let walked = Self.events(ayse.receive(replies: 3))
        #expect(Self.kinds(walked) == ["exit", "center"])
        #expect(walked.last?["lat"] as? Double == 41.2 && walked.last?["lon"] as? Double == 29.2)
        #expect(walked.first?["distance"] as? Double ?? 1_000 < 500)
        await fixture.server.shutdown()
    }

    @Test func limitsPerConnectionAndPerServer() async throws {
        let fixture = try await Fixture.start {
            $0.watchLimits = WatchLimits(maximumWatches: 3, maximumPerSubscriber: 2, historyChanges: 10)
        }
        let first = try Self.client(fixture)
        first.send("HELLO 3\r\n")
        _ = first.receive(replies: 1)
        first.send(
            "WATCH NEARBY pharmacy 41 29 5\r\nWATCH NEARBY pharmacy 41 29 6\r\nWATCH NEARBY pharmacy 41 29 7\r\n")
        let replies = first.receive(replies: 2 + 2 + 1)
        #expect(replies.contains("-ERR too many watches"))
        let second = try Self.client(fixture)
        second.send("HELLO 3\r\nWATCH NEARBY pharmacy 41 29 8\r\nWATCH NEARBY pharmacy 41 29 9\r\n")
        let more = second.receive(replies: 1 + 2 + 1)
        #expect(more.contains("-ERR too many watches"))
        second.send("INFO watches\r\n")
        let info = second.receive(replies: 1)
        #expect(info.contains("watches:3\r\n") && info.contains("max_watches:3\r\n"))
        await fixture.server.shutdown()
    }

    @Test func aClosedConnectionsWatchesEnd() async throws {
        let fixture = try await Fixture.start()
        let directory = fixture.server.service.directory
        do {
            let client = try Self.client(fixture)
            client.send("WATCH NEARBY pharmacy 41 29 5\r\nWATCH NEARBY user 41 29 5\r\n")
            _ = client.receive(replies: 4)
            #expect(directory.watchStatistics.watches == 2)
        }
        for _ in 0..<100 where directory.watchStatistics.watches > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(directory.watchStatistics.watches == 0)
        #expect(directory.watchStatistics.subscribers == 0)
        await fixture.server.shutdown()
    }

    // MARK: - Back-pressure

    /// A client that watches and never reads: its queue fills once the socket and the channel's
    /// buffer are full, the subscriber is closed and the connection with it; another watcher
    /// meanwhile gets every event at once.
    @Test func aClientThatNeverReadsIsClosedAndNobodyElseWaits() async throws {
        let fixture = try await Fixture.start {
            $0.watchQueue = 400
            $0.outputHighWaterMark = 1 << 16
            $0.outputStallSeconds = 0
        }
        let directory = fixture.server.service.directory
        let sleeper = try Self.client(fixture, receiveBuffer: 4_096)
        sleeper.send((0..<20).map { "WATCH NEARBY user 41.0885 29.0158 \(1_000 + $0)\r\n" }.joined())
        let reader = try Self.client(fixture)
        reader.send("HELLO 3\r\nWATCH NEARBY user 41.0885 29.0158 5000\r\n")
        _ = reader.receive(replies: 1 + 1 + 2)
        let mover = try Self.client(fixture, token: fixture.admin)
        var moves = 0
        var latencies: [Double] = []
        let started = Date()
        while directory.watchStatistics.subscribersDropped == 0, Date().timeIntervalSince(started) < 60 {
            // Twenty events a move for the sleeper, one for the reader.
            let batch = (0..<100).map { index in
                "USER.MOVE ayse 41.08\(50 + (moves + index) % 40) 29.0158\r\n"
            }
            mover.send(batch.joined())
            _ = mover.receive(replies: batch.count)
            moves += batch.count
            let text = reader.receive(replies: batch.count)
            #expect(Self.kinds(Self.events(text)).count == batch.count)
            // One move on its own: from its acknowledgement to the reader's event.
            mover.send("USER.MOVE ayse 41.0849 29.0158\r\nUSER.MOVE ayse 41.0848 29.0158\r\n")
            _ = mover.receive(replies: 2)
            let acknowledged = Date()
            _ = reader.receive(replies: 2)
            latencies.append(Date().timeIntervalSince(acknowledged))
            moves += 2
        }
        #expect(directory.watchStatistics.subscribersDropped == 1)
        // While the sleeper's events piled up, the reader's came at once.
        #expect(latencies.max() ?? 0 < 0.5, "\(latencies)")
        // The sleeper's connection is closed (what it has not read is dropped with it).
        var closedAfter: Double?
        for _ in 0..<50 {
            if directory.watchStatistics.watches == 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(directory.watchStatistics.watches == 1)
        let drained = await sleeper.receive(for: 20)
        closedAfter = drained.closedAfter
        #expect(closedAfter != nil)
        // The reader still gets a move's event at once.
        let before = Date()
        mover.send("USER.MOVE ayse 41.0851 29.0159\r\n")
        _ = mover.receive(replies: 1)
        let last = reader.receive(replies: 1)
        #expect(Self.kinds(Self.events(last)) == ["move"])
        #expect(Date().timeIntervalSince(before) < 1)
        await fixture.server.shutdown()
    }
}
