import NIOCore
import Testing

@testable import LineProtocol

/// Error replies in Redis 7.0's words, the HELP of every container command, and Vicinity's
/// own commands' option errors naming the token and the choices.
@Suite struct ErrorWordingTests {
    typealias Fixture = RedisGeoCommandTests.Fixture

    @Test func unknownCommandEchoesItsArgumentsButNoToken() async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.run(["foo", "a", "b"])
                == .error("ERR unknown command 'foo', with args beginning with: 'a' 'b' "))
        #expect(await fixture.run(["foo"]) == .error("ERR unknown command 'foo', with args beginning with: "))
        // Redis cuts each argument to what is left of 128 bytes and stops listing at 128.
        let long = String(repeating: "y", count: 100)
        #expect(
            await fixture.run(["foo", long, long, "z"])
                == .error(
                    "ERR unknown command 'foo', with args beginning with: '\(long)' '"
                        + String(repeating: "y", count: 25) + "' "))
        let token = String(repeating: "A", count: 40) + "b-_"
        #expect(
            await fixture.run(["AUHT", token])
                == .error("ERR unknown command 'AUHT', with args beginning with: '(redacted)' "))
    }

    @Test(arguments: ["CLIENT", "COMMAND", "CONFIG", "SLOWLOG", "MEMORY"])
    func unknownSubcommandPointsToAWorkingHelp(command: String) async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.run([command, "Nope"]) == .error("ERR unknown subcommand 'Nope'. Try \(command) HELP."))
        guard case .array(let lines) = await fixture.run([command.lowercased(), "help"]) else {
            Issue.record("no help")
            return
        }
        #expect(lines.first == .simpleString("\(command) <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"))
        #expect(lines.suffix(2) == [.simpleString("HELP"), .simpleString("    Print this help.")])
        #expect(lines.count > 4)
    }

    @Test(arguments: [
        (
            ["NEARBY", "pharmacy", "41", "29", "500", "WITHDIST"],
            "ERR syntax error: unexpected 'WITHDIST' after the radius: expected one of UNIT, LIMIT, MODEL, WITHCOORD, OPEN, "
                + "WHERE (every hit has its distance and bearing)"
        ),
        (
            ["NEARBY", "pharmacy", "41", "29", "500", "count", "3"],
            "ERR syntax error: unexpected 'count' after the radius: expected one of UNIT, LIMIT, MODEL, WITHCOORD, OPEN, "
                + "WHERE (LIMIT caps the number of hits)"
        ),
        (
            ["NEARBY", "pharmacy", "41", "29", "500", "ASC"],
            "ERR syntax error: unexpected 'ASC' after the radius: expected one of UNIT, LIMIT, MODEL, WITHCOORD, OPEN, "
                + "WHERE (hits are always nearest first)"
        ),
        (
            ["NEAREST", "pharmacy", "41", "29", "3", "COUNT", "3"],
            "ERR syntax error: unexpected 'COUNT' after the count: expected one of MAXDIST, UNIT, MODEL, WITHCOORD, "
                + "OPEN, WHERE"
        ),
        (
            ["DIST", "41", "29", "41.1", "29", "KM", "x"],
            "ERR syntax error: unexpected 'KM' after the two points: expected one of MODEL, UNIT"
        ),
        (
            ["MAP", "41", "29", "ZOOM", "3"],
            "ERR syntax error: unexpected 'ZOOM' after the coordinates: expected one of RADIUS, WIDTH, HEIGHT, KIND, "
                + "OPEN, WHERE"
        ),
    ])
    func misplacedOptionsNameTheTokenAndTheChoices(arguments: [String], message: String) async throws {
        let fixture = try Fixture()
        #expect(await fixture.run(arguments) == .error(message))
    }

    /// Redis's own GEO commands keep Redis's bare wording.
    @Test func redisCommandsKeepRedisWording() async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.run(["GEOSEARCH", "polar", "FROMLONLAT", "10", "80", "BYRADIUS", "1", "km", "WITHDIST", "X"])
                == .error("ERR syntax error"))
    }

    static func encoded(_ reply: RESPReply, _ format: RESPReplyEncoder.Format) -> String {
        var buffer = ByteBuffer()
        RESPReplyEncoder.write(reply, format: format, to: &buffer)
        return String(buffer: buffer)
    }

    @Test func recordsAreMapsAndDistancesDoublesInRESP3AndJSON() async throws {
        let fixture = try Fixture()
        let place = await fixture.run(["PLACE.GET", "polar", "station"])
        #expect(Self.encoded(place, .resp2).hasPrefix("*10\r\n$2\r\nid\r\n$7\r\nstation\r\n"))
        #expect(Self.encoded(place, .resp3).hasPrefix("%5\r\n$2\r\nid\r\n$7\r\nstation\r\n"))
        #expect(Self.encoded(place, .json).hasPrefix(#"{"ok":true,"result":{"id":"station","kind":"polar""#))
        let user = await fixture.run(["USER.GET", "ayse"])
        // The admin reads the whole record: id, name, lat, lon, visibility, precision and the two timers.
        #expect(Self.encoded(user, .resp3).hasPrefix("%8\r\n$2\r\nid\r\n$4\r\nayse\r\n"))

        let hits = await fixture.run(["NEARBY", "user", "41.0885", "29.0158", "10"], as: fixture.anonymous)
        #expect(Self.encoded(hits, .resp2).hasPrefix("*1\r\n*4\r\n$4\r\nayse\r\n$5\r\nAyşe\r\n$6\r\n0.0000\r\n$"))
        #expect(Self.encoded(hits, .resp3).hasPrefix("*1\r\n*4\r\n$4\r\nayse\r\n$5\r\nAyşe\r\n,0.0000\r\n,"))
        #expect(Self.encoded(hits, .json).hasPrefix(#"{"ok":true,"result":[["ayse","Ayşe",0.0000,"#))
        let distance = await fixture.run(["DIST", "41", "29", "41", "29.001"])
        #expect(Self.encoded(distance, .resp3).hasPrefix(","))
    }
}
