import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import HTTPAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `HotRoutes` against the generated server: two servers over one directory, one with the hot
/// routes and one without, are sent the same random requests (valid and invalid) on keep-alive
/// connections, and must answer each with the same status line, the same headers in the same
/// order (`Date` only checked for its form) and the same body bytes; their metrics counters and
/// request logs must match too.
@Suite(.timeLimit(.minutes(10))) struct HotRoutesDifferentialTests {
    /// Requests in the random run (each sent to both servers).
    static let requestCount = 1_200

    @Test func hotRoutesAnswerAsTheGeneratedServer() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let hotLog = LogCapture()
        let generatedLog = LogCapture()
        let hot = HTTPServer(
            directory: fixture.directory, host: "127.0.0.1", port: 0, logger: hotLog.logger(level: .info),
            hotRoutes: true)
        let generated = HTTPServer(
            directory: fixture.directory, host: "127.0.0.1", port: 0, logger: generatedLog.logger(level: .info),
            hotRoutes: false)
        let hotClient = try HTTPTestClient(port: try await hot.start())
        let generatedClient = try HTTPTestClient(port: try await generated.start())

        var random = SplitMix64(seed: 20)
        var differences: [String] = []
        // Also a query naming more parameters than the hot routes keep (the generated server's).
        let manyNames = (0..<40).map { "a\($0)=" }.joined(separator: "&")
        let fixed: [HTTPTestClient.Request] = [
            .get("/v1/nearby?lat=41.088154&lon=29.015615&radius=1000&kind=cafe%CC%81"),
            .get("/v1/nearby?lat=41.088154&lon=29.015615&radius=1000&kind=caf%C3%A9&\(manyNames)"),
        ]
        for index in 0..<(Self.requestCount + fixed.count) {
            let request = index < fixed.count ? fixed[index] : fixture.randomRequest(&random)
            let (a, b) = (try await hotClient.exchange(request), try await generatedClient.exchange(request))
            if a != b {
                differences.append("request \(index): \(request.text)\nhot:       \(a)\ngenerated: \(b)")
            }
        }
        #expect(
            differences.isEmpty, "\(differences.count) differ; first:\n\(differences.prefix(3).joined(separator: "\n"))"
        )
        // The hot routes answered a good part of them (the rest are theirs to leave).
        #expect(hot.hotRouteAnswers >= Self.requestCount / 3, "\(hot.hotRouteAnswers)")
        #expect(generated.hotRouteAnswers == 0)

        // The same requests counted, by operation and status.
        let metrics = (
            try await hotClient.exchange(.get("/metrics")), try await generatedClient.exchange(.get("/metrics"))
        )
        #expect(Self.counters(metrics.0.body) == Self.counters(metrics.1.body))
        #expect(Self.counters(metrics.0.body).contains { $0.contains("findNearby\"") })
        // The same request lines logged (but for the client's port and the time taken).
        #expect(Self.requestLines(hotLog.text) == Self.requestLines(generatedLog.text))
        await hot.shutdown()
        await generated.shutdown()
    }

    /// The rate limit's 429 and the budget of user queries' 429, both with `Retry-After`.
    @Test func limitsApplyAsInTheGeneratedServer() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        // Stopped clocks: no budget refills between the two servers' requests.
        let frozen = ContinuousClock.now
        func server(hot: Bool) -> HTTPServer {
            let server = HTTPServer(
                directory: fixture.directory, host: "127.0.0.1", port: 0, rateLimit: 4,
                userQueryLimit: UserQueryLimit(perSecond: 1, burst: 2, now: { frozen }), hotRoutes: hot)
            server.rateLimitClock.withLock { $0 = { frozen } }
            return server
        }
        let (hot, generated) = (server(hot: true), server(hot: false))
        let hotClient = try HTTPTestClient(port: try await hot.start())
        let generatedClient = try HTTPTestClient(port: try await generated.start())
        let here = "lat=41.088154&lon=29.015615"
        let requests: [HTTPTestClient.Request] = [
            .get("/v1/users/nearby?\(here)"), .get("/v1/users/nearby?\(here)"), .get("/v1/users/nearby?\(here)"),
            .get("/v1/nearby?\(here)"), .get("/v1/nearby?\(here)"), .get("/v1/nearest?\(here)"),
        ]
        var statuses: [Int] = []
        for request in requests {
            let (a, b) = (try await hotClient.exchange(request), try await generatedClient.exchange(request))
            #expect(a == b, "\(request.text)\nhot:       \(a)\ngenerated: \(b)")
            statuses.append(a.status)
        }
        #expect(statuses == [200, 200, 429, 200, 429, 429], "\(statuses)")
        #expect(hot.hotRouteAnswers == requests.count)
        await hot.shutdown()
        await generated.shutdown()
    }

    /// Hummingbird's idle timeout sees the requests the hot routes answer (the handler sits after
    /// its state handler): a connection kept busy with them for more than twice the timeout stays
    /// open, and is closed once it falls silent. The timeout is 8 s so that a loaded machine's
    /// pauses between two requests (the whole suite on two cores: over 4 s seen) stay inside it.
    @Test func aConnectionBusyWithHotRoutesIsNotIdle() async throws {
        let fixture = try await HotRoutesFixture()
        defer { fixture.close() }
        let server = HTTPServer(
            directory: fixture.directory, host: "127.0.0.1", port: 0, idleTimeoutSeconds: 8, hotRoutes: true)
        let client = try HTTPTestClient(port: try await server.start())
        // The requests follow each other on the client's own thread: the pauses between them are
        // the server's and that thread's, not the concurrency pool's (which the other tests of a
        // full run keep busy).
        let statuses = try await client.exchangeRepeatedly(
            .get("/v1/nearby?lat=41.088154&lon=29.015615&radius=50"), for: .seconds(17))
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(client.connections == 1, "reconnected \(client.connections - 1) times")
        #expect(server.hotRouteAnswers == statuses.count)
        try await Task.sleep(for: .seconds(12))
        await #expect(throws: HTTPTestClient.Failure.self) {
            try await client.exchange(.get("/v1/nearby?lat=1&lon=2"), reconnect: false)
        }
        await server.shutdown()
    }

    /// The counter lines of the metrics (`…_requests_total{operation,status} n`).
    static func counters(_ body: [UInt8]) -> [String] {
        String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init).filter {
            $0.contains("requests_total{")
        }.sorted()
    }

    /// Each logged request's method, route and status.
    static func requestLines(_ log: String) -> [String] {
        log.split(separator: "\n").map { line in
            line.split(separator: " ").filter { !$0.hasPrefix("duration_ms=") && !$0.hasPrefix("peer=") }.joined(
                separator: " ")
        }
    }
}

