import Foundation
import Geo
import NIOCore
import Places
import RedisGeo
import TestSupport
import Testing

@testable import LineProtocol

/// Issue 18 on the line protocol: a `street` user is in the `user` key at the centre of their
/// cell for everyone but themselves (the admin included), distances to them are rounded to 100 m
/// before the unit, `USER.PRECISION` and `USER.VISIBILITY … FOR` set the user's privacy, `USER.GET`
/// shows the timers to the user and the admin only.
@Suite struct UserPrecisionCommandTests {
    /// The clock every fixture's directory reads: 2026-11-26T15:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_705_200)

    /// A service with an admin, `sena` (street) at `position`, `ekin` (exact) at `ekin`, and `oya`
    /// (exact, the observing user) about 1.7 km away; locations last 12 hours.
    struct Fixture {
        let service: LineService
        let admin: Session
        let anonymous: Session
        let oya: Session
        let sena: Session

        init(position: Coordinate, ekin: Coordinate? = nil) throws {
            var directory = PlaceDirectory(places: try PlaceCatalog())
            directory.privacy = PrivacySettings(
                defaultPrecision: .exact, locationTTLSeconds: 43_200, now: { UserPrecisionCommandTests.now })
            let adminToken = directory.rotateAdminToken()
            let senaToken = try directory.addUser(
                User(id: "sena", name: "Sena", location: position, precision: .street), by: .admin)
            let ekin = try ekin ?? Coordinate(latitude: 41.095, longitude: 29.025)
            _ = try directory.addUser(User(id: "ekin", name: "Ekin", location: ekin, precision: .exact), by: .admin)
            let oyaToken = try directory.addUser(
                User(id: "oya", name: "Oya", location: try Coordinate(latitude: 41.1, longitude: 29.03)), by: .admin)
            service = LineService(directory: DurableDirectory(directory, store: MemoryStore()))
            admin = Self.session(1, adminToken, .admin)
            anonymous = Session(id: 2)
            oya = Self.session(3, oyaToken, .user("oya"))
            sena = Self.session(4, senaToken, .user("sena"))
        }

        static func session(_ id: Int, _ token: String, _ principal: Principal) -> Session {
            var session = Session(id: id)
            session.token = token
            session.principal = principal
            return session
        }

        func run(_ arguments: [String], as session: Session) async -> RESPReply {
            await withCheckedContinuation { continuation in
                service.execute(arguments, session: session) { reply, _ in continuation.resume(returning: reply) }
            }
        }

        func run(_ arguments: String..., as session: Session) async -> RESPReply {
            await run(arguments, as: session)
        }
    }

    /// The reply's bytes in RESP2, RESP3 and as a JSON line.
    static func bytes(_ reply: RESPReply) -> [ByteBuffer] {
        [RESPReplyEncoder.Format.resp2, .resp3, .json].map { format in
            var out = ByteBuffer()
            RESPReplyEncoder.write(reply, format: format, to: &out)
            return out
        }
    }

    /// A record reply of these fields, in order.
    static func record(_ fields: [(String, RESPReply)]) -> RESPReply {
        .map(fields.map { RESPReply.MapEntry(key: .text($0.0), value: $0.1) })
    }

    /// The centre of a street cell in Istanbul, and two exact positions inside that cell.
    static func positionsInOneCell() throws -> (Coordinate, Coordinate) {
        let center = LocationPrecision.street.published(try Coordinate(latitude: 41.0885, longitude: 29.0158))
        let first = try Coordinate(latitude: center.latitude + 0.0002, longitude: center.longitude + 0.0003)
        let second = try Coordinate(latitude: center.latitude - 0.0003, longitude: center.longitude - 0.0004)
        #expect(LocationPrecision.street.published(first) == center)
        #expect(LocationPrecision.street.published(second) == center)
        return (first, second)
    }

