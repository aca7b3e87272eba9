import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// `POSITION`, `WAITPOS`, `INFO replication` and `-TRYAGAIN`: read-your-writes on the wire, over
/// a testing channel (`TransactionTests.connect`: the command handler as a server runs it).
@Suite(.timeLimit(.minutes(10))) struct PositionCommandTests {
    typealias Connection = TransactionTests.Connection

    static func send(_ lines: [String], to connection: Connection, replies: Int) async throws -> String {
        try await TransactionTests.send(lines, to: connection, replies: replies)
    }

    /// A place as another server on the same database would store it: straight into the log.
    static func storeElsewhere(_ store: MemoryStore, id: String) throws -> LogPosition {
        let place = Place(id: id, kind: "shop", name: id, coordinate: try Coordinate(latitude: 38, longitude: 13))
        return try store.commit([.putPlace(place)]).position
    }

    @Test func positionIsZeroBeforeAWriteThenTheWritesPosition() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        #expect(try await Self.send(["POSITION"], to: connection, replies: 1) == "*3\r\n:0\r\n:0\r\n:0\r\n")
        let reply = try await Self.send(
            ["AUTH \(connection.admin)", "PLACE.SET shop a 38 13", "GEOADD shop 13 38 b", "POSITION"], to: connection,
            replies: 4)
        #expect(reply == "+OK\r\n+OK\r\n:1\r\n*3\r\n:2\r\n:2\r\n:2\r\n")
        // Another connection has written nothing: its own position stays 0.
        let other = try await TransactionTests.connect(directory: connection.directory, admin: connection.admin)
        #expect(try await Self.send(["POSITION"], to: other, replies: 1) == "*3\r\n:0\r\n:2\r\n:2\r\n")
        _ = try await other.channel.finish(acceptAlreadyClosed: true)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    /// `NODE.STATE` is the admin's: memory as `PlaceDirectory.stateDump` prints it, with the
    /// position it reflects, including what another server stored and this one followed.
    @Test func nodeStateIsMemoryAtItsPositionForTheAdminOnly() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        #expect(try await Self.send(["NODE.STATE"], to: connection, replies: 1).hasPrefix("-NOPERM "))
        _ = try await Self.send(["AUTH \(connection.admin)", "PLACE.SET shop a 38 13"], to: connection, replies: 2)
        let dump = connection.directory.readWithPosition { directory, position in
            directory.stateDump(position: position)
        }
        #expect(dump.hasPrefix("# vicinity state at position 1\nP\tshop\ta\ta\t38\t13\n"), "\(dump)")
        let reply = try await Self.send(["NODE.STATE"], to: connection, replies: 1)
        #expect(reply == "$\(dump.utf8.count)\r\n\(dump)\r\n")
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func pipelinedGroupedWritesAndExecMoveThePosition() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        // Pipelined writes to distinct records run as one group (`executeWrites`).
        let grouped = try await Self.send(
            [
                "AUTH \(connection.admin)", "GEOADD shop 13 38 a", "GEOADD shop 13 38 b", "GEOADD shop 13 38 c",
                "POSITION",
            ],
            to: connection, replies: 5)
        #expect(grouped.hasSuffix("*3\r\n:3\r\n:3\r\n:3\r\n"), "\(grouped)")
        let exec = try await Self.send(
            ["MULTI", "GEOADD shop 14 38 d", "ZREM shop a", "EXEC", "POSITION"], to: connection, replies: 5)
        #expect(exec.hasSuffix("*3\r\n:5\r\n:5\r\n:5\r\n"), "\(exec)")
        // A transaction of reads alone leaves it where it was.
        let reads = try await Self.send(["MULTI", "ZCARD shop", "EXEC", "POSITION"], to: connection, replies: 4)
        #expect(reads.hasSuffix("*3\r\n:5\r\n:5\r\n:5\r\n"), "\(reads)")
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func waitposAnswersAtOnceWhenAppliedAndTimesOutOtherwise() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        let applied = try await Self.send(
            ["AUTH \(connection.admin)", "GEOADD shop 13 38 a", "WAITPOS 1 0", "WAITPOS 0 10"], to: connection,
            replies: 4)
        #expect(applied == "+OK\r\n:1\r\n:1\r\n:1\r\n")
        let clock = ContinuousClock()
        let start = clock.now
        let timedOut = try await Self.send(["WAITPOS 7 50"], to: connection, replies: 1)
        #expect(timedOut == "-TIMEOUT position 7 not applied within 50 ms (applied 1, latest 1)\r\n")
        #expect(clock.now - start >= .milliseconds(50))
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func waitposIsReleasedByAWriteFromElsewhere() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        connection.directory.follow(pollInterval: 0.01)
        let service = connection.service
        let session = try #require(service.connect(maximumClients: 10))
        let store = connection.store
        let reply = await withCheckedContinuation { continuation in
            service.execute(["WAITPOS", "1", "50000"], session: session) { reply, _ in
                continuation.resume(returning: reply)
            }
            // Stored by another server after the wait began.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { _ = try? Self.storeElsewhere(store, id: "x") }
        }
        #expect(reply == .integer(1))
        #expect(connection.directory.read { $0.places.place(kind: "shop", id: "x") } != nil)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test(arguments: [
        (["WAITPOS", "x", "10"], "ERR invalid position \"x\": expected a whole number from 0 to 9223372036854775807"),
        (
            ["WAITPOS", "-1", "10"],
            "ERR invalid position \"-1\": expected a whole number from 0 to 9223372036854775807"
        ),
        (
            ["WAITPOS", "9223372036854775808", "10"],
            "ERR invalid position \"9223372036854775808\": expected a whole number from 0 to 9223372036854775807"
        ),
        (
            ["WAITPOS", "1", "60001"],
            "ERR invalid timeout \"60001\": expected a whole number of milliseconds from 0 to 60000"
        ),
        (
            ["WAITPOS", "1", "1.5"],
            "ERR invalid timeout \"1.5\": expected a whole number of milliseconds from 0 to 60000"
        ),
        (["WAITPOS", "1"], "ERR wrong number of arguments for 'waitpos' command"),
        (["POSITION", "x"], "ERR wrong number of arguments for 'position' command"),
    ])
    func badArgumentsNameTheValueAndTheRange(arguments: [String], line: String) async throws {
        let fixture = try RedisGeoCommandTests.Fixture()
        let reply = await withCheckedContinuation { continuation in
            fixture.service.execute(arguments, session: fixture.admin) { reply, _ in
                continuation.resume(returning: reply)
            }
        }
        #expect(reply == .error(line))
    }

    @Test func infoReplicationShowsHowFarTheLogIsFollowed() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        _ = try await Self.send(["AUTH \(connection.admin)", "GEOADD shop 13 38 a"], to: connection, replies: 2)
        let info = connection.service.info(sections: ["replication"])
        #expect(
            info
                == "# Replication\r\nrole:node\r\napplied_position:1\r\nlatest_position:1\r\nlag_seconds:0.000\r\n"
                + "following:0\r\nstore_reachable:1\r\nstore_unreachable_since:\r\nfollowed_changes:0\r\n"
                + "own_changes:1\r\nsnapshot_reloads:0\r\nlast_error:\r\n")
        #expect(connection.service.info(sections: []).contains("# Replication\r\nrole:node\r\n"))
        #expect(connection.service.info(sections: ["all"]).contains("\r\nown_changes:1\r\n"))
        #expect(!connection.service.info(sections: ["server"]).contains("# Replication"))
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aDatabaseOutOfReachIsTryagainAndNoAcknowledgement() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        connection.store.fail(when: { _ in true }, throwing: { PlacesError.storeUnavailable("connection refused") })
        let reply = try await Self.send(
            [
                "AUTH \(connection.admin)", "GEOADD shop 13 38 a", "PLACE.SET shop b 38 13", "MULTI",
                "GEOADD shop 1 1 c",
                "EXEC", "POSITION",
            ],
            to: connection, replies: 7)
        let tryAgain =
            "-TRYAGAIN the database cannot be reached; try again in a few seconds "
            + "(connection refused)\r\n"
        #expect(
            reply.hasPrefix("+OK\r\n" + tryAgain + tryAgain + "+OK\r\n+QUEUED\r\n-TRYAGAIN Transaction rolled back"))
        #expect(reply.hasSuffix("*3\r\n:0\r\n:0\r\n:0\r\n"), "nothing acknowledged: \(reply)")
        let info = connection.service.info(sections: ["replication"], admin: true)
        #expect(
            info.contains("\r\nstore_reachable:0\r\n") && info.contains("last_error:the database cannot be reached"))
        // Anyone may ask INFO: the cause (the database's address, ids a failure names) is the admin's.
        let anyone = connection.service.info(sections: ["replication"])
        #expect(anyone.contains("\r\nlast_error:(shown to the admin token)\r\n"), "\(anyone)")
        #expect(!info.contains("store_unreachable_since:\r\n"))
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func theCommandsAreInTheCommandTable() throws {
        let position = try #require(CommandTable.entry("position"))
        #expect(position.arity == 1 && position.group == "connection")
        let waitpos = try #require(CommandTable.entry("WAITPOS"))
        #expect(waitpos.arity == 3 && waitpos.arguments.count == 2)
        #expect(LineService.runnable["POSITION"] != nil && LineService.runnable["WAITPOS"] != nil)
    }
}
