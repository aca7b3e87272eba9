import Foundation
import Glibc
import Places
import TestSupport
import Testing

@testable import VicinityCLI

/// Issue 18 from the command line: precision, the published location others see, ghost mode with
/// a timer, a location's lifetime, and the serve flags that set the defaults.
@Suite struct CLIPrivacyTests {
    typealias Fixture = CLIUserTests.Fixture

    /// Ayşe (street, the default) is at 41.0885, 29.0158: the centre of her cell.
    static let published = "41.0884615, 29.0152368"

    @Test func othersSeeTheCentreOfTheCellAndTheUserTheExactPlace() {
        let fixture = Fixture()
        let anyone = CLI.test(["user", "show", "ayse", "--db", fixture.db])
        #expect(anyone.standardOutput.contains("location:   \(Self.published)\n"))
        #expect(anyone.standardOutput.contains("precision:  street\n"))
        #expect(!anyone.standardOutput.contains("forgotten"), "no timer for others: \(anyone.standardOutput)")
        let own = CLI.test(["user", "show", "ayse", "--db", fixture.db, "--token", fixture.ayse])
        #expect(own.standardOutput.contains("location:   41.0885, 29.0158\n"))
        #expect(own.standardOutput.contains("others see: \(Self.published)"))
        #expect(
            own.standardOutput.range(of: #"forgotten:  20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, options: .regularExpression)
                != nil)
        let json = CLI.test(["user", "show", "ayse", "--json", "--db", fixture.db])
        #expect(json.standardOutput.contains(#""precision":"street""#))
        #expect(json.standardOutput.contains(#""location_expires_at":null"#))
        // A query as anyone: the published location, the distance rounded to 100 m.
        let near = CLI.test(["near", "41.0862", "29.0107", "--radius", "500", "--kind", "user", "--db", fixture.db])
        #expect(near.standardOutput.contains("   1.     500.0 m  ENE  57°  ayse"), "\(near.standardOutput)")
        let mine = CLI.test(
            [
                "near", "41.0862", "29.0107", "--radius", "500", "--kind", "user", "--json", "--db", fixture.db,
                "--token", fixture.ayse,
            ])
        #expect(mine.standardOutput.contains(#""lat":41.0885"#), "the user sees themselves exactly")
    }

    @Test func precisionIsTheUsersToChange() {
        let fixture = Fixture()
        let changed = CLI.test(["user", "precision", "ayse", "CITY", "--db", fixture.db, "--token", fixture.ayse])
        #expect(changed.status == 0, "\(changed.standardError)")
        #expect(changed.standardOutput == "Others see ayse at the centre of their city cell (about 10000 m).\n")
        let bad = CLI.test(["user", "precision", "ayse", "fuzzy", "--db", fixture.db, "--token", fixture.ayse])
        #expect(bad.status == 64)
        #expect(
            bad.standardError
                == "vicinity: invalid precision \"fuzzy\": expected exact, street (~100 m), district (~1 km) or city (~10 km)\n"
        )
        let other = CLI.test(["user", "precision", "ayse", "exact", "--db", fixture.db, "--token", fixture.mehmet])
        #expect(other.status == 77)
        let added = CLI.test(
            [
                "user", "add", "zeynep", "--at", "41", "29", "--precision", "exact", "--db", fixture.db, "--token",
                fixture.admin,
            ])
        #expect(added.status == 0)
        #expect(
            CLI.test(["user", "show", "zeynep", "--db", fixture.db]).standardOutput.contains("location:   41.0, 29.0\n")
        )
    }

    @Test func ghostModeWithATimer() {
        let fixture = Fixture()
        let ghost = CLI.test([
            "user", "visibility", "ayse", "private", "--for", "3h", "--db", fixture.db, "--token", fixture.ayse,
        ])
        #expect(ghost.status == 0, "\(ghost.standardError)")
        #expect(ghost.standardOutput.hasPrefix("ayse is private until 20"))
        let own = CLI.test(["user", "show", "ayse", "--json", "--db", fixture.db, "--token", fixture.ayse])
        let document = (try? JSONSerialization.jsonObject(with: Data(own.standardOutput.utf8))) as? [String: Any]
        let until = (document?["private_until"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
        #expect(until.map { abs($0.timeIntervalSinceNow - 3 * 3600) < 60 } == true, "\(own.standardOutput)")
        #expect(CLI.test(["user", "show", "ayse", "--db", fixture.db]).status == 67, "a ghost looks missing")
        for (arguments, message) in [
            (["public", "--for", "3h"], "vicinity: --for goes with private only: public lasts until changed\n"),
            (
                ["private", "--for", "0"],
                "vicinity: invalid duration \"0\": expected 1s to 3650d, as seconds or with units d, h, m, s (e.g. 3h, 90m, 1d12h)\n"
            ),
            (
                ["private", "--for", "3651d"],
                "vicinity: invalid duration \"3651d\": expected 1s to 3650d, as seconds or with units d, h, m, s (e.g. 3h, 90m, 1d12h)\n"
            ),
        ] {
            let refused = CLI.test(
                ["user", "visibility", "ayse"] + arguments + ["--db", fixture.db, "--token", fixture.ayse])
            #expect(refused.status == 64 && refused.standardError == message, "\(arguments)")
        }
    }

    @Test func aLocationLastsAsLongAsSaid() throws {
        let fixture = Fixture()
        #expect(
            CLI.test([
                "user", "move", "ayse", "41", "29", "--location-ttl", "0", "--db", fixture.db, "--token", fixture.ayse,
            ])
            .status == 0)
        let never = CLI.test(["user", "show", "ayse", "--db", fixture.db, "--token", fixture.ayse]).standardOutput
        #expect(never.contains("forgotten:  never"), "\(never)")
        #expect(
            CLI.test([
                "user", "move", "ayse", "41", "29", "--location-ttl", "8h", "--db", fixture.db, "--token", fixture.ayse,
            ])
            .status == 0)
        let json = CLI.test(["user", "show", "ayse", "--json", "--db", fixture.db, "--token", fixture.ayse])
        let document = (try? JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))) as? [String: Any]
        let expiry = (document?["location_expires_at"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
        #expect(expiry.map { abs($0.timeIntervalSinceNow - 8 * 3600) < 60 } == true, "\(json.standardOutput)")
    }

    @Test(arguments: [
        (["--user-precision", "fuzzy"], "invalid precision \"fuzzy\""),
        (["--user-location-ttl", "forever"], "invalid location lifetime \"forever\""),
        (["--user-query-rate", "2000000"], "invalid user query rate \"2000000\""),
    ])
    func serveRefusesBadPrivacyFlags(arguments: [String], message: String) {
        let outcome = CLI.test(["serve"] + arguments + ["--db", TestEnvironment.freshDatabase()])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }
}

