import Foundation
import Geo
import Logging
import NIOCore
import Places
import RedisGeo
import TestSupport
import Testing

@testable import LineProtocol

/// The server end to end over real sockets: commands, pipelining, authorization, privacy, limits.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LineServerTests {
    /// A server on a free port with three Istanbul pharmacies, an admin token and two users.
    struct Fixture {
        let server: LineServer
        let port: Int
        let admin: String
        let ayse: String
        let mehmet: String

        static func start(
            openRegistration: Bool = false, logger: Logger? = nil,
            configure: (inout ServerConfiguration) -> Void = { _ in }
        ) async throws -> Fixture {
            var directory = PlaceDirectory(places: try PlaceCatalog())
            directory.openRegistration = openRegistration
            for (id, latitude, longitude) in [
                ("omur", 41.087853, 29.014096), ("emre", 41.092104, 29.020575), ("arzu", 41.083994, 29.021606),
            ] {
                try directory.perform(
                    .setPlace(
                        Place(
                            id: id, kind: "pharmacy", name: id.capitalized,
                            coordinate: try Coordinate(latitude: latitude, longitude: longitude))), by: .admin)
            }
            let admin = directory.rotateAdminToken()
            let ayse = try directory.addUser(
                User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41.0885, longitude: 29.0158)),
                by: .admin)
            let mehmet = try directory.addUser(
                User(
                    id: "mehmet", name: "Mehmet", location: try Coordinate(latitude: 41.0882, longitude: 29.0156),
                    visibility: .private), by: .admin)
            var configuration = ServerConfiguration()
            configuration.port = 0
            configure(&configuration)
            let service = LineService(directory: DurableDirectory(directory, store: MemoryStore()))
            let server = LineServer(
                service: service, configuration: configuration,
                logger: logger ?? Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let address = try await server.start()
            return Fixture(server: server, port: address.port ?? 0, admin: admin, ayse: ayse, mehmet: mehmet)
        }

        func client() throws -> RawClient { try RawClient(port: port) }

    }

    static func resp(_ arguments: [String]) -> String {
        "*\(arguments.count)\r\n" + arguments.map { "$\($0.utf8.count)\r\n\($0)\r\n" }.joined()
    }

    @Test func inlineAndRESPPipelinedOnOneConnection() async throws {
        let fixture = try await Fixture.start()
        let client = try fixture.client()
        client.send("PING\r\n" + Self.resp(["ECHO", "hello"]) + "DIST 41.088154 29.015615 41.087853 29.014096\r\n")
        let replies = client.receive(replies: 3)
        #expect(replies == "+PONG\r\n$5\r\nhello\r\n$8\r\n131.9361\r\n")
        await fixture.server.shutdown()
    }

    @Test func nearbyListsTheIstanbulExample() async throws {
        let fixture = try await Fixture.start()
        let client = try fixture.client()
        client.send("NEARBY pharmacy 41.088154 29.015615 700\r\n")
        let reply = client.receive(replies: 1)
        #expect(reply.hasPrefix("*3\r\n*4\r\n$4\r\nomur\r\n$4\r\nOmur\r\n$8\r\n131.9361\r\n"))
        await fixture.server.shutdown()
    }

    @Test func privateUsersAreOnNoOneElsesReply() async throws {
        let fixture = try await Fixture.start()
        let anonymous = try fixture.client()
        anonymous.send("NEARBY user 41.0885 29.0158 1000\r\nUSER.GET mehmet\r\nDBSIZE\r\n")
        let seen = anonymous.receive(replies: 3)
        #expect(seen.contains("ayse") && !seen.contains("mehmet\r\n$") && !seen.contains("Mehmet"))
        #expect(seen.contains("-ERR no user \"mehmet\" that you can see\r\n"))
        let own = try fixture.client()
        own.send("AUTH \(fixture.mehmet)\r\nNEARBY user 41.0885 29.0158 1000\r\n")
        let mine = own.receive(replies: 2)
        #expect(mine.hasPrefix("+OK\r\n*2\r\n") && mine.contains("Mehmet"))
        await fixture.server.shutdown()
    }

    @Test func writesNeedTheRightToken() async throws {
        let fixture = try await Fixture.start()
        let client = try fixture.client()
        client.send(
            "PLACE.SET pharmacy new 41 29\r\nAUTH wrong\r\nAUTH \(fixture.ayse)\r\nUSER.VISIBILITY ayse PRIVATE\r\n")
        client.send("USER.MOVE mehmet 41 29\r\nPLACE.SET pharmacy new 41 29\r\n")
        let replies = client.receive(replies: 6)
        #expect(
            replies == "-NOPERM not allowed: changing a place needs the admin token\r\n"
                + "-WRONGPASS invalid username-password pair or user is disabled.\r\n+OK\r\n+OK\r\n"
                + "-ERR no user \"mehmet\" that you can see\r\n"
                + "-NOPERM not allowed: changing a place needs the admin token\r\n")
        let other = try fixture.client()
        other.send("NEARBY user 41.0885 29.0158 1000\r\n")
        #expect(other.receive(replies: 1) == "*0\r\n", "ayse went private: nobody else sees her")
        await fixture.server.shutdown()
    }

    /// `serve --open-registration`: USER.ADD needs no AUTH, and the token it returns is the new
    /// user's; without the flag the same command is refused.
    @Test(arguments: [false, true])
    func userAddWithoutAuthNeedsOpenRegistration(open: Bool) async throws {
        let fixture = try await Fixture.start(openRegistration: open)
        defer { Task { await fixture.server.shutdown() } }
        let client = try fixture.client()
        client.send(Self.resp(["USER.ADD", "deniz", "NAME", "Deniz", "AT", "41.0886", "29.0157"]))
        let reply = client.receive(replies: 1)
        guard open else {
            #expect(reply.hasPrefix("-NOPERM not allowed: adding a user needs the admin token"), "\(reply)")
            return
        }
        let token = try #require(reply.split(separator: "\r\n").last.map(String.init))
        #expect(reply.hasPrefix("$43\r\n"))
        client.send(Self.resp(["AUTH", token]))
        #expect(client.receive(replies: 1) == "+OK\r\n")
        client.send(Self.resp(["USER.VISIBILITY", "deniz", "PRIVATE"]))
        #expect(client.receive(replies: 1) == "+OK\r\n")
        client.send(Self.resp(["USER.VISIBILITY", "ayse", "PRIVATE"]))
        #expect(client.receive(replies: 1).hasPrefix("-NOPERM"), "another user stays out of reach")
    }

    @Test func aProtocolErrorClosesOnlyThatConnection() async throws {
        let fixture = try await Fixture.start()
        let bystander = try fixture.client()
        let rude = try fixture.client()
        rude.send("*2\r\n$4\r\nPING\r\n$x\r\n")
        #expect(rude.receive(atLeast: 100).hasPrefix("-ERR Protocol error: invalid bulk length"))
        bystander.send("PING\r\n")
        #expect(bystander.receive(until: "\r\n") == "+PONG\r\n")
        await fixture.server.shutdown()
    }

    @Test func aTenMebibyteLineIsRefusedWithoutDisturbingOthers() async throws {
        let fixture = try await Fixture.start()
        let rude = try fixture.client()
        let silent = try fixture.client()
        silent.send("*3\r\n$4\r\nECHO\r\n")  // half a command, then silence
        let bystander = try fixture.client()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 16)
        let start = Date()
        for _ in 0..<160 { rude.send(chunk) }
        #expect(rude.receive(atLeast: 100).hasPrefix("-ERR Protocol error: too big inline request"))
        bystander.send("NEARBY pharmacy 41.088154 29.015615 500\r\n")
        #expect(bystander.receive(replies: 1).contains("omur"))
        #expect(Date().timeIntervalSince(start) < 10)
        _ = silent
        await fixture.server.shutdown()
    }

    @Test func theClientLimitIsKept() async throws {
        let fixture = try await Fixture.start { $0.maximumClients = 1 }
        let first = try fixture.client()
        first.send("PING\r\n")
        #expect(first.receive(until: "\r\n") == "+PONG\r\n")
        let second = try fixture.client()
        #expect(second.receive(atLeast: 100) == "-ERR max number of clients reached\r\n")
        await fixture.server.shutdown()
    }

    /// HELLO's option errors quote the option as Redis does, client names are printable ASCII, and
    /// after HELLO 3 the connection speaks RESP3: GEOPOS answers doubles printed as Redis prints
    /// them (17 decimals, trailing zeros removed); JSON output writes them as numbers.
    @Test func helloThreeSwitchesToRESP3AndChecksItsOptions() async throws {
        let fixture = try await Fixture.start()
        let client = try fixture.client()
        let omur = GeoHash.decode(try GeoHash.encode(longitude: 29.014096, latitude: 41.087853))
        let longitude = RedisGeoText.coordinate(omur.longitude)
        let latitude = RedisGeoText.coordinate(omur.latitude)
        let badName = "-ERR Client names cannot contain spaces, newlines or special characters.\r\n"
        client.send(
            Self.resp(["HELLO", "3", "SETNAME", "a", "b"]) + Self.resp(["HELLO", "3", "auth", "x"])
                + Self.resp(["CLIENT", "SETNAME", "a b"]) + Self.resp(["CLIENT", "SETNAME", "tab\there"])
                + Self.resp(["HELLO", "3", "SETNAME", "é"]) + Self.resp(["GEOPOS", "pharmacy", "omur"]))
        let resp2 = "*1\r\n*2\r\n$\(longitude.utf8.count)\r\n\(longitude)\r\n$\(latitude.utf8.count)\r\n\(latitude)\r\n"
        #expect(
            client.receive(until: resp2)
                == "-ERR Syntax error in HELLO option 'b'\r\n-ERR Syntax error in HELLO option 'auth'\r\n" + badName
                + badName + badName + resp2)
        client.send(Self.resp(["HELLO", "3", "SETNAME", "class-map"]) + Self.resp(["GEOPOS", "pharmacy", "omur"]))
        let resp3 = "*1\r\n*2\r\n,\(longitude)\r\n,\(latitude)\r\n"
        let replies = client.receive(until: resp3)
        #expect(replies.hasPrefix("%7\r\n$6\r\nserver\r\n$8\r\nvicinity\r\n"))
        #expect(replies.contains("$5\r\nproto\r\n:3\r\n"))
        client.send("CLIENT GETNAME\r\nOUTPUT json\r\nGEOPOS pharmacy omur\r\n")
        #expect(
            client.receive(until: "]]}\n")
                == "$9\r\nclass-map\r\n" + #"{"ok":true,"result":"OK"}"# + "\n"
                + #"{"ok":true,"result":[[\#(longitude),\#(latitude)]]}"# + "\n")
        await fixture.server.shutdown()
    }

    @Test func jsonOutputIsOneObjectPerLine() async throws {
        let fixture = try await Fixture.start()
        let client = try fixture.client()
        client.send("OUTPUT json\r\nDIST 41.088154 29.015615 41.087853 29.014096\r\nDIST 91 0 0 0\r\n")
        let lines = client.receive(lines: 3).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("131.9361"))
        #expect(lines[2].contains("\"ok\":false") && lines[2].contains("invalid latitude"))
        await fixture.server.shutdown()
    }

    /// Regression: TCP_NODELAY was set as `socketOption(.tcp_nodelay)`, option 1 at SOL_SOCKET,
    /// which is SO_DEBUG: as root it never turned Nagle's algorithm off, and as any other user the
    /// option was refused and every connection reset at once (`redis-cli PING` as `nobody`).
    /// Read back from the accepted channel, the option is on.
    @Test func noDelayIsOnForAcceptedConnections() async throws {
        let fixture = try await Fixture.start()
        let client = try fixture.client()
        client.send("PING\r\n")
        #expect(client.receive(until: "\r\n") == "+PONG\r\n")
        let accepted = try #require(fixture.server.openConnections.first)
        #expect(try await accepted.getOption(ChannelOptions.tcpOption(.tcp_nodelay)).get() != 0)
        // The old option was SO_DEBUG at the socket level: root may set it (so the test above
        // passed, TCP_NODELAY being inherited from the listener), anyone else was reset at once.
        #expect(
            try await accepted.getOption(ChannelOptions.socketOption(NIOBSDSocket.Option(rawValue: SO_DEBUG))).get()
                == 0)
        await fixture.server.shutdown()
    }
}
