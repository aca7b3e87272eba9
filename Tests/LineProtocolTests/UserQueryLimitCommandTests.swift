import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// The scraping limit on the line protocol (`ServerConfiguration.userQueryLimit`): queries about
/// other users take from the asker's budget — a user's by their id, the anonymous by address —
/// and are refused with `-ERR rate limit: …` once it is spent, the connection still usable;
/// places, the admin and a user's own record are not limited.
@Suite struct UserQueryLimitCommandTests {
    static let stopped = ContinuousClock.now

    /// `too many queries about users` at 1 a second in bursts of 2, to retry in 1 s.
    static let refusal = RESPReply.error(
        "ERR rate limit: too many queries about users: over the rate of 1 a second in bursts of 2 "
            + "(--user-query-rate); retry in 1 s")

    /// A service with users `ayse` and `oya` (public, exact) and sessions sharing one limit of 1
    /// query a second in bursts of 2.
    struct Fixture {
        let service: LineService
        // A stopped clock: no budget refills while a loaded machine stalls.
        let limit = UserQueryLimit(perSecond: 1, burst: 2, now: { UserQueryLimitCommandTests.stopped })
        let adminToken: String
        let ayseToken: String
        let oyaToken: String

        init() throws {
            var directory = PlaceDirectory(places: try PlaceCatalog())
            adminToken = directory.rotateAdminToken()
            ayseToken = try directory.addUser(
                User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41.0885, longitude: 29.0158)),
                by: .admin)
            oyaToken = try directory.addUser(
                User(id: "oya", name: "Oya", location: try Coordinate(latitude: 41.09, longitude: 29.02)), by: .admin)
            service = LineService(directory: DurableDirectory(directory, store: MemoryStore()))
        }

        /// A connection's session from `address`, authenticated with `token` (nil: anonymous).
        func session(
            _ id: Int, address: String = "192.0.2.1", token: String? = nil, _ principal: Principal = .anonymous
        )
            -> Session
        {
            var session = Session(id: id)
            session.userQueryLimit = limit
            session.clientAddress = address
            session.token = token
            session.principal = principal
            return session
        }

        var admin: Session { session(90, token: adminToken, .admin) }
        var ayse: Session { session(91, token: ayseToken, .user("ayse")) }
        var oya: Session { session(92, token: oyaToken, .user("oya")) }

        func run(_ arguments: [String], as session: Session) async -> RESPReply {
            await withCheckedContinuation { continuation in
                service.execute(arguments, session: session) { reply, _ in continuation.resume(returning: reply) }
            }
        }
    }

    static let nearbyUsers = ["NEARBY", "user", "41.09", "29.02", "1000"]

    @Test func theThirdQueryIsRefusedAndTheConnectionStaysUsable() async throws {
        let fixture = try Fixture()
        let anonymous = fixture.session(1)
        for _ in 0..<2 {
            guard case .array = await fixture.run(Self.nearbyUsers, as: anonymous).expanded else {
                Issue.record("refused too early")
                return
            }
        }
        #expect(await fixture.run(Self.nearbyUsers, as: anonymous) == Self.refusal)
        #expect(await fixture.run(["PING"], as: anonymous) == .simpleString("PONG"))
        // Places are not limited.
        for _ in 0..<5 {
            guard
                case .array = await fixture.run(["NEARBY", "pharmacy", "41.09", "29.02", "1000"], as: anonymous)
                    .expanded
            else {
                Issue.record("a query of places was refused")
                return
            }
            guard case .array = await fixture.run(["NEARBY", "all", "41.09", "29.02", "1000"], as: anonymous).expanded
            else {
                Issue.record("a query of every place kind was refused")
                return
            }
        }
        // Every read about other users counts, on every command.
        for command in [
            ["GEOPOS", "user", "ayse"], ["ZSCORE", "user", "ayse"], ["GEODIST", "user", "ayse", "oya"],
            ["GEOSEARCH", "user", "FROMLONLAT", "29", "41", "BYRADIUS", "50", "km"], ["ZRANGE", "user", "0", "-1"],
            ["ZCARD", "user"], ["EXISTS", "pharmacy", "user"], ["USER.GET", "ayse"],
            ["NEAREST", "user", "41", "29", "1"], ["MAP", "41.09", "29.02", "KIND", "user"],
            ["GEORADIUSBYMEMBER_RO", "user", "ayse", "1", "km"],
        ] {
            #expect(await fixture.run(command, as: anonymous) == Self.refusal, "\(command)")
        }
        #expect(await fixture.run(["GEOPOS", "pharmacy", "omur"], as: anonymous) != Self.refusal)
    }

    @Test func theAnonymousAreCountedByAddressAndUsersById() async throws {
        let fixture = try Fixture()
        let first = fixture.session(1, address: "192.0.2.1")
        let sameAddress = fixture.session(2, address: "192.0.2.1")
        let otherAddress = fixture.session(3, address: "198.51.100.9")
        _ = await fixture.run(Self.nearbyUsers, as: first)
        _ = await fixture.run(Self.nearbyUsers, as: first)
        // Another connection from the same address shares the budget; another address has its own.
        #expect(await fixture.run(Self.nearbyUsers, as: sameAddress) == Self.refusal)
        #expect(await fixture.run(Self.nearbyUsers, as: otherAddress) != Self.refusal)

        // A user has one budget wherever they connect from, apart from the address's.
        let ayseHere = fixture.session(4, address: "192.0.2.1", token: fixture.ayseToken, .user("ayse"))
        let ayseThere = fixture.session(5, address: "203.0.113.5", token: fixture.ayseToken, .user("ayse"))
        #expect(await fixture.run(["USER.GET", "oya"], as: ayseHere) != Self.refusal)
        #expect(await fixture.run(["GEOPOS", "user", "oya"], as: ayseThere) != Self.refusal)
        #expect(await fixture.run(["USER.GET", "oya"], as: ayseHere) == Self.refusal)
        // Her own record is not a query about other users.
        #expect(await fixture.run(["USER.GET", "ayse"], as: ayseThere) != Self.refusal)
        #expect(await fixture.run(Self.nearbyUsers, as: fixture.oya) != Self.refusal)

        // The admin is never limited.
        for _ in 0..<6 {
            #expect(await fixture.run(Self.nearbyUsers, as: fixture.admin) != Self.refusal)
        }
    }

    @Test func eachCommandInsideATransactionCounts() async throws {
        let fixture = try Fixture()
        var session = fixture.session(1)
        func step(_ arguments: [String]) async -> RESPReply {
            let (reply, next) = await withCheckedContinuation { continuation in
                fixture.service.execute(arguments, session: session) { reply, next in
                    continuation.resume(returning: (reply, next))
                }
            }
            session = next
            return reply
        }
        #expect(await step(["MULTI"]) == .simpleString("OK"))
        for _ in 0..<3 { #expect(await step(Self.nearbyUsers) == .simpleString("QUEUED")) }
        let replies = await step(["EXEC"])
        guard case .array(let results) = replies, results.count == 3 else {
            Issue.record("\(replies)")
            return
        }
        #expect(results[2] == Self.refusal)
        if case .error = results[0] { Issue.record("\(results[0])") }
    }

    @Test func aWatchOfUsersCountsOnceAsItStarts() async throws {
        let fixture = try Fixture()
        var session = fixture.session(1)
        session.protocolVersion = 3
        let watches = ConnectionWatches(capacity: 100) {}
        session.watches = watches
        defer { if let subscriber = watches.current { fixture.service.directory.unwatchAll(for: subscriber) } }
        let watch = ["WATCH", "NEARBY", "user", "41.09", "29.02", "1000"]
        guard case .integer = await fixture.run(watch, as: session) else {
            Issue.record("the watch did not start")
            return
        }
        // A watch of places is free.
        guard case .integer = await fixture.run(["WATCH", "NEARBY", "pharmacy", "41.09", "29.02", "1000"], as: session)
        else {
            Issue.record("the watch of places did not start")
            return
        }
        guard case .sequence = await fixture.run(["SUBSCRIBE", "NEARBY user 41.09 29.02 900"], as: session) else {
            Issue.record("the subscription did not start")
            return
        }
        #expect(await fixture.run(["SUBSCRIBE", "NEARBY user 41.09 29.02 800"], as: session) == Self.refusal)
        #expect(await fixture.run(watch, as: session) == Self.refusal)
        #expect(watches.count == 3)
    }
}
