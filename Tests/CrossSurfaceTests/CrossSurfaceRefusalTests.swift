import Foundation
import Geo
import LineProtocol
import Places
import Testing
import VicinityCLI

/// Bad values get one message on every surface, and every surface that writes places or users
/// accepts and refuses exactly the same ids, names and attributes.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CrossSurfaceRefusalTests {
    /// A question with one bad value, in each surface's words.
    struct BadQuestion: CustomStringConvertible {
        var cli: [String]
        var line: [String]
        var http: String
        var description: String { cli.joined(separator: " ") }
    }

    static let bad: [String: [String]] = [
        "lat": ["95", "-90.5", "nan", "inf", "abc", "0x10", "1e400", "", "1,5"],
        "lon": ["181", "-180.01", "NaN", "-inf", "1,5", "+181", "0x1p3"],
        "radius": ["inf", "-1", "2e7x", "20000001", "nan", "1e400", ""],
        "count": ["0", "10001", "2.5", "-3", "abc", ""],
        "limit": ["0", "10001", "1.5", "x"],
        "model": ["flat", "", "geodesics", "sphere"],
        "kind": ["a b", "", String(repeating: "k", count: 65), "tab\tkind", "new\nline"],
        "maxdist": ["-5", "inf", "3e7", "x"],
    ]

    /// `near`/`NEARBY`/`nearby`, or their nearest-N twins for count and maxdist, with `value` in
    /// place of one parameter.
    static func question(_ parameter: String, _ value: String) -> BadQuestion {
        var v = [
            "lat": "41.088154", "lon": "29.015615", "radius": "500", "count": "3", "limit": "5",
            "model": "geodesic", "kind": "pharmacy", "maxdist": "900",
        ]
        v[parameter] = value
        let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
        let query = { (name: String, key: String) in
            "\(name)=\(key == parameter ? encoded : v[key]!)"
        }
        if parameter == "count" || parameter == "maxdist" {
            return BadQuestion(
                cli: [
                    "nearest", v["lat"]!, v["lon"]!, "--count", v["count"]!, "--max-distance", v["maxdist"]!,
                    "--kind", v["kind"]!, "--model", v["model"]!,
                ],
                line: [
                    "NEAREST", v["kind"]!, v["lat"]!, v["lon"]!, v["count"]!, "MAXDIST", v["maxdist"]!,
                    "MODEL", v["model"]!,
                ],
                http: "/v1/nearest?"
                    + [
                        query("lat", "lat"), query("lon", "lon"), query("count", "count"),
                        query("max_distance", "maxdist"), query("kind", "kind"), query("model", "model"),
                    ].joined(separator: "&"))
        }
        return BadQuestion(
            cli: [
                "near", v["lat"]!, v["lon"]!, "--radius", v["radius"]!, "--limit", v["limit"]!, "--kind", v["kind"]!,
                "--model", v["model"]!,
            ],
            line: [
                "NEARBY", v["kind"]!, v["lat"]!, v["lon"]!, v["radius"]!, "LIMIT", v["limit"]!, "MODEL", v["model"]!,
            ],
            http: "/v1/nearby?"
                + [
                    query("lat", "lat"), query("lon", "lon"), query("radius", "radius"),
                    query("limit", "limit"), query("kind", "kind"), query("model", "model"),
                ].joined(separator: "&"))
    }

    @Test func everyBadValueGetsOneMessageEverywhere() async throws {
        let surfaces = try await Surfaces()
        var asked = 0
        for (parameter, values) in Self.bad.sorted(by: { $0.key < $1.key }) {
            for value in values {
                let question = Self.question(parameter, value)
                let cli = surfaces.cli(question.cli)
                #expect(cli.status == 64, "\(question)")
                // The command line may follow the shared message with a hint of its own ("; did you
                // swap latitude and longitude? try `vicinity near …`"): the message itself is the same.
                let cliLine = cli.standardError.split(separator: "\n").last.map { $0.dropFirst("vicinity: ".count) }
                let cliMessage = cliLine.map { $0.components(separatedBy: "; did you swap")[0] }
                let line = await surfaces.lineCommand(question.line)
                #expect(line.isError, "\(question)")
                let lineMessage = line.text.map { $0.hasPrefix("ERR ") ? String($0.dropFirst(4)) : $0 }
                let http = try await surfaces.httpRequest("GET", question.http)
                #expect(http.status == 400, "\(question) \(http.status)")
                let problem = try JSONSerialization.jsonObject(with: http.body) as? [String: Any]
                let httpMessage = problem?["detail"] as? String
                #expect(cliMessage == lineMessage, "\(question)")
                #expect(lineMessage == httpMessage, "\(question)")
                #expect(httpMessage?.hasPrefix("invalid ") == true, "\(question): \(httpMessage ?? "none")")
                asked += 1
            }
        }
        #expect(asked >= 40)
        await surfaces.close()
    }

    /// Regression: `lat=41&lat=42` was answered with the first value, though repeated parameters
    /// are refused (the README says so), and `radius=inf` had two messages and two ranges.
    @Test func repeatedParametersAreRefused() async throws {
        let surfaces = try await Surfaces()
        for query in [
            "lat=41&lat=42&lon=29", "lat=41&lon=29&radius=100&radius=200", "lat=41&lon=29&kind=user&kind=pharmacy",
            "lat=41&lon=29&model=projected&crs=EPSG:32635&crs=auto",
        ] {
            let reply = try await surfaces.httpRequest("GET", "/v1/nearby?" + query)
            #expect(reply.status == 400)
            let problem = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
            #expect((problem?["detail"] as? String)?.contains("is given 2 times: give it once") == true)
        }
        await surfaces.close()
    }

    // MARK: - What may be written

    /// A place to write: kind, id, name and attributes.
    struct PlaceCase: CustomStringConvertible {
        var kind = "pharmacy"
        var id: String
        var name: String
        var attributes: [(String, String)] = []
        var description: String {
            "\(kind)/\(id.prefix(20)) name \(name.count) chars, \(attributes.count) attributes"
        }
    }

    static let placeCases: [PlaceCase] = [
        PlaceCase(id: "fine", name: "Fine", attributes: [("note", "x")]),
        PlaceCase(id: "unnamed", name: ""),
        PlaceCase(id: "nul", name: "a\u{0}b"),
        PlaceCase(id: "bell", name: "a\u{7}b"),
        PlaceCase(id: "long-name", name: String(repeating: "n", count: 257)),
        PlaceCase(id: "full-name", name: String(repeating: "n", count: 256)),
        PlaceCase(id: "huge-name", name: String(repeating: "n", count: 300_000)),
        PlaceCase(id: "value-512", name: "v", attributes: [("note", String(repeating: "v", count: 512))]),
        PlaceCase(id: "value-600", name: "v", attributes: [("note", String(repeating: "v", count: 600))]),
        PlaceCase(id: "value-newline", name: "v", attributes: [("note", "two\nlines")]),
        PlaceCase(id: "attrs-32", name: "a", attributes: (0..<32).map { ("a\($0)", "x") }),
        PlaceCase(id: "attrs-33", name: "a", attributes: (0..<33).map { ("a\($0)", "x") }),
        PlaceCase(id: "attrs-2000", name: "a", attributes: (0..<2000).map { ("a\($0)", "x") }),
        PlaceCase(id: "control-attribute", name: "a", attributes: [("a\u{1}b", "x")]),
        PlaceCase(id: "long-attribute", name: "a", attributes: [(String(repeating: "a", count: 65), "x")]),
        PlaceCase(id: "new\nline", name: "a"),
        PlaceCase(id: String(repeating: "i", count: 128), name: "a"),
        PlaceCase(id: String(repeating: "i", count: 129), name: "a"),
        PlaceCase(kind: "two words", id: "k", name: "a"),
        PlaceCase(kind: "user", id: "k", name: "a"),
        PlaceCase(kind: "café", id: "caf\u{65}\u{301}", name: "Café"),
    ]

    @Test func importPlaceSetAndHTTPAcceptAndRefuseTheSamePlaces() async throws {
        let surfaces = try await Surfaces()
        for place in Self.placeCases {
            let imported = try Self.importCSV(place, surfaces)
            let setReply = await surfaces.lineCommand(
                ["PLACE.SET", place.kind, place.id, "41", "29", "NAME", place.name]
                    + place.attributes.flatMap { ["ATTR", $0.0, $0.1] }, token: surfaces.adminToken)
            let body: [String: Any] = [
                "lat": 41, "lon": 29, "name": place.name,
                "attributes": place.attributes.map { ["name": $0.0, "value": $0.1] },
            ]
            let put = try await surfaces.httpRequest(
                "PUT", "/v1/places/\(Self.segment(place.kind))/\(Self.segment(place.id))", token: surfaces.adminToken,
                json: try JSONSerialization.data(withJSONObject: body))
            let accepted = (imported.status == 0, !setReply.isError, put.status == 200 || put.status == 201)
            #expect(
                accepted.0 == accepted.1 && accepted.1 == accepted.2,
                "\(place): \(accepted) \(imported.standardError.prefix(300)) \(setReply.text?.prefix(300) ?? "") \(put.status)"
            )
        }
        await surfaces.close()
    }

    /// A user to add: id and name. Ids that could be accepted get a suffix per surface, so that
    /// each surface adds its own.
    static let userCases: [(id: String, name: String)] = [
        ("ayse", "Ayşe"), ("nearby", "N"), ("bell\u{7}", "x"), ("", "x"), ("named", String(repeating: "n", count: 257)),
        ("nul-name", "a\u{0}b"), (String(repeating: "u", count: 126), "max"),
        (String(repeating: "u", count: 127), "over"), ("per%41cent", "x"),
    ]

    @Test func theCLIUserAddAndHTTPAcceptAndRefuseTheSameUsers() async throws {
        let surfaces = try await Surfaces()
        for (base, name) in Self.userCases {
            func id(_ surface: String) -> String { base.isEmpty || base == "nearby" ? base : base + "." + surface }
            let cli = surfaces.cli(["user", "add", id("c"), "--name", name, "--token", surfaces.adminToken])
            let line = await surfaces.lineCommand(["USER.ADD", id("l"), "NAME", name], token: surfaces.adminToken)
            let http = try await surfaces.httpRequest(
                "POST", "/v1/users", token: surfaces.adminToken,
                json: try JSONSerialization.data(withJSONObject: ["id": id("h"), "name": name]))
            let accepted = (cli.status == 0, !line.isError, http.status == 201)
            #expect(accepted.0 == accepted.1 && accepted.1 == accepted.2, "\(base.prefix(20)) \(accepted)")
        }
        await surfaces.close()
    }

    // MARK: - Helpers

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// `vicinity import` of a one-row CSV holding the place.
    static func importCSV(_ place: PlaceCase, _ surfaces: Surfaces) throws -> CLI.Outcome {
        func field(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let header = (["id", "name", "lat", "lon"] + place.attributes.map(\.0)).map(field).joined(separator: ",")
        let row = ([place.id, place.name, "41", "29"] + place.attributes.map(\.1)).map(field).joined(separator: ",")
        let path = surfaces.home + "/import-\(UUID()).csv"
        try (header + "\n" + row + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return surfaces.cli(["import", path, "--kind", place.kind])
    }
}