/// A directory of 400 places around the original app's Levent point (two kinds, names that need
/// escaping, attributes and opening hours for `where` and `open`) and four users.
struct HotRoutesFixture {
    let directory: DurableDirectory
    let admin: String
    let ayse: String
    let mehmet: String

    init() async throws {
        var catalog = try PlaceCatalog()
        var random = SplitMix64(seed: 7)
        let names = ["Eczane", "Ümit \"Merkez\"", "Café \\ Bar", "Şifa", "Nöbetçi", "A/B", "Tab\tName"]
        let hours = ["Mo-Su 08:00-20:00", "24/7", "Mo-Fr 09:00-18:00; Sa 10:00-14:00", "off", ""]
        for index in 0..<400 {
            let lat = 41.088154 + (random.nextUnit() - 0.5) * 0.02
            let lon = 29.015615 + (random.nextUnit() - 0.5) * 0.026
            var attributes = ["dispensing": index % 3 == 0 ? "yes" : "no", "note": "illustrative"]
            let hour = hours[Int(random.next() % UInt64(hours.count))]
            if !hour.isEmpty { attributes[PlaceHours.hoursAttribute] = hour }
            try catalog.upsert(
                Place(
                    id: "p\(index)", kind: index % 4 == 0 ? "cafe" : index % 8 == 1 ? "caf\u{E9}" : "pharmacy",
                    name: "\(names[index % names.count]) \(index)",
                    coordinate: try Coordinate(latitude: lat, longitude: lon), attributes: attributes))
        }
        var places = PlaceDirectory(places: catalog)
        admin = places.rotateAdminToken()
        let durable = DurableDirectory(places, store: MemoryStore())
        directory = durable
        func add(_ user: User) async throws -> String { try await durable.perform(.addUser(user), by: .admin) ?? "" }
        ayse = try await add(
            User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41.0885, longitude: 29.0158)))
        mehmet = try await add(
            User(
                id: "mehmet", name: "Mehmet", location: try Coordinate(latitude: 41.0884, longitude: 29.0159),
                visibility: .private))
        _ = try await add(User(id: "zeynep", name: "Zeynep"))
        _ = try await add(
            User(id: "deniz", name: "Deniz", location: try Coordinate(latitude: 41.0899, longitude: 29.0101)))
    }

    func close() { directory.close() }

    // MARK: - Random requests

    static let latitudes = [
        "41.088154", "41.0880", "41.09", "-89.9", "90", "0", "", "abc", "nan", "NaN", "inf", "0x10", "91",
        "-90.0001", "4.1088154e1", " 41", "41%20", "%34%31.088", "+41.088", "41.", ".5", "1_0", "41,08", "%zz",
    ]
    static let longitudes = [
        "29.015615", "29.0156", "29.01", "180", "-180", "181", "", "abc", "nan", "2.9e1", "29%2E0156", "-0",
    ]
    static let choices: [String: [String]] = [
        "radius": ["500", "0", "1000", "250.5", "-1", "20000000", "20000001", "1e3", "nan", "abc", "", "1%30%30"],
        "limit": ["10", "1", "0", "10000", "10001", "2.5", "-3", "abc", "+5", "05", ""],
        "count": ["5", "1", "3", "0", "100", "101", "abc", "1e1", ""],
        "max_distance": ["300", "1000", "0", "-1", "abc", "1e9", "nan"],
        "kind": [
            "pharmacy", "cafe", "user", "", "PHARMACY", "no such", "ph%61rmacy", "a+b", "%zz", "%FF", "x%2Fy",
            // The stored "café" (composed), and the same kind decomposed: hits name it as stored.
            "caf%C3%A9", "cafe%CC%81",
        ],
        "model": ["geodesic", "haversine", "projected", "euclid", "", "Geodesic", "ha%76ersine"],
        "crs": ["auto", "EPSG:32635", "EPSG:27700", "EPSG:4326", "EPSG%3A32635", ""],
        "format": ["json", "geojson", "xml", ""],
        "open": ["now", "2026-11-29T22:00", "2026-11-29T22%3A00", "bogus", "", "2026-11-29T22:00%2B01:00"],
        "where": ["dispensing=yes", "dispensing%3Dno", "note=illustrative", "x", "=", "", "note=a%zz"],
        "foo": ["bar"], "token": ["abc"],
    ]
    static let operations: [(path: String, parameters: [String])] = [
        ("/v1/nearby", ["radius", "limit", "kind", "model", "crs", "format", "open", "where"]),
        ("/v1/nearest", ["count", "max_distance", "kind", "model", "crs", "format", "open", "where"]),
        ("/v1/users/nearby", ["radius", "limit"]),
    ]
    static let accepts = [
        "*/*", "application/json", "application/geo+json", "application/geo+json, application/json;q=0.5",
        "text/html", "application/*", "application/json;q=0", ";;;", "application/problem+json",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "APPLICATION/JSON",
    ]

    /// A request, mostly well-formed, to one of the hot operations (sometimes to a path or with a
    /// method they leave to the generated server).
    func randomRequest(_ random: inout SplitMix64) -> HTTPTestClient.Request {
        let operation = HotRoutesFixture.operations[Int(random.next() % 3)]
        var items: [String] = []
        if random.nextUnit() < 0.93 { items.append("lat=" + HotRoutesFixture.pick(Self.latitudes, &random, valid: 3)) }
        if random.nextUnit() < 0.93 { items.append("lon=" + HotRoutesFixture.pick(Self.longitudes, &random, valid: 3)) }
        for name in operation.parameters + ["foo", "token"] where random.nextUnit() < 0.25 {
            let values = HotRoutesFixture.choices[name] ?? [""]
            items.append("\(name)=" + HotRoutesFixture.pick(values, &random, valid: 3))
            if random.nextUnit() < 0.06 { items.append("\(name)=" + HotRoutesFixture.pick(values, &random, valid: 2)) }
        }
        items.shuffle(using: &random)
        let odd = random.nextUnit()
        if odd < 0.03 {
            items.append("flag")
        } else if odd < 0.05 {
            items.insert("", at: 0)
        } else if odd < 0.07 {
            items.append("")
        } else if odd < 0.08 {
            items.append("l%61t=1")
        }
        var path = operation.path
        let pathOdd = random.nextUnit()
        if pathOdd < 0.02 {
            path += "/"
        } else if pathOdd < 0.03 {
            path = "/" + path
        } else if pathOdd < 0.04 {
            path += ".geojson"
        }
        let target = path + (items.isEmpty && random.nextUnit() < 0.5 ? "" : "?" + items.joined(separator: "&"))
        let methodRoll = random.nextUnit()
        let method = methodRoll < 0.8 ? "GET" : methodRoll < 0.96 ? "HEAD" : methodRoll < 0.98 ? "POST" : "DELETE"
        var headers: [(String, String)] = []
        let authorization = random.nextUnit()
        if authorization < 0.1 {
            headers.append(("Authorization", "Bearer \(admin)"))
        } else if authorization < 0.2 {
            headers.append(("Authorization", "Bearer \(ayse)"))
        } else if authorization < 0.25 {
            headers.append(("Authorization", "Bearer \(mehmet)"))
        } else if authorization < 0.3 {
            headers.append(("Authorization", "Bearer \(HotRoutesFixture.stranger)"))
        } else if authorization < 0.33 {
            headers.append(
                ("Authorization", ["Basic eHl6", "Bearer", "bearer  \(ayse)", "Bearer a b"][Int(random.next() % 4)]))
        }
        if random.nextUnit() < 0.35 {
            headers.append(("Accept", HotRoutesFixture.pick(Self.accepts, &random, valid: 0)))
        }
        let position = random.nextUnit()
        if position < 0.04 {
            headers.append(
                ("Vicinity-Min-Position", ["0", "1", "4", "abc", "-1", "18446744073709551616"][Int(random.next() % 6)]))
        } else if position < 0.06 {
            headers.append(("Vicinity-Min-Position", "999999"))
            headers.append(("Vicinity-Wait-Ms", random.nextUnit() < 0.5 ? "0" : "x"))
        }
        if random.nextUnit() < 0.03 { headers.append(("Connection", "keep-alive")) }
        return HTTPTestClient.Request(method: method, target: target, headers: headers)
    }

    /// One of `values`: the first `valid` (the well-formed ones) half of the time.
    static func pick(_ values: [String], _ random: inout SplitMix64, valid: Int) -> String {
        if valid > 0, random.nextUnit() < 0.5 { return values[Int(random.next() % UInt64(min(valid, values.count)))] }
        return values[Int(random.next() % UInt64(values.count))]
    }

    /// 43 base64url characters that are nobody's token.
    static let stranger = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
}
