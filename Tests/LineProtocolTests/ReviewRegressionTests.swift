import Geo
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// What a fresh-eyes review of issue 15's merged line protocol found, each kept fixed: a replaced
/// token still read on open connections, `WATCH user` betrayed a private user's moves, grouped
/// pipelined writes went unmonitored and uncounted, MONITOR and QUIT inside MULTI, key-spec flags
/// in the wrong case.
@Suite struct ReviewRegressionTests {
    /// A service over a directory with a private user `bob`, and the admin and bob tokens.
    static func service() throws -> (LineService, DurableDirectory, admin: String, bob: String) {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        let admin = directory.rotateAdminToken()
        let bob = try directory.addUser(
            User(
                id: "bob", name: "Bob", location: try Coordinate(latitude: 41.03, longitude: 28.97),
                visibility: .private),
            by: .admin)
        let durable = DurableDirectory(directory, store: MemoryStore())
        return (LineService(directory: durable), durable, admin, bob)
    }

    func run(_ service: LineService, _ arguments: [String], _ session: Session) async -> (RESPReply, Session) {
        await withCheckedContinuation { continuation in
            service.execute(arguments, session: session) { reply, session in
                continuation.resume(returning: (reply, session))
            }
        }
    }

    @Test func aReplacedTokenStopsReadingOnOpenConnections() async throws {
        let (service, durable, admin, bob) = try Self.service()
        defer { durable.close() }
        let (_, asBob) = await run(service, ["AUTH", bob], Session(id: 1))
        let (before, _) = await run(service, ["GEOPOS", "user", "bob"], asBob)
        #expect(before != .array([.nullArray]), "bob sees himself: \(before)")
        let (_, asAdmin) = await run(service, ["AUTH", admin], Session(id: 2))
        let (fresh, _) = await run(service, ["USER.TOKEN", "bob"], asAdmin)
        guard case .bulkText = fresh else { Issue.record("\(fresh)"); return }
        let (after, _) = await run(service, ["GEOPOS", "user", "bob"], asBob)
        #expect(after == .array([.nullArray]), "the old token still reads a private user: \(after)")
        let (record, _) = await run(service, ["USER.GET", "bob"], asBob)
        guard case .error = record else { Issue.record("the old token still reads bob's record: \(record)"); return }
    }

    @Test func aPrivateUsersMoveDoesNotFailAnotherClientsWatch() async throws {
        let (service, durable, admin, bob) = try Self.service()
        defer { durable.close() }
        let (_, watcher) = await run(service, ["WATCH", "user"], Session(id: 1))
        let (_, asBob) = await run(service, ["AUTH", bob], Session(id: 2))
        let (moved, _) = await run(service, ["USER.MOVE", "bob", "41.02", "28.99"], asBob)
        #expect(moved == .simpleString("OK"))
        var (_, session) = await run(service, ["MULTI"], watcher)
        (_, session) = await run(service, ["PING"], session)
        let (hidden, _) = await run(service, ["EXEC"], session)
        #expect(hidden == .array([.simpleString("PONG")]), "a private user's move showed: \(hidden)")

        // A public user's change still fails the watch, as in Redis.
        let (_, asAdmin) = await run(service, ["AUTH", admin], Session(id: 3))
        let (_, watching) = await run(service, ["WATCH", "user"], Session(id: 4))
        _ = await run(service, ["USER.ADD", "ayse", "AT", "41.05", "29.0"], asAdmin)
        (_, session) = await run(service, ["MULTI"], watching)
        (_, session) = await run(service, ["PING"], session)
        let (aborted, _) = await run(service, ["EXEC"], session)
        #expect(aborted == .nullArray)
    }

    @Test func groupedPipelinedWritesAreCountedAndMonitored() async throws {
        let (service, durable, admin, _) = try Self.service()
        defer { durable.close() }
        let (_, asAdmin) = await run(service, ["AUTH", admin], Session(id: 1))
        let writes = (1...3).map { ["GEOADD", "pharmacy", "29.0", "41.0", "m\($0)"] }
        let replies = await withCheckedContinuation { continuation in
            service.executeWrites(writes, session: asAdmin) { continuation.resume(returning: $0) }
        }
        #expect(replies == Array(repeating: .integer(1), count: 3))
        let (info, _) = await run(service, ["INFO", "commandstats"], asAdmin)
        guard case .bulkText(let text) = info else { Issue.record("\(info)"); return }
        #expect(text.contains("cmdstat_geoadd:calls=3,"), "\(text)")
    }

    @Test func monitorAndQuitInsideMultiActAsInRedis() async throws {
        let (service, durable, admin, _) = try Self.service()
        defer { durable.close() }
        var (_, session) = await run(service, ["AUTH", admin], Session(id: 1))
        (_, session) = await run(service, ["MULTI"], session)
        let (queued, queuedSession) = await run(service, ["MONITOR"], session)
        #expect(queued == .simpleString("QUEUED"))
        let (exec, afterExec) = await run(service, ["EXEC"], queuedSession)
        #expect(exec == .array([.error("ERR MONITOR isn't allowed for DENY BLOCKING client")]))
        #expect(!afterExec.startsMonitoring)

        (_, session) = await run(service, ["MULTI"], afterExec)
        let (quit, closing) = await run(service, ["QUIT"], session)
        #expect(quit == .simpleString("OK"))
        #expect(closing.closing)
    }

    @Test func keySpecFlagsAreNamedAsRedisNamesThem() {
        #expect(CommandTable.keySpecFlags("RW UPDATE") == ["RW", "update"])
        #expect(CommandTable.keySpecFlags("RO ACCESS") == ["RO", "access"])
        #expect(CommandTable.keySpecFlags("OW DELETE not_key") == ["OW", "delete", "not_key"])
    }
}