    /// Every read of the `user` key (and Vicinity's queries) that can say where `member` is.
    static func battery(_ member: String) -> [[String]] {
        [
            ["GEOPOS", "user", member], ["GEOHASH", "user", member], ["ZSCORE", "user", member],
            ["ZRANGE", "user", "0", "-1", "WITHSCORES"], ["GEODIST", "user", member, "oya"],
            ["GEODIST", "user", "oya", member, "km"], ["GEODIST", "user", member, "ekin", "mi"],
            [
                "GEOSEARCH", "user", "FROMLONLAT", "29.02", "41.09", "BYRADIUS", "5", "km", "WITHDIST", "WITHCOORD",
                "WITHHASH", "ASC",
            ],
            ["GEOSEARCH", "user", "FROMMEMBER", "oya", "BYBOX", "9", "9", "km", "WITHDIST", "ASC"],
            ["GEORADIUS", "user", "29.02", "41.09", "5000", "m", "WITHDIST", "WITHCOORD", "ASC"],
            ["GEORADIUSBYMEMBER", "user", member, "3", "mi", "WITHDIST", "WITHCOORD", "ASC"],
            ["NEARBY", "user", "41.09", "29.02", "5000", "WITHCOORD"],
            ["NEAREST", "user", "41.09", "29.02", "3", "UNIT", "km", "WITHCOORD"],
            ["USER.GET", member],
        ]
    }

