import Foundation
import Geo
import Places
import Testing

/// Issue 18, must-show 1: no reply depends on more than the published cell. Public `street`
/// users are moved to random positions inside one cell each, in copies of one world, and every
/// question that can show a user is asked on every surface — the command line (text, JSON,
/// GeoJSON, maps), the line protocol (RESP2, RESP3, inline and `OUTPUT json`: its queries,
/// maps, Redis geo and sorted-set commands and `USER.GET`), the HTTP API (JSON, GeoJSON, maps,
/// records, with status and headers) and the live watches (line `WATCH NEARBY` in three forms,
/// SSE on both watch routes, a Redis `WATCH user` around `EXEC`) — as the anonymous, another
/// user and the admin (whose record reads are the exact ones by design, so only they are left
/// out). Every reply must be byte-identical across the positions.
///
/// The negative control runs the same harness with the targets at `exact`: then every surface,
/// each on its own, must give at least one reply that differs, so no surface's probes are blind
/// to the target.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PublishedCellTests {
    /// One reply: where it came from, what was asked, and its bytes.
    struct Probe {
        var surface: String
        var query: String
        var reply: String
    }

    /// Who asks: a name, and the token presented (nil: nobody's).
    typealias Asker = (name: String, token: String?)

    @Test func noReplyDependsOnMoreThanThePublishedCell() async throws {
        let (worlds, streams) = try await Self.runWorlds(precision: .street, count: 8, seed: 1818)
        var differences: [(asked: String, replies: String)] = []
        for (number, probes) in worlds.enumerated().dropFirst() {
            #expect(probes.count == worlds[0].count)
            for (first, other) in zip(worlds[0], probes) where first.reply != other.reply || first.query != other.query
            {
                let asked = "\(first.surface) — \(first.query)"
                guard !differences.contains(where: { $0.asked == asked }) else { continue }
                differences.append((asked, "--- world 0:\n\(first.reply)\n--- world \(number):\n\(other.reply)"))
            }
        }
        let unknown = differences
        if !unknown.isEmpty {
            Issue.record(
                """
                \(unknown.count) questions got different replies in worlds that differ only inside the cells:
                \(unknown.map(\.asked).joined(separator: "\n"))
                The first two:
                \(unknown.prefix(2).map { "\($0.asked)\n\($0.replies)" }.joined(separator: "\n\n"))
                """)
        }
        #expect(worlds[0].count > 500, "\(worlds[0].count) probes")
        // A move inside the cell is no event: the next thing every watch receives after its
        // snapshot is the sentinel walking in.
        for stream in streams {
            #expect(stream.eventsAfterReady == 1 && stream.nextNamesSentinel, "\(stream.surface): \(stream.afterReady)")
        }
        // And no Redis `WATCH user` noticed the move: `EXEC` ran.
        for probes in worlds {
            for probe in probes where probe.surface == "Redis WATCH" { #expect(!probe.reply.contains("*-1\r\n")) }
        }
    }

    @Test func theProbesSeeAnExactUserOnEverySurface() async throws {
        let (worlds, streams) = try await Self.runWorlds(precision: .exact, count: 4, seed: 1818)
        let surfaces = Set(worlds[0].map(\.surface))
        var differing: Set<String> = []
        for probes in worlds.dropFirst() {
            for (first, other) in zip(worlds[0], probes) where first.reply != other.reply {
                differing.insert(first.surface)
            }
        }
        // The Redis `WATCH` reply is the same in every world (the move touches the key each
        // time): what shows it sees the move is that `EXEC` was refused.
        differing.insert("Redis WATCH")
        for probes in worlds {
            for probe in probes where probe.surface == "Redis WATCH" { #expect(probe.reply.contains("*-1\r\n")) }
        }
        #expect(surfaces.subtracting(differing).isEmpty, "blind: \(surfaces.subtracting(differing).sorted())")
        #expect(surfaces.count >= 18, "\(surfaces.sorted())")
        // An exact move inside the circle is an event, before the sentinel's.
        for stream in streams { #expect(stream.eventsAfterReady >= 2, "\(stream.surface): \(stream.afterReady)") }
    }

    // MARK: - The harness

    /// What a watch received after its snapshot, in the last world.
    struct StreamTail {
        var surface: String
        var afterReady: String
        var eventsAfterReady: Int { afterReady.components(separatedBy: "\"event\":\"").count - 1 }
        var nextNamesSentinel: Bool { afterReady.contains("\"id\":\"sentinel-") }
    }

    /// Builds `count` worlds, each with the targets at fresh random positions inside their cells;
    /// every world's probes, and the watch tails of every world.
    static func runWorlds(precision: LocationPrecision, count: Int, seed: UInt64) async throws -> (
        [[Probe]], [StreamTail]
    ) {
        var random = SplitMix64(seed: seed)
        let blueprint = try await PrivacyWorld.blueprint(targetPrecision: precision, random: &random)
        defer { blueprint.folder.remove() }
        var worlds: [[Probe]] = []
        var tails: [StreamTail] = []
        for number in 0..<count {
            // Two positions a cell: where the target is when the watches open, and where it moves
            // while they watch.
            let first = try blueprint.cells.map { try PrivacyWorld.randomPosition(in: $0, &random) }
            let second = try blueprint.cells.map { try PrivacyWorld.randomPosition(in: $0, &random) }
            let world = try await PrivacyWorld(copying: blueprint, number: number)
            let (probes, worldTails) = try await probe(world, blueprint, first: first, second: second)
            await world.close()
            worlds.append(probes)
            tails += worldTails
        }
        return (worlds, tails)
    }

    /// One world: the targets placed at `first`, the watches opened, the targets moved to
    /// `second`, every question asked, the sentinels walked in, the watches read.
    static func probe(
        _ world: PrivacyWorld, _ blueprint: PrivacyWorld.Blueprint, first: [Coordinate], second: [Coordinate]
    ) async throws -> ([Probe], [StreamTail]) {
        let observer = blueprint.tokens["observer"]
        let askers: [Asker] = [("anonymous", nil), ("observer", observer), ("admin", blueprint.adminToken)]
        for (cell, position) in zip(blueprint.cells, first) { try await world.move(cell.target, to: position) }

        let watches = try await openWatches(world, blueprint, observer: observer)
        let redisWatch = try Wire(port: world.linePort)
        _ = await redisWatch.exchange(RESP.array(["WATCH", "user"]), replies: 1)

        for (cell, position) in zip(blueprint.cells, second) { try await world.move(cell.target, to: position) }

        var probes: [Probe] = []
        let exec = await redisWatch.exchange(
            RESP.array(["MULTI"]) + RESP.array(["ZCARD", "user"]) + RESP.array(["EXEC"]), replies: 3)
        probes.append(Probe(surface: "Redis WATCH", query: "WATCH user; MULTI; ZCARD user; EXEC", reply: text(exec)))
        for asker in askers {
            probes += try await lineProbes(world, blueprint, asker)
            probes += try await httpProbes(world, blueprint, asker)
            probes += cliProbes(world, blueprint, asker)
        }

        for cell in blueprint.cells { try await world.move(cell.sentinel, to: cell.sentinelStop) }
        var tails: [StreamTail] = []
        for watch in watches {
            let bytes = await watch.wire.take(until: watch.done)
            let stream =
                watch.isSSE ? (HTTPMessage(watch.opening + bytes)?.description ?? "") : text(watch.opening + bytes)
            probes.append(Probe(surface: watch.surface, query: watch.query, reply: stream))
            let afterReady = stream.components(separatedBy: "\"event\":\"ready\"").last ?? ""
            tails.append(StreamTail(surface: "\(watch.surface) \(watch.query)", afterReady: afterReady))
        }
        return (probes, tails)
    }

    // MARK: - Watches

    struct Watch {
        var surface: String
        var query: String
        var wire: Wire
        var isSSE: Bool
        /// What came up to the snapshot's end (`ready`).
        var opening: [UInt8]
        /// Whether the stream holds the sentinel's event, whole.
        var done: @Sendable ([UInt8]) -> Bool
    }

    /// Every watch of every cell, opened one after the other (each up to its `ready`, so that the
    /// watch ids and snapshots are in the same order in every world).
    static func openWatches(_ world: PrivacyWorld, _ blueprint: PrivacyWorld.Blueprint, observer: String?) async throws
        -> [Watch]
    {
        var watches: [Watch] = []
        let ready = "\"event\":\"ready\""
        for cell in blueprint.cells {
            let (lat, lon) = (NumberText.plain(cell.query.latitude), NumberText.plain(cell.query.longitude))
            let marker = "\"id\":\"\(cell.sentinel)\""
            let watchWords = ["WATCH", "NEARBY", "user", lat, lon, "1000"]
            let lineForms: [(surface: String, preamble: [[String]], json: Bool)] = [
                ("line watch RESP2 anonymous", [], false),
                ("line watch RESP3 observer", [["HELLO", "3"], ["AUTH", observer ?? ""]], false),
                ("line watch JSON admin", [["AUTH", blueprint.adminToken], ["OUTPUT", "json"]], true),
            ]
            for form in lineForms {
                let wire = try Wire(port: world.linePort)
                if !form.preamble.isEmpty {
                    _ = await wire.exchange(
                        form.preamble.flatMap(RESP.array), replies: form.preamble.count, lines: form.json)
                }
                wire.send(RESP.array(watchWords))
                let json = form.json
                let opening = await wire.take { bytes in
                    text(bytes).contains(ready) && (json ? bytes.last == 0x0A : RESP.isWhole(bytes[...]))
                }
                let start = wire.received.count
                watches.append(
                    Watch(
                        surface: form.surface, query: watchWords.joined(separator: " "), wire: wire, isSSE: false,
                        opening: opening,
                        done: { bytes in
                            let fresh = bytes[start...]
                            return text(Array(fresh)).contains(marker)
                                && (json ? fresh.last == 0x0A : RESP.isWhole(fresh))
                        }))
            }
            let streams: [(surface: String, target: String, token: String?)] = [
                ("SSE watch anonymous", "/v1/users/nearby/watch?lat=\(lat)&lon=\(lon)&radius=1000", nil),
                ("SSE watch observer", "/v1/nearby/watch?kind=user&lat=\(lat)&lon=\(lon)&radius=1000", observer),
            ]
            for stream in streams {
                let wire = try Wire(port: world.httpPort)
                wire.send(Wire.request(stream.target, token: stream.token, accept: "text/event-stream", close: false))
                let opening = await wire.take { bytes in
                    HTTPMessage(bytes).map { $0.text.contains(ready) && $0.text.hasSuffix("\n\n") } ?? false
                }
                watches.append(
                    Watch(
                        surface: stream.surface, query: stream.target, wire: wire, isSSE: true, opening: opening,
                        done: { bytes in
                            guard let message = HTTPMessage(bytes) else { return false }
                            let body = message.text
                            guard let at = body.range(of: marker, options: .backwards) else { return false }
                            return body[at.upperBound...].contains("\n\n")
                        }))
            }
        }
        return watches
    }

    // MARK: - Questions

    /// The line protocol's questions about the users of each cell, in four forms.
    static func lineProbes(_ world: PrivacyWorld, _ blueprint: PrivacyWorld.Blueprint, _ asker: Asker) async throws
        -> [Probe]
    {
        var commands: [[String]] = [
            ["ZRANGE", "user", "0", "-1", "WITHSCORES"], ["ZRANGEBYSCORE", "user", "-inf", "+inf", "WITHSCORES"],
            ["ZCARD", "user"],
        ]
        for cell in blueprint.cells {
            let (lat, lon) = (NumberText.plain(cell.query.latitude), NumberText.plain(cell.query.longitude))
            let (centreLat, centreLon) = (
                NumberText.plain(cell.centre.latitude), NumberText.plain(cell.centre.longitude)
            )
            let with = ["WITHDIST", "WITHCOORD", "WITHHASH"]
            commands += [
                ["NEARBY", "user", lat, lon, "1000"],
                ["NEARBY", "user", centreLat, centreLon, "0"],
                ["NEAREST", "user", lat, lon, "5"],
                ["NEAREST", "user", lat, lon, "3", "MODEL", "haversine", "WITHCOORD"],
                ["MAP", lat, lon, "RADIUS", "600", "KIND", "user"],
                ["GEOSEARCH", "user", "FROMLONLAT", lon, lat, "BYRADIUS", "1000", "m"] + with + ["ASC"],
                ["GEOSEARCH", "user", "FROMMEMBER", cell.target, "BYBOX", "3", "3", "km"] + with + ["ASC"],
                ["GEORADIUS", "user", lon, lat, "1000", "m"] + with + ["ASC"],
                ["GEORADIUSBYMEMBER", "user", cell.target, "1500", "m"] + with + ["ASC"],
                ["GEOPOS", "user", cell.target, cell.neighbour],
                ["GEOHASH", "user", cell.target],
                ["GEODIST", "user", cell.target, cell.neighbour, "m"],
                ["ZSCORE", "user", cell.target],
                ["ZRANK", "user", cell.target],
            ]
            // The admin reads the exact record by design: only the others ask for it.
            if asker.name != "admin" { commands.append(["USER.GET", cell.target]) }
        }
        let auth = asker.token.map { [["AUTH", $0]] } ?? []
        let forms: [(name: String, preamble: [[String]], inline: Bool, json: Bool)] = [
            ("RESP2", auth, false, false), ("RESP3", [["HELLO", "3"]] + auth, false, false),
            ("inline", auth, true, false), ("JSON", auth + [["OUTPUT", "json"]], false, true),
        ]
        var probes: [Probe] = []
        for form in forms {
            let wire = try Wire(port: world.linePort)
            if !form.preamble.isEmpty {
                _ = await wire.exchange(
                    form.preamble.flatMap(RESP.array), replies: form.preamble.count, lines: form.json)
            }
            let requests = commands.flatMap {
                form.inline ? Array(($0.joined(separator: " ") + "\r\n").utf8) : RESP.array($0)
            }
            let bytes = await wire.exchange(requests, replies: commands.count, lines: form.json)
            let replies = form.json ? lines(bytes) : RESP.split(bytes)
            try #require(replies.count == commands.count, "\(form.name) \(asker.name): \(replies.count) replies")
            for (command, reply) in zip(commands, replies) {
                let surface = command[0] == "MAP" ? "line map \(form.name)" : "line \(form.name)"
                probes.append(
                    Probe(surface: surface, query: "\(command.joined(separator: " ")) as \(asker.name)", reply: reply))
            }
        }
        return probes
    }

    /// The HTTP API's questions, with status and headers.
    static func httpProbes(_ world: PrivacyWorld, _ blueprint: PrivacyWorld.Blueprint, _ asker: Asker) async throws
        -> [Probe]
    {
        var probes: [Probe] = []
        for cell in blueprint.cells {
            let point = "lat=\(NumberText.plain(cell.query.latitude))&lon=\(NumberText.plain(cell.query.longitude))"
            var targets: [(surface: String, target: String)] = [
                ("HTTP JSON", "/v1/users/nearby?\(point)&radius=1000"),
                ("HTTP JSON", "/v1/nearby?kind=user&\(point)&radius=1000"),
                ("HTTP JSON", "/v1/nearest?kind=user&\(point)&count=5"),
                ("HTTP GeoJSON", "/v1/nearby.geojson?kind=user&\(point)&radius=1000"),
                ("HTTP GeoJSON", "/v1/nearest.geojson?kind=user&\(point)&count=5"),
                ("HTTP map", "/v1/map?kind=user&\(point)&radius=600"),
            ]
            if asker.name != "admin" { targets.append(("HTTP JSON", "/v1/users/\(cell.target)")) }
            for (surface, target) in targets {
                let message = try await Wire.http(port: world.httpPort, target, token: asker.token)
                probes.append(
                    Probe(surface: surface, query: "GET \(target) as \(asker.name)", reply: message.description))
            }
        }
        return probes
    }

    /// The command line's questions: listings in three formats, maps in two.
    static func cliProbes(_ world: PrivacyWorld, _ blueprint: PrivacyWorld.Blueprint, _ asker: Asker) -> [Probe] {
        var probes: [Probe] = []
        let token = asker.token.map { ["--token", $0] } ?? []
        for cell in blueprint.cells {
            let (lat, lon) = (NumberText.plain(cell.query.latitude), NumberText.plain(cell.query.longitude))
            let near = ["near", lat, lon, "--radius", "1000", "--kind", "user"]
            let nearest = ["nearest", lat, lon, "--count", "5", "--kind", "user"]
            let map = ["map", lat, lon, "--radius", "600", "--kind", "user", "--color", "never"]
            var runs: [(surface: String, arguments: [String])] = [
                ("CLI text", near), ("CLI JSON", near + ["--json"]), ("CLI GeoJSON", near + ["--format", "geojson"]),
                ("CLI text", nearest), ("CLI GeoJSON", nearest + ["--format", "geojson"]),
                ("CLI map", map), ("CLI map JSON", map + ["--json"]),
            ]
            if asker.name != "admin" {
                runs += [
                    ("CLI text", ["user", "show", cell.target]), ("CLI JSON", ["user", "show", cell.target, "--json"]),
                ]
            }
            for (surface, arguments) in runs {
                probes.append(
                    Probe(
                        surface: surface, query: "vicinity \(arguments.joined(separator: " ")) as \(asker.name)",
                        reply: world.cli(arguments + token)))
            }
        }
        return probes
    }

    // MARK: - Bytes

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func lines(_ bytes: [UInt8]) -> [String] {
        text(bytes).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

extension RESP {
    /// Whether `bytes` is whole replies, nothing cut.
    static func isWhole(_ bytes: ArraySlice<UInt8>) -> Bool {
        var position = bytes.startIndex
        while position < bytes.endIndex {
            guard let end = replyEnd(bytes, from: position) else { return false }
            position = end
        }
        return !bytes.isEmpty
    }

    /// The replies in `bytes`, each as text.
    static func split(_ bytes: [UInt8]) -> [String] {
        var replies: [String] = []
        var position = 0
        while let end = replyEnd(bytes[...], from: position) {
            replies.append(String(decoding: bytes[position..<end], as: UTF8.self))
            position = end
        }
        return replies
    }
}
