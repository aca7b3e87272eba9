import Testing

@testable import LineProtocol

/// INFO's sections and per-command statistics, and CONFIG, run on `LineService` directly.
@Suite struct ConnectionCommandTests {
    typealias Fixture = RedisGeoCommandTests.Fixture

    /// The text of a bulk reply.
    static func text(_ reply: RESPReply) -> String {
        switch reply {
        case .bulkText(let text): return text
        case .bulkString(let bytes): return String(buffer: bytes)
        default: return "not a bulk string: \(reply)"
        }
    }

    @Test func infoAnswersTheSectionsAskedFor() async throws {
        let fixture = try Fixture()
        let plain = Self.text(await fixture.run("INFO"))
        #expect(plain.hasPrefix("# Server\r\n"))
        for section in ["# Clients\r\n", "# Stats\r\n", "# Keyspace\r\n"] { #expect(plain.contains(section)) }
        #expect(!plain.contains("# Commandstats"))
        #expect(Self.text(await fixture.run("INFO", "Keyspace")).hasPrefix("# Keyspace\r\nplaces:1\r\n"))
        #expect(Self.text(await fixture.run("INFO", "nothing-here")) == "")
        let everything = Self.text(await fixture.run("INFO", "everything"))
        #expect(everything.contains("\r\n\r\n# Commandstats\r\n"))
        let two = Self.text(await fixture.run("INFO", "clients", "commandstats"))
        #expect(two.hasPrefix("# Clients\r\nconnected_clients:"))
        #expect(two.contains("\r\n\r\n# Commandstats\r\ncmdstat_info:calls=4,"))
    }

    /// Calls, time, failures (an error while running) and rejections (a wrong number of
    /// arguments, refused before running) per command, as Redis 7.0 counts them; CONFIG RESETSTAT
    /// (admin only) clears them.
    @Test func commandStatisticsCountCallsFailuresAndRejections() async throws {
        let fixture = try Fixture()
        _ = await fixture.run("GEOADD", "shops", "29", "41", "a", "29.001", "41.001", "b")
        for _ in 0..<3 {
            _ = await fixture.run("GEOSEARCH", "shops", "FROMLONLAT", "29", "41", "BYRADIUS", "1", "km", "ASC")
        }
        _ = await fixture.run("GEOSEARCH", "shops", "FROMLONLAT", "200", "41", "BYRADIUS", "1", "km")
        _ = await fixture.run("GEODIST", "shops")
        _ = await fixture.run("NOSUCHCOMMAND")
        let stats = Self.text(await fixture.run("INFO", "commandstats")).split(separator: "\r\n")
        let search = stats.first { $0.hasPrefix("cmdstat_geosearch:") } ?? ""
        #expect(search.hasPrefix("cmdstat_geosearch:calls=4,usec="))
        #expect(search.hasSuffix(",rejected_calls=0,failed_calls=1"))
        #expect(stats.contains { $0.hasPrefix("cmdstat_geodist:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,") })
        #expect(stats.contains { $0.hasPrefix("cmdstat_geoadd:calls=1,") })
        #expect(!stats.contains { $0.contains("nosuchcommand") })

        let refused = await fixture.run("CONFIG", "RESETSTAT", as: fixture.anonymous)
        #expect(refused == .error("NOPERM not allowed: resetting the statistics needs the admin token"))
        #expect(await fixture.run("CONFIG", "RESETSTAT") == .simpleString("OK"))
        // As in Redis, the RESETSTAT call itself is counted after the reset.
        let cleared = Self.text(await fixture.run("INFO", "commandstats")).split(separator: "\r\n")
        #expect(cleared.count == 2 && cleared[1].hasPrefix("cmdstat_config:calls=1,"))
        #expect(await fixture.run("CONFIG", "GET", "save") == .map([]))
        #expect(await fixture.run("CONFIG", "GET") == .error("ERR wrong number of arguments for 'config|get' command"))
        #expect(
            await fixture.run("CONFIG", "SET", "x", "y")
                == .error("ERR Unknown option or number of arguments for CONFIG SET - 'x'"))
        // Redis 7.0 quotes the subcommand as typed.
        #expect(await fixture.run("CONFIG", "Rewrite") == .error("ERR unknown subcommand 'Rewrite'. Try CONFIG HELP."))
    }
}