    @Test func aStreetUsersRepliesDependOnTheCellAloneForEveryoneElse() async throws {
        let (first, second) = try Self.positionsInOneCell()
        let one = try Fixture(position: first)
        let two = try Fixture(position: second)
        for (name, asOne, asTwo) in [
            ("anonymous", one.anonymous, two.anonymous), ("oya", one.oya, two.oya),
            ("admin", one.admin, two.admin),
        ] {
            for command in Self.battery("sena") {
                // The admin reads the whole record: USER.GET is the one reply that may differ.
                if name == "admin", command[0] == "USER.GET" { continue }
                let a = await one.run(command, as: asOne)
                let b = await two.run(command, as: asTwo)
                if case .error = a { Issue.record("\(name) \(command): \(a)") }
                #expect(Self.bytes(a) == Self.bytes(b), "\(name) \(command)")
            }
        }
        // The control: an exact user at the same two positions is told apart by everyone.
        let three = try Fixture(position: first, ekin: first)
        let four = try Fixture(position: first, ekin: second)
        for (asThree, asFour) in [
            (three.anonymous, four.anonymous), (three.oya, four.oya), (three.admin, four.admin),
        ] {
            for command in [
                ["GEOPOS", "user", "ekin"], ["ZSCORE", "user", "ekin"], ["GEODIST", "user", "ekin", "oya"],
                ["GEOSEARCH", "user", "FROMLONLAT", "29.02", "41.09", "BYRADIUS", "5", "km", "WITHDIST", "ASC"],
            ] {
                let a = await three.run(command, as: asThree)
                let b = await four.run(command, as: asFour)
                #expect(Self.bytes(a) != Self.bytes(b), "\(command)")
            }
        }
        // The user themselves sees where they are.
        for command in [["GEOPOS", "user", "sena"], ["ZSCORE", "user", "sena"], ["GEODIST", "user", "sena", "oya"]] {
            let a = await one.run(command, as: one.sena)
            let b = await two.run(command, as: two.sena)
            #expect(Self.bytes(a) != Self.bytes(b), "sena \(command)")
        }
        let own = await one.run("GEOPOS", "user", "sena", as: one.sena)
        let decoded = GeoHash.decode(
            score: Double(try GeoHash.encode(longitude: first.longitude, latitude: first.latitude)))
        #expect(
            own
                == .array([
                    .array([
                        .doubleText(RedisGeoText.coordinate(decoded.longitude)),
                        .doubleText(RedisGeoText.coordinate(decoded.latitude)),
                    ])
                ]))
    }

    @Test func watchEventsOfAStreetUserDependOnTheCellAlone() async throws {
        let (first, second) = try Self.positionsInOneCell()
        var lines: [String] = []
        for position in [first, second] {
            let fixture = try Fixture(position: position)
            var session = fixture.oya
            session.protocolVersion = 3
            let watches = ConnectionWatches(capacity: 100) {}
            session.watches = watches
            let reply = await fixture.run("WATCH", "NEARBY", "user", "41.1", "29.03", "5000", as: session)
            guard case .integer = reply, let subscriber = watches.current else {
                Issue.record("\(reply)")
                return
            }
            let event = try #require(subscriber.take().first { $0.object?.id == "sena" })
            lines.append(String(buffer: WatchEventText.json(event)))
            fixture.service.directory.unwatchAll(for: subscriber)
        }
        #expect(lines[0] == lines[1])
        // `"distance":1800.0000,`: a whole number of 100 m.
        let distance = try #require(lines[0].split(separator: ",").first { $0.hasPrefix("\"distance\":") })
        let meters = try #require(Double(distance.dropFirst("\"distance\":".count)))
        #expect(meters > 0 && meters.truncatingRemainder(dividingBy: 100) == 0, "\(lines[0])")
    }

    @Test func distancesToAStreetUserAreWholeHundredsOfMetersBeforeTheUnit() async throws {
        let (first, _) = try Self.positionsInOneCell()
        let fixture = try Fixture(position: first)
        func number(_ reply: RESPReply) -> Double? {
            switch reply {
            case .bulkText(let text): return Double(text)
            case .bulkString(let buffer): return Double(String(buffer: buffer))
            default: return nil
            }
        }
        let meters = try #require(number(await fixture.run("GEODIST", "user", "sena", "oya", as: fixture.anonymous)))
        #expect(meters > 0 && meters.truncatingRemainder(dividingBy: 100) == 0)
        #expect(
            await fixture.run("GEODIST", "user", "oya", "sena", "km", as: fixture.anonymous)
                == .text(RedisGeoText.distance(meters: meters, unit: .kilometers)))
        #expect(
            await fixture.run("GEODIST", "user", "sena", "oya", "mi", as: fixture.oya)
                == .text(RedisGeoText.distance(meters: meters, unit: .miles)))
        // Between two users the coarser precision rounds: street beats exact.
        let toEkin = try #require(number(await fixture.run("GEODIST", "user", "ekin", "sena", as: fixture.oya)))
        #expect(toEkin.truncatingRemainder(dividingBy: 100) == 0)
        // Between exact users, Redis's digits.
        let exact = try #require(number(await fixture.run("GEODIST", "user", "ekin", "oya", as: fixture.anonymous)))
        #expect(exact.truncatingRemainder(dividingBy: 100) != 0)
        // The user's own distances are exact.
        let own = try #require(number(await fixture.run("GEODIST", "user", "sena", "oya", as: fixture.sena)))
        #expect(own.truncatingRemainder(dividingBy: 100) != 0)

        // WITHDIST: the same rounding, in the search's unit; from a member as GEODIST from it.
        let search = await fixture.run(
            "GEOSEARCH", "user", "FROMMEMBER", "oya", "BYRADIUS", "10", "mi", "WITHDIST", "ASC", as: fixture.anonymous)
        let rows = Dictionary(
            uniqueKeysWithValues: (try #require(search.arrayValue)).compactMap { row -> (String, RESPReply)? in
                guard let fields = row.arrayValue, fields.count == 2, case .bulkText(let id) = fields[0] else {
                    return nil
                }
                return (id, fields[1])
            })
        #expect(rows["sena"] == .text(RedisGeoText.distance(meters: meters, unit: .miles)))
        #expect(rows["oya"] == .text("0.0000"))
        let byMember = await fixture.run(
            "GEORADIUSBYMEMBER", "user", "sena", "5", "km", "WITHDIST", "ASC", as: fixture.anonymous)
        #expect(
            byMember.arrayValue?.last
                == .array([.text("oya"), .text(RedisGeoText.distance(meters: meters, unit: .kilometers))]))
        // NEARBY rounds through the query layer, before the unit too.
        let nearby = await fixture.run("NEARBY", "user", "41.1", "29.03", "5", "UNIT", "km", as: fixture.anonymous)
        let senaRow = try #require(nearby.arrayValue?.first { $0.arrayValue?.first == .text("sena") }?.arrayValue)
        guard case .doubleText(let kilometers) = senaRow[2] else { Issue.record("\(senaRow)"); return }
        let shown = try #require(Double(kilometers)) * 1_000
        #expect(abs(shown - (shown / 100).rounded() * 100) < 1e-6)
    }

    @Test func userPrecisionIsSetByTheUserOrTheAdmin() async throws {
        let (first, _) = try Self.positionsInOneCell()
        let fixture = try Fixture(position: first)
        #expect(await fixture.run("USER.PRECISION", "sena", "district", as: fixture.sena) == .simpleString("OK"))
        #expect(await fixture.run("USER.PRECISION", "sena", "CITY", as: fixture.admin) == .simpleString("OK"))
        #expect(
            await fixture.run("USER.PRECISION", "sena", "exact", as: fixture.oya)
                == .error("NOPERM not allowed: changing a user's precision needs that user's token or the admin token"))
        #expect(
            await fixture.run("USER.PRECISION", "sena", "fine", as: fixture.sena)
                == .error(
                    "ERR invalid precision \"fine\": expected exact, street (~100 m), district (~1 km) or city "
                        + "(~10 km)"))
        #expect(
            await fixture.run("USER.PRECISION", "sena", as: fixture.sena)
                == .error("ERR wrong number of arguments for 'user.precision' command"))
        let record = await fixture.run("USER.GET", "sena", as: fixture.anonymous)
        #expect(record.field("precision") == .text("city"))
        // A user added with PRECISION has it; without, the server's default (exact here).
        #expect(
            await fixture.run("USER.ADD", "deniz", "AT", "41", "29", "PRECISION", "district", as: fixture.admin)
                .isText)
        #expect(await fixture.run("USER.ADD", "can", as: fixture.admin).isText)
        #expect(await fixture.run("USER.GET", "deniz", as: fixture.admin).field("precision") == .text("district"))
        #expect(await fixture.run("USER.GET", "can", as: fixture.admin).field("precision") == .text("exact"))
        #expect(
            await fixture.run("USER.ADD", "ece", "PRECISION", "fine", as: fixture.admin)
                == .error(
                    "ERR invalid precision \"fine\": expected exact, street (~100 m), district (~1 km) or city "
                        + "(~10 km)"))
    }

    @Test func ghostModeWithATimer() async throws {
        let (first, _) = try Self.positionsInOneCell()
        let fixture = try Fixture(position: first)
        #expect(
            await fixture.run("USER.VISIBILITY", "sena", "private", "FOR", "3h", as: fixture.sena)
                == .simpleString("OK"))
        let record = await fixture.run("USER.GET", "sena", as: fixture.sena)
        #expect(record.field("visibility") == .text("private"))
        #expect(record.field("private_until") == .text("2026-11-26T18:00:00Z"))
        #expect(
            await fixture.run("USER.VISIBILITY", "sena", "private", "FOR", "3x", as: fixture.sena)
                == .error(
                    "ERR invalid duration \"3x\": expected 1s to 3650d, as seconds or with units d, h, m, s (e.g. 3h, "
                        + "90m, 1d12h)"))
        #expect(
            await fixture.run("USER.VISIBILITY", "sena", "private", "FOR", "0", as: fixture.sena)
                == .error(
                    "ERR invalid duration \"0\": expected 1s to 3650d, as seconds or with units d, h, m, s (e.g. 3h, "
                        + "90m, 1d12h)"))
        #expect(
            await fixture.run("USER.VISIBILITY", "sena", "public", "FOR", "3h", as: fixture.sena)
                == .error(
                    "ERR invalid visibility \"public for 10800 s\": expected a time limit only with private (public "
                        + "lasts until changed)"))
        #expect(
            await fixture.run("USER.VISIBILITY", "ekin", "private", "FOR", "3h", as: fixture.oya)
                == .error(
                    "NOPERM not allowed: changing a user's visibility needs that user's token or the admin token"))
        #expect(
            await fixture.run("USER.VISIBILITY", "sena", "private", "UNTIL", "3h", as: fixture.sena)
                == .error("ERR syntax error: unexpected 'UNTIL' after the visibility: expected one of FOR"))
        #expect(
            await fixture.run("USER.VISIBILITY", "sena", "private", "FOR", as: fixture.sena)
                == .error("ERR wrong number of arguments for 'user.visibility' command"))
        // Without FOR: private until changed; public clears the timer.
        #expect(await fixture.run("USER.VISIBILITY", "sena", "PUBLIC", as: fixture.admin) == .simpleString("OK"))
        #expect(await fixture.run("USER.GET", "sena", as: fixture.admin).field("private_until") == .nullBulk)
    }

    @Test func userGetShowsTimersToTheUserAndTheAdminOnly() async throws {
        let (first, _) = try Self.positionsInOneCell()
        let fixture = try Fixture(position: first)
        let published = LocationPrecision.street.published(first)
        for session in [fixture.anonymous, fixture.oya] {
            let record = await fixture.run("USER.GET", "sena", as: session)
            #expect(
                record
                    == Self.record([
                        ("id", .text("sena")), ("name", .text("Sena")),
                        ("lat", .text(NumberText.plain(published.latitude))),
                        ("lon", .text(NumberText.plain(published.longitude))), ("visibility", .text("public")),
                        ("precision", .text("street")),
                    ]))
        }
        for session in [fixture.sena, fixture.admin] {
            let record = await fixture.run("USER.GET", "sena", as: session)
            #expect(
                record
                    == Self.record([
                        ("id", .text("sena")), ("name", .text("Sena")),
                        ("lat", .text(NumberText.plain(first.latitude))),
                        ("lon", .text(NumberText.plain(first.longitude))), ("visibility", .text("public")),
                        ("precision", .text("street")), ("location_expires_at", .text("2026-11-27T03:00:00Z")),
                        ("private_until", .nullBulk),
                    ]))
        }
        // JSON: the timers are strings or null.
        var out = ByteBuffer()
        RESPReplyEncoder.write(await fixture.run("USER.GET", "sena", as: fixture.sena), format: .json, to: &out)
        let line = String(buffer: out)
        #expect(line.contains("\"location_expires_at\":\"2026-11-27T03:00:00Z\",\"private_until\":null"), "\(line)")
    }

    @Test func commandDocsDescribeTheNewArguments() async throws {
        let (first, _) = try Self.positionsInOneCell()
        let fixture = try Fixture(position: first)
        #expect(LineService.commandNames.contains("USER.PRECISION"))
        #expect(CommandTable.byName["USER.PRECISION"]?.arity == 3)
        #expect(CommandTable.byName["USER.VISIBILITY"]?.arity == -3)
        let visibility = try #require(CommandTable.byName["USER.VISIBILITY"])
        #expect(visibility.arguments.map(\.name) == ["id", "visibility", "duration"])
        #expect(visibility.arguments.last?.token == "FOR")
        let add = try #require(CommandTable.byName["USER.ADD"])
        #expect(add.arguments.last?.name == "precision")
        #expect(add.arguments.last?.arguments.first?.token == "PRECISION")
        let docs = await fixture.run("COMMAND", "DOCS", "USER.PRECISION", as: fixture.anonymous)
        guard case .map(let entries) = docs, entries.first?.key == .text("user.precision") else {
            Issue.record("\(docs)")
            return
        }
    }
}

extension RESPReply {
    /// The elements of an array reply.
    var arrayValue: [RESPReply]? {
        if case .array(let elements) = self.expanded { return elements }
        return nil
    }

    /// A map reply's value for `key`.
    func field(_ key: String) -> RESPReply? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }

    /// Whether the reply is a bulk string (a token).
    var isText: Bool {
        if case .bulkText = self { return true }
        if case .bulkString = self { return true }
        return false
    }
}