/// `vicinity serve --user-query-rate`: one budget for both protocols, so that a scraper gains
/// nothing by asking over two.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServeUserQueryLimitTests {
    @Test func bothProtocolsDrawOnOneBudget() throws {
        let database = TestEnvironment.freshDatabase()
        // 1 a second in bursts of 10: ten queries pass, whichever protocol asks them.
        let server = try ServeTests.Server([
            "--db", database, "--line-port", "0", "--http-port", "0", "--user-query-rate", "1",
        ])
        defer {
            kill(server.process.processIdentifier, SIGTERM)
            _ = server.finish()
        }
        try #require(server.wait(for: "(HTTP)\n"), "\(server.standardError)")
        let linePort = try #require(server.port(of: "line protocol"))
        let httpPort = try #require(server.port(of: "HTTP"))
        let line = try RawClient(port: linePort)
        func overLine() -> String {
            line.send("NEARBY user 41 29 100\r\n")
            return line.receive(replies: 1)
        }
        func overHTTP() throws -> String {
            let client = try RawClient(port: httpPort)
            client.send(
                "GET /v1/users/nearby?lat=41&lon=29&radius=100 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return client.receive(until: "\r\n\r\n")
        }
        var refusals: [String] = []
        for round in 0..<6 {
            let (viaLine, viaHTTP) = (overLine(), try overHTTP())
            if round < 5 {
                #expect(viaLine.hasPrefix("*"), "query \(2 * round + 1): \(viaLine)")
                #expect(viaHTTP.hasPrefix("HTTP/1.1 200"), "query \(2 * round + 2): \(viaHTTP)")
            } else {
                refusals = [viaLine, viaHTTP]
            }
        }
        // Then the budget is spent for both: each protocol is refused within a few tries (the
        // budget refills by one a second, so a stall of the machine lets a query or two through).
        #expect(
            refusals.contains { $0.hasPrefix("-ERR rate limit: too many queries about users") }
                || refusals.contains { $0.hasPrefix("HTTP/1.1 429") },
            "\(refusals)")
        var refusedHTTP = ""
        for _ in 0..<20 where !refusedHTTP.hasPrefix("HTTP/1.1 429") { refusedHTTP = try overHTTP() }
        #expect(refusedHTTP.lowercased().contains("retry-after: "), "\(refusedHTTP)")
        var refusedLine = ""
        for _ in 0..<20 where !refusedLine.hasPrefix("-ERR rate limit: ") { refusedLine = overLine() }
        #expect(refusedLine.hasPrefix("-ERR rate limit: "), "\(refusedLine)")
    }
}
