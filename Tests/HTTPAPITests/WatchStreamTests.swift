import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import HTTPAPI

/// The watch streams (`/v1/nearby/watch`, `/v1/users/nearby/watch`) on a real socket: the events
/// and their ids, resuming with `Last-Event-ID`, the heartbeat, the end of the watch when the
/// client goes, and a client that reads nothing next to one that reads.
@Suite(.timeLimit(.minutes(10))) struct WatchStreamTests {
    static let here = "lat=41.088154&lon=29.015615"
    static let nearby = "/v1/nearby/watch?\(here)&radius=500"

    /// A server over the fixture; the caller shuts it down.
    static func serve(_ fixture: APIFixture, _ settings: WatchStreamSettings = WatchStreamSettings()) async throws
        -> (server: HTTPServer, port: Int)
    {
        let server = HTTPServer(
            directory: fixture.api.directory, host: "127.0.0.1", port: 0, watchStreams: settings)
        return (server, try await server.start())
    }

    /// Stores a pharmacy as the admin; returns the log position it was stored at.
    @discardableResult
    static func place(_ fixture: APIFixture, _ id: String, _ lat: Double, _ lon: Double) async throws -> UInt64 {
        let place = Place(
            id: id, kind: "pharmacy", name: id.capitalized, coordinate: try Coordinate(latitude: lat, longitude: lon))
        return try await fixture.api.directory.performWithReceipt(.setPlace(place), by: .admin).position
    }

    static func remove(_ fixture: APIFixture, _ id: String) async throws -> UInt64 {
        try await fixture.api.directory.performWithReceipt(.removePlace(kind: "pharmacy", id: id), by: .admin).position
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(_ seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// `name[id] object position` for each event, as the tests compare them.
    static func summary(_ events: [EventStreamClient.Event]) -> [String] {
        events.map { "\($0.name)[\($0.id ?? "-")] \($0.object ?? "-") \($0.position)" }
    }

    @Test func theSnapshotThenEnterMoveAndExitEachWithItsPositionAsId() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let (server, port) = try await Self.serve(fixture)
        let client = try EventStreamClient(port: port, target: Self.nearby)
        let snapshot = await client.receive("ready")
        #expect(snapshot.status == 200)
        #expect(snapshot.headers["content-type"] == "text/event-stream")
        #expect(snapshot.headers["cache-control"] == "no-store")
        let start = try #require(snapshot.events.last?.position)
        #expect(Self.summary(snapshot.events) == ["inside[-] omur \(start)", "ready[\(start)] - \(start)"])

        let entered = try await Self.place(fixture, "yeni", 41.0885, 29.0156)
        let moved = try await Self.place(fixture, "yeni", 41.0887, 29.0157)
        let left = try await Self.place(fixture, "omur", 41.2, 29.1)
        let all = await client.receive(events: 5)
        #expect(
            Self.summary(Array(all.events.dropFirst(2))) == [
                "enter[\(entered)] yeni \(entered)", "move[\(moved)] yeni \(moved)", "exit[\(left)] omur \(left)",
            ])
        // The exit tells the object as it was last reported, not where it went.
        let exit = try #require(all.events.last)
        #expect(exit.json["lat"] as? Double == 41.087853 && exit.json["lon"] as? Double == 29.014096)

        // Each event's data is the contract's WatchEvent; an object's is /v1/nearby's hit for it at
        // the same position, with the event's name, position and watch, and the exact distance and
        // bearing (`WatchEvent.measure`: /v1/nearby's come from its index, within nanometres),
        // written as /v1/nearby writes numbers.
        for event in all.events {
            let decoded = try JSONDecoder().decode(Components.Schemas.WatchEvent.self, from: Data(event.data.utf8))
            #expect(decoded.event.rawValue == event.name && UInt64(decoded.position) == event.position)
        }
        let answer = try await RecordingTransport.serving(fixture).send(.get, "/v1/nearby?\(Self.here)&radius=500")
        let hit = try #require((answer.json["results"] as? [[String: Any]])?.first { $0["id"] as? String == "yeni" })
        let move = all.events[3]
        for key in ["id", "kind", "name"] { #expect(move.json[key] as? String == hit[key] as? String, "\(key)") }
        for key in ["lat", "lon"] { #expect(move.json[key] as? Double == hit[key] as? Double, "\(key)") }
        let exact = try DistanceModel.geodesic.measure(
            Coordinate(latitude: 41.088154, longitude: 29.015615), Coordinate(latitude: 41.0887, longitude: 29.0157))
        // Served to the millimetre and to 0.01° (`ServedPrecision`), as /v1/nearby serves them.
        #expect(hit["distance_m"] as? Double == ServedPrecision.distance(exact.distanceMeters))
        var numbers = JSONText(capacity: 64)
        numbers.raw("{")
        numbers.key("bearing_deg")
        numbers.number(ServedPrecision.bearing(exact.bearing))
        numbers.raw(",")
        numbers.key("distance_m")
        numbers.number(ServedPrecision.distance(exact.distanceMeters))
        numbers.raw(",")
        #expect(move.data.hasPrefix(String(decoding: numbers.bytes, as: UTF8.self)), "\(move.data)")
        client.close()
        await server.shutdown()
    }

    @Test func lastEventIdResumesWithExactlyTheMissedEvents() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let (server, port) = try await Self.serve(fixture)
        let first = try EventStreamClient(port: port, target: Self.nearby)
        let start = try #require(await first.receive("ready").events.last?.position)
        let entered = try await Self.place(fixture, "yeni", 41.0885, 29.0156)
        await first.receive(events: 3)
        first.close()
        // Missed while disconnected.
        let moved = try await Self.place(fixture, "yeni", 41.0887, 29.0157)
        let removed = try await Self.remove(fixture, "yeni")
        let emre = try await Self.place(fixture, "emre", 41.0883, 29.0153)

        let resumed = try EventStreamClient(
            port: port, target: Self.nearby, headers: ["Last-Event-ID": String(entered)])
        let replay = await resumed.receive("ready").events
        let ready = try #require(replay.last)
        // The replay's `ready` is at the position the server has applied: when that is Emre's, it
        // ends Emre's position and takes its id.
        let emreID = ready.position == emre ? "-" : String(emre)
        #expect(
            Self.summary(replay) == [
                "move[\(moved)] yeni \(moved)", "exit[\(removed)] yeni \(removed)", "enter[\(emreID)] emre \(emre)",
                "ready[\(ready.position)] - \(ready.position)",
            ])
        #expect(ready.position >= emre)

        // The query parameter, for clients that cannot send the header; the header wins over it.
        let byQuery = try EventStreamClient(port: port, target: Self.nearby + "&last_event_id=\(start)")
        #expect(
            Self.summary(await byQuery.receive("ready").events).dropLast() == [
                "enter[\(entered)] yeni \(entered)", "move[\(moved)] yeni \(moved)",
                "exit[\(removed)] yeni \(removed)", "enter[\(emreID)] emre \(emre)",
            ])
        let both = try EventStreamClient(
            port: port, target: Self.nearby + "&last_event_id=\(start)", headers: ["Last-Event-ID": String(removed)])
        #expect(Self.summary(await both.receive("ready").events).dropLast() == ["enter[\(emreID)] emre \(emre)"])
        for client in [resumed, byQuery, both] { client.close() }
        await server.shutdown()
    }

    @Test func aPositionWithSeveralEventsHasItsIdOnTheLast() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let (server, port) = try await Self.serve(fixture)
        // Pharmacies within 200 m of Ayşe wherever she goes, with her token.
        let client = try EventStreamClient(
            port: port, target: "/v1/users/ayse/nearby/watch?radius=200",
            headers: ["Authorization": "Bearer \(fixture.ayse)"])
        let start = await client.receive("ready")
        #expect(start.status == 200 && start.events.map(\.name) == ["inside", "ready"], "\(start.events)")
        // To Emre's door: Omur leaves, the centre moves, Emre and Arzu come.
        let location = try Coordinate(latitude: 41.086059, longitude: 29.008232)
        let position = try await fixture.api.directory.performWithReceipt(
            .moveUser("ayse", to: location), by: .admin
        ).position
        let group = Array(await client.receive(events: 6).events.dropFirst(2))
        #expect(group.map(\.name) == ["exit", "center", "enter", "enter"], "\(group)")
        #expect(group.allSatisfy { $0.position == position })
        #expect(group.map(\.id) == [nil, nil, nil, String(position)])
        #expect(
            group[1].data == #"{"center":{"lat":41.086059,"lon":29.008232},"event":"center","#
                + #""position":\#(position),"watch":\#(group[1].json["watch"] as? Int ?? -1)}"#)
        client.close()
        await server.shutdown()
    }

    @Test func aResumeFromAPositionThisServerHasNotAppliedYetWaitsForIt() async throws {
        let store = MemoryStore()
        let fixture = try await APIFixture(store: store)
        defer { fixture.close() }
        let (server, port) = try await Self.serve(fixture)
        // Written by another node: this one has not applied it when the client comes back.
        let elsewhere = Place(
            id: "yeni", kind: "pharmacy", name: "Yeni",
            coordinate: try Coordinate(latitude: 41.0885, longitude: 29.0156))
        let ahead = try store.commit([.putPlace(elsewhere)]).position
        let resumed = try EventStreamClient(port: port, target: Self.nearby, headers: ["Last-Event-ID": String(ahead)])
        try await Task.sleep(for: .milliseconds(200))
        fixture.api.directory.follow(pollInterval: 0.01)
        let events = await resumed.receive("ready").events
        #expect(events.map(\.name) == ["ready"], "nothing was missed: no reset, no snapshot; \(events)")
        resumed.close()
        await server.shutdown()
    }

    @Test func aResumeFromBeyondTheDatabasesHeadIsAResetAtOnce() async throws {
        let store = MemoryStore()
        let fixture = try await APIFixture(store: store)
        defer { fixture.close() }
        let (server, port) = try await Self.serve(fixture)
        // No write made this position: nothing to wait for (the server does not follow the store
        // here, so a wait would end only with its time limit and still give the reset).
        let beyond = try store.head().position + 1_000
        let resumed = try EventStreamClient(port: port, target: Self.nearby, headers: ["Last-Event-ID": String(beyond)])
        let events = await resumed.receive("ready").events
        #expect(events.map(\.name) == ["reset", "inside", "ready"], "\(events)")
        #expect(events.first?.data.contains("position \(beyond) is ahead of this server's") == true)
        resumed.close()
        await server.shutdown()
    }

    @Test func aResumeFromAPositionNoLongerRememberedIsAResetAndAFreshSnapshot() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        // Nothing remembered: every resume starts afresh.
        fixture.api.directory.watchLimits.historyChanges = 0
        let (server, port) = try await Self.serve(fixture)
        let first = try EventStreamClient(port: port, target: Self.nearby)
        let start = try #require(await first.receive("ready").events.last?.position)
        first.close()
        try await Self.place(fixture, "yeni", 41.0885, 29.0156)
        let resumed = try EventStreamClient(port: port, target: Self.nearby, headers: ["Last-Event-ID": String(start)])
        let events = await resumed.receive("ready").events
        #expect(events.map(\.name) == ["reset", "inside", "inside", "ready"], "\(events)")
        #expect(events.first?.id == nil && (events.first?.json["message"] as? String)?.isEmpty == false)
        #expect(Set(events.compactMap(\.object)) == ["omur", "yeni"])
        resumed.close()
        await server.shutdown()
    }

    @Test func aHeartbeatCommentComesAfterEachQuietInterval() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let (server, port) = try await Self.serve(fixture, WatchStreamSettings(heartbeatSeconds: 0.2))
        let client = try EventStreamClient(port: port, target: Self.nearby)
        let started = Date()
        // Generous: under a full parallel run the server's tasks may wait for a core.
        let received = await client.receive(for: 40) { $0.keepAlives >= 3 }
        #expect(received.keepAlives >= 3 && received.events.map(\.name) == ["inside", "ready"])
        #expect(Date().timeIntervalSince(started) >= 0.55, "three heartbeats take three intervals")
        client.close()
        await server.shutdown()
    }

    @Test func theWatchEndsWhenTheClientGoesAwayOrTheServerStops() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let directory = fixture.api.directory
        let (server, port) = try await Self.serve(fixture)
        let first = try EventStreamClient(port: port, target: Self.nearby)
        let second = try EventStreamClient(port: port, target: "/v1/users/nearby/watch?\(Self.here)")
        await first.receive("ready")
        await second.receive("ready")
        #expect(directory.watchStatistics.watches == 2)
        // A client that goes away while its stream is quiet (no heartbeat is due for 15 s).
        first.close()
        #expect(await Self.eventually { directory.watchStatistics.watches == 1 }, "unwatched on disconnect")
        // HEAD: the headers of a stream, no body, no watch left behind.
        let head = try EventStreamClient(port: port, target: Self.nearby, method: "HEAD")
        _ = await head.receive(for: 5) { $0.status != nil }
        #expect(await Self.eventually { directory.watchStatistics.watches == 1 }, "HEAD leaves no watch")
        head.close()
        // Stopping the server ends the stream with a closed event, and the watch.
        async let stopped: Void = server.shutdown()
        let last = await second.receive("closed")
        await stopped
        #expect(last.events.last?.name == "closed" && last.events.last?.id == nil)
        #expect(last.events.last?.json["message"] as? String == "the server is stopping")
        #expect(directory.watchStatistics.watches == 0)
    }

    /// A graceful shutdown does not wait for ever on a client that reads nothing (its stream's
    /// writer is blocked on a full socket): its connection is closed after `stallSeconds`.
    @Test func aStoppingServerDoesNotWaitForAClientThatReadsNothing() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let directory = fixture.api.directory
        let settings = WatchStreamSettings(heartbeatSeconds: 30, queueCapacity: 1_000_000, stallSeconds: 1)
        let (server, port) = try await Self.serve(fixture, settings)
        let name = String(repeating: "S", count: 250)
        _ = try await directory.perform(
            .addUser(User(id: "runner", name: name, location: try Coordinate(latitude: 41.088, longitude: 29.015))),
            by: .admin)
        let stuck = try EventStreamClient(port: port, target: "/v1/users/nearby/watch?\(Self.here)&radius=5000")
        #expect(await Self.eventually { directory.watchStatistics.watches == 1 })
        // More than the socket buffers hold (about 9,000 such events here): the writer blocks.
        for move in 0..<15_000 {
            let location = try Coordinate(latitude: 41.088 + Double(move % 100) * 1e-5, longitude: 29.015)
            _ = try await directory.perform(.moveUser("runner", to: location), by: .admin)
        }
        let started = Date()
        await server.shutdown()
        let took = Date().timeIntervalSince(started)
        #expect(took < 10, "shutdown took \(took) s")
        #expect(directory.watchStatistics.watches == 0)
        stuck.close()
    }

    /// A client that reads nothing fills its stream's queue and is closed, while a second watcher
    /// of the same changes keeps getting its events at once (issue 17, Must-show 4).
    @Test func aClientThatNeverReadsIsClosedWithoutSlowingAnother() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let directory = fixture.api.directory
        let settings = WatchStreamSettings(heartbeatSeconds: 30, queueCapacity: 200, stallSeconds: 1)
        let (server, port) = try await Self.serve(fixture, settings)
        // A user with a long name moving around, so that each event is half a kilobyte.
        let name = String(repeating: "R", count: 250)
        _ = try await directory.perform(
            .addUser(User(id: "runner", name: name, location: try Coordinate(latitude: 41.088, longitude: 29.015))),
            by: .admin)
        let target = "/v1/users/nearby/watch?\(Self.here)&radius=5000"
        let stuck = try EventStreamClient(port: port, target: target)
        let reader = try EventStreamClient(port: port, target: target)
        await reader.receive("ready")
        #expect(await Self.eventually { directory.watchStatistics.watches == 2 })

        /// Moves the runner and returns the seconds until the reader saw that move.
        func timedMove(_ step: Int) async throws -> Double {
            let started = Date()
            let location = try Coordinate(latitude: 41.088 + Double(step % 100) * 1e-5, longitude: 29.015)
            let position = try await directory.performWithReceipt(.moveUser("runner", to: location), by: .admin)
                .position
            await reader.receive(for: 10) { ($0.events.last?.position ?? 0) >= position }
            return Date().timeIntervalSince(started)
        }
        var before: [Double] = []
        for step in 0..<20 { before.append(try await timedMove(step)) }

        // Moves until the stuck client's queue overflows; the reader drains as it goes.
        var moves = 0
        let dropped = directory.watchStatistics.subscribersDropped
        while directory.watchStatistics.subscribersDropped == dropped, moves < 50_000 {
            let location = try Coordinate(latitude: 41.088 + Double(moves % 100) * 1e-5, longitude: 29.0151)
            _ = try await directory.perform(.moveUser("runner", to: location), by: .admin)
            moves += 1
            if moves % 200 == 0 { await reader.receive(for: 0.01) { _ in false } }
        }
        #expect(directory.watchStatistics.subscribersDropped == dropped + 1, "after \(moves) moves")
        // The reader catches up with the flood before it is timed again.
        let last = directory.appliedPosition
        await reader.receive(for: 30) { ($0.events.last?.position ?? 0) >= last }
        var after: [Double] = []
        for step in 0..<20 { after.append(try await timedMove(step)) }
        let median = { (times: [Double]) in times.sorted()[times.count / 2] * 1000 }
        print(
            "never-reading client closed after \(moves) moves; the reader's latency, median before "
                + "\(median(before)) ms, after \(median(after)) ms, worst after \(after.max()! * 1000) ms")
        #expect(after.max()! < 1.0, "the reader's events stay prompt")
        // The stuck client gets its final event when it reads in time, else its connection is
        // closed (after 1 s here): either way its stream is over.
        let final = await stuck.receive(for: 20) { $0.ended }
        #expect(final.closed || final.events.last?.name == "closed", "the stuck client's stream ends")
        #expect(await Self.eventually { directory.watchStatistics.watches == 1 })
        reader.close()
        #expect(await Self.eventually { directory.watchStatistics.watches == 0 })
        await server.shutdown()
    }
}
