import Foundation
import Geo
import LineProtocol
import Places
import Testing
import VicinityCLI

/// The same questions through the command line, the line protocol's own commands and the HTTP
/// API: the same hits in the same order, the same total, the same map, and for a bad value the
/// same message. Every surface builds a `PlaceQuery` and formats its answer; these tests are what
/// keeps them from drifting apart again.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CrossSurfaceQueryTests {
    /// A hit as every surface lists it.
    struct Hit: Equatable, CustomStringConvertible {
        var id: String
        var meters: Double
        var description: String { "\(id) \(meters)" }
    }

    /// One question, in each surface's words.
    struct Question: CustomStringConvertible {
        enum Reach { case within(radius: Double, limit: Int?), nearest(count: Int, maxDistance: Double?) }
        var kind: String
        var latitude: Double
        var longitude: Double
        var reach: Reach
        var model: String
        /// Whose token is presented, if any.
        var user: String?

        var description: String {
            "\(kind) at \(latitude), \(longitude) \(reach) \(model) as \(user ?? "nobody")"
        }

        var lat: String { NumberText.plain(latitude) }
        var lon: String { NumberText.plain(longitude) }

        func cli(token: String?) -> [String] {
            var arguments: [String]
            switch reach {
            case .within(let radius, let limit):
                arguments = ["near", lat, lon, "--radius", NumberText.plain(radius)]
                if let limit { arguments += ["--limit", String(limit)] }
            case .nearest(let count, let maximum):
                arguments = ["nearest", lat, lon, "--count", String(count)]
                if let maximum { arguments += ["--max-distance", NumberText.plain(maximum)] }
            }
            arguments += ["--kind", kind, "--model", model, "--json"]
            if let token { arguments += ["--token", token] }
            return arguments
        }

        var line: [String] {
            switch reach {
            case .within(let radius, let limit):
                return ["NEARBY", kind, lat, lon, NumberText.plain(radius), "MODEL", model]
                    + (limit.map { ["LIMIT", String($0)] } ?? [])
            case .nearest(let count, let maximum):
                return ["NEAREST", kind, lat, lon, String(count), "MODEL", model]
                    + (maximum.map { ["MAXDIST", NumberText.plain($0)] } ?? [])
            }
        }

        var http: String {
            let common = "lat=\(lat)&lon=\(lon)&kind=\(kind)&model=\(model)"
            switch reach {
            case .within(let radius, let limit):
                return "/v1/nearby?\(common)&radius=\(NumberText.plain(radius))" + (limit.map { "&limit=\($0)" } ?? "")
            case .nearest(let count, let maximum):
                return "/v1/nearest?\(common)&count=\(count)"
                    + (maximum.map { "&max_distance=\(NumberText.plain($0))" } ?? "")
            }
        }
    }

    static func randomQuestion(_ random: inout SplitMix64, users: [String]) -> Question {
        let kinds = ["pharmacy", "pharmacy", "atm", "user", "user", "nosuchkind"]
        let kind = kinds[Int(random.next() % UInt64(kinds.count))]
        let (latitude, longitude): (Double, Double)
        if random.next() % 8 == 0 {
            // Anywhere on Earth: mostly empty answers.
            latitude = Double.random(in: -90...90, using: &random)
            longitude = Double.random(in: -180...180, using: &random)
        } else {
            let centre = Surfaces.centres[Int(random.next() % UInt64(Surfaces.centres.count))]
            let point =
                (try? Surfaces.near(centre, within: 2000, &random)) ?? (try! Coordinate(latitude: 0, longitude: 0))
            (latitude, longitude) = (point.latitude, point.longitude)
        }
        let reach: Question.Reach
        if random.next() % 2 == 0 {
            let radii: [Double] = [0, 50, 400, 1500, 6000, 20_000_000]
            let limits: [Int?] = [nil, nil, 1, 3, 10_000]
            reach = .within(
                radius: radii[Int(random.next() % UInt64(radii.count))],
                limit: limits[Int(random.next() % UInt64(limits.count))])
        } else {
            let maxima: [Double?] = [nil, nil, 0, 300, 2500]
            reach = .nearest(
                count: Int(random.next() % 12) + 1, maxDistance: maxima[Int(random.next() % UInt64(maxima.count))])
        }
        // Projected (a UTM or UPS zone of the query point) only near the data: far away a zone's
        // projection is not defined for every place.
        let models = ["geodesic", "haversine", "projected"]
        var model = models[Int(random.next() % 3)]
        if model == "projected", case .within(let radius, _) = reach, radius > 6000 { model = "geodesic" }
        if model == "projected", case .nearest(_, nil) = reach { model = "geodesic" }
        let user = kind == "user" && random.next() % 2 == 0 ? users[Int(random.next() % UInt64(users.count))] : nil
        return Question(kind: kind, latitude: latitude, longitude: longitude, reach: reach, model: model, user: user)
    }

    @Test func twoHundredFiftyRandomQuestionsGetTheSameHitsEverywhere() async throws {
        let surfaces = try await Surfaces()
        var random = SplitMix64(seed: 2026)
        let users = surfaces.tokens.keys.sorted()
        var nonEmpty = 0
        for _ in 0..<250 {
            let question = Self.randomQuestion(&random, users: users)
            let token = question.user.flatMap { surfaces.tokens[$0] }
            let cli = try Self.cliHits(surfaces.cli(question.cli(token: token)))
            let line = try Self.lineHits(await surfaces.lineCommand(question.line, token: token))
            let http = try Self.httpHits(try await surfaces.httpRequest("GET", question.http, token: token))
            #expect(cli.hits.map(\.id) == line.map(\.id), "\(question)")
            #expect(cli.hits.map(\.id) == http.hits.map(\.id), "\(question)")
            #expect(cli.total == http.total, "\(question)")
            // Both JSON surfaces serve distances to the millimetre (`ServedPrecision`): the same numbers.
            for (a, b) in zip(cli.hits, http.hits) { #expect(a.meters == b.meters, "\(question) \(a) \(b)") }
            // The line protocol prints 4 decimals of the same value: half a step of each apart at most.
            for (a, b) in zip(line, http.hits) { #expect(abs(a.meters - b.meters) <= 5.6e-4, "\(question) \(a) \(b)") }
            if !cli.hits.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 80, "many questions have answers")
        await surfaces.close()
    }

    /// A private user sees themself on every surface; nobody else sees them anywhere.
    @Test func aPrivateUserIsSeenByThemselvesAloneOnEverySurface() async throws {
        let surfaces = try await Surfaces()
        // user-2 is private, near the second centre.
        let record = try surfaces.durable.read { try $0.user("user-2", as: .admin) }
        let here = try #require(record.location)
        let question = Question(
            kind: "user", latitude: here.latitude, longitude: here.longitude, reach: .within(radius: 10, limit: nil),
            model: "geodesic")
        for user in [nil, "user-2", "user-5"] {
            var asked = question
            asked.user = user
            let token = user.flatMap { surfaces.tokens[$0] }
            let cli = try Self.cliHits(surfaces.cli(asked.cli(token: token))).hits.map(\.id)
            let line = try Self.lineHits(await surfaces.lineCommand(asked.line, token: token)).map(\.id)
            let http = try Self.httpHits(try await surfaces.httpRequest("GET", asked.http, token: token)).hits.map(\.id)
            let seen = user == "user-2"
            #expect(
                cli.contains("user-2") == seen && line.contains("user-2") == seen && http.contains("user-2") == seen)
        }
        await surfaces.close()
    }

    // MARK: - Maps

    /// `MAP` on the line protocol once drew an empty map without naming the nearest place beyond
    /// the radius, which `vicinity map` and `/v1/map` named (the README promises it everywhere).
    @Test func anEmptyMapNamesTheNearestPlaceOnEverySurface() async throws {
        let surfaces = try await Surfaces()
        let centre = Surfaces.centres[1]
        let maps = try await Self.maps(
            surfaces, latitude: centre.latitude + 0.2, longitude: centre.longitude, radius: 100)
        #expect(maps.cli.contains("Nearest: "), "\(maps.cli)")
        #expect(maps.line == maps.cli)
        #expect(maps.http == maps.cli)
        await surfaces.close()
    }

    @Test func randomMapsAreDrawnAlikeEverywhere() async throws {
        let surfaces = try await Surfaces()
        var random = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let centre = Surfaces.centres[Int(random.next() % UInt64(Surfaces.centres.count))]
            let point = try Surfaces.near(centre, within: 2000, &random)
            let radius = [0.0, 150, 800, 3000][Int(random.next() % 4)]
            let kind = ["pharmacy", "atm", "user"][Int(random.next() % 3)]
            // Half the maps at the default 80 × 24, half at a random size: every surface must lay a
            // size out alike (`/v1/map?width=60&height=20` once drew a map that shrank with its list).
            let size: (width: Int, height: Int)? =
                random.next() % 2 == 0 ? nil : (30 + Int(random.next() % 131), 10 + Int(random.next() % 61))
            let maps = try await Self.maps(
                surfaces, latitude: point.latitude, longitude: point.longitude, radius: radius, kind: kind, size: size)
            let asked = "\(point) \(radius) \(kind) \(size.map { "\($0.width)x\($0.height)" } ?? "default")"
            #expect(maps.line == maps.cli, "\(asked)")
            #expect(maps.http == maps.cli, "\(asked)")
            let lines = maps.cli.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.allSatisfy { $0.count <= size?.width ?? 80 }, "\(asked)")
        }
        await surfaces.close()
    }

    /// The map of every surface at `size` (the defaults, 80 × 24, when nil: the CLI is given them,
    /// the line protocol and HTTP are not).
    static func maps(
        _ surfaces: Surfaces, latitude: Double, longitude: Double, radius: Double, kind: String = "pharmacy",
        size: (width: Int, height: Int)? = nil
    ) async throws -> (cli: String, line: String, http: String) {
        let (lat, lon, r) = (NumberText.plain(latitude), NumberText.plain(longitude), NumberText.plain(radius))
        let (width, height) = (String(size?.width ?? 80), String(size?.height ?? 24))
        let cli = surfaces.cli([
            "map", lat, lon, "--radius", r, "--kind", kind, "--width", width, "--height", height, "--color", "never",
        ])
        try #require(cli.status == 0, "\(cli.standardError)")
        let sizeWords = size == nil ? [] : ["WIDTH", width, "HEIGHT", height]
        let line = await surfaces.lineCommand(["MAP", lat, lon, "RADIUS", r, "KIND", kind] + sizeWords)
        let sizeQuery = size == nil ? "" : "&width=\(width)&height=\(height)"
        let http = try await surfaces.httpRequest(
            "GET", "/v1/map?lat=\(lat)&lon=\(lon)&radius=\(r)&kind=\(kind)\(sizeQuery)")
        try #require(http.status == 200)
        return (cli.standardOutput, line.text ?? "", String(decoding: http.body, as: UTF8.self))
    }

    // MARK: - Reading each surface's answer

    static func cliHits(_ outcome: CLI.Outcome) throws -> (hits: [Hit], total: Int?) {
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let results = try #require(document["results"] as? [[String: Any]])
        let hits = try results.map {
            Hit(id: try #require($0["id"] as? String), meters: try #require($0["distance_m"] as? Double))
        }
        return (hits, (document["total"] as? Int) ?? hits.count)
    }

    static func lineHits(_ reply: RESPReply) throws -> [Hit] {
        let rows = try #require(reply.elements, "\(reply)")
        return try rows.map { row in
            let fields = try #require(row.elements)
            return Hit(id: try #require(fields[0].text), meters: try #require(Double(fields[2].text ?? "")))
        }
    }

    static func httpHits(_ reply: (status: Int, body: Data)) throws -> (hits: [Hit], total: Int?) {
        try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        let document = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let results = try #require(document["results"] as? [[String: Any]])
        let hits = try results.map {
            Hit(id: try #require($0["id"] as? String), meters: try #require($0["distance_m"] as? Double))
        }
        return (hits, (document["total"] as? Int) ?? hits.count)
    }
}
