import Dispatch
import NIOCore
import NIOEmbedded
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// MULTI, EXEC, DISCARD, WATCH and UNWATCH on a testing channel, with Redis 7.0's replies
/// (`src/multi.c`), and the all-or-none rule for a transaction's writes.
@Suite(.timeLimit(.minutes(10))) struct TransactionTests {
    struct Connection {
        let channel: NIOAsyncTestingChannel
        let admin: String
        let store: MemoryStore
        let directory: DurableDirectory
        let service: LineService
    }

    static func connect(directory shared: DurableDirectory? = nil, admin given: String? = nil) async throws
        -> Connection
    {
        var places = PlaceDirectory(places: try PlaceCatalog())
        let admin = given ?? places.rotateAdminToken()
        let store = MemoryStore()
        let directory = shared ?? DurableDirectory(places, store: store)
        let service = LineService(directory: directory)
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(RESPRequestDecoder()))
            try channel.pipeline.syncOperations.addHandler(
                CommandHandler(service: service, configuration: ServerConfiguration()))
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878))
        return Connection(channel: channel, admin: admin, store: store, directory: directory, service: service)
    }

    /// Sends `lines` and collects what is flushed until `replies` complete replies came.
    static func send(_ lines: [String], to connection: Connection, replies: Int) async throws -> String {
        try await connection.channel.writeInbound(ByteBuffer(string: lines.map { $0 + "\r\n" }.joined()))
        var bytes: [UInt8] = []
        for _ in 0..<500 {
            await connection.channel.testingEventLoop.run()
            while let buffer = try await connection.channel.readOutbound(as: ByteBuffer.self) {
                bytes += Array(buffer.readableBytesView)
            }
            if RawClient.completeReplies(in: bytes) >= replies { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func place(_ directory: DurableDirectory, _ kind: String, _ id: String) -> Place? {
        directory.read { $0.places.place(kind: kind, id: id) }
    }

    @Test func execRunsTheQueuedCommandsAndAnswersTheirRepliesInOneArray() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let reply = try await Self.send(
            [
                "AUTH \(connection.admin)", "MULTI", "GEOADD shop 13.361389 38.115556 palermo",
                "GEOADD shop 13.361389 38.115556 palermo", "ZCARD shop", "GEOADD shop 15.087269 37.502669 catania",
                "EXEC",
            ], to: connection, replies: 7)
        #expect(
            reply
                == "+OK\r\n+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n*4\r\n:1\r\n:0\r\n:1\r\n:1\r\n",
            "later commands see earlier writes of the same transaction")
        #expect(connection.store.transactions.count == 1, "one store transaction for the whole EXEC")
        #expect(connection.store.transactions.first?.count == 2)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aRefusedWriteRollsTheWholeTransactionBack() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        // The second write breaks PlaceDirectory.checked's rule for kinds (no spaces).
        let reply = try await Self.send(
            [
                "AUTH \(connection.admin)", "MULTI", "PLACE.SET shop first 41 29",
                "PLACE.SET \"bad kind\" second 41 29",
                "PING", "EXEC",
            ], to: connection, replies: 6)
        #expect(reply.hasPrefix("+OK\r\n+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n"))
        #expect(
            reply.contains("-EXECABORT Transaction rolled back, nothing stored: command 2 (PLACE.SET) failed: ERR "))
        #expect(Self.place(connection.directory, "shop", "first") == nil, "the first write is not stored either")
        #expect(connection.store.transactions.isEmpty)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aWriteWithoutPermissionRollsBackAndAReadErrorDoesNot() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let refused = try await Self.send(
            ["MULTI", "GEODIST shop a b furlongs", "GEOADD shop 13 38 palermo", "EXEC"], to: connection, replies: 4)
        #expect(
            refused.contains("-EXECABORT Transaction rolled back, nothing stored: command 2 (GEOADD) failed: NOPERM"))
        let kept = try await Self.send(
            ["AUTH \(connection.admin)", "MULTI", "GEODIST shop a b furlongs", "GEOADD shop 13 38 palermo", "EXEC"],
            to: connection, replies: 5)
        #expect(
            kept.hasSuffix(
                "*2\r\n-ERR unsupported unit provided. please use M, KM, FT, MI\r\n:1\r\n"),
            "a read's error is an element of the array, as in Redis")
        #expect(Self.place(connection.directory, "shop", "palermo") != nil)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aStoreFailureStoresNothingOfTheTransaction() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        connection.store.fail { change in
            if case .putPlace(let place) = change { return place.id == "broken" }
            return false
        }
        let reply = try await Self.send(
            ["AUTH \(connection.admin)", "MULTI", "GEOADD shop 13 38 fine", "GEOADD shop 14 38 broken", "EXEC"],
            to: connection, replies: 5)
        #expect(reply.contains("-EXECABORT Transaction rolled back, nothing stored: ERR "))
        #expect(Self.place(connection.directory, "shop", "fine") == nil)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func queueingErrorsAbortExecAsRedisDoes() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let reply = try await Self.send(
            ["MULTI", "NOSUCH 1", "ZCARD", "MULTI", "WATCH shop", "PING", "EXEC", "EXEC", "DISCARD"],
            to: connection, replies: 9)
        #expect(
            reply
                == "+OK\r\n-ERR unknown command 'NOSUCH', with args beginning with: '1' \r\n"
                + "-ERR wrong number of arguments for 'zcard' command\r\n-ERR MULTI calls can not be nested\r\n"
                + "-ERR WATCH inside MULTI is not allowed\r\n+QUEUED\r\n"
                + "-EXECABORT Transaction discarded because of previous errors.\r\n"
                + "-ERR EXEC without MULTI\r\n-ERR DISCARD without MULTI\r\n")
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func discardDropsTheQueuedCommands() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let reply = try await Self.send(
            [
                "AUTH \(connection.admin)", "MULTI", "GEOADD shop 13 38 palermo", "DISCARD", "ZCARD shop", "MULTI",
                "UNWATCH", "EXEC",
            ],
            to: connection, replies: 8)
        #expect(reply == "+OK\r\n+OK\r\n+QUEUED\r\n+OK\r\n:0\r\n+OK\r\n+QUEUED\r\n*1\r\n+OK\r\n")
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    /// redis-py's `transaction()` helper: WATCH, read, MULTI, write, EXEC; a null array when
    /// another client changed a watched key in between, and nothing of the transaction stored.
    @Test func execAnswersANullArrayWhenAWatchedKeyChanged() async throws {
        let first = try await Self.connect()
        defer { first.directory.close() }
        let second = try await Self.connect(directory: first.directory, admin: first.admin)
        let unchanged = try await Self.send(
            [
                "AUTH \(first.admin)", "WATCH shop other", "GEOADD other 1 1 x", "UNWATCH", "WATCH shop", "MULTI",
                "GEOADD shop 13 38 a", "EXEC",
            ], to: first, replies: 8)
        #expect(unchanged.hasSuffix("+QUEUED\r\n*1\r\n:1\r\n"))
        _ = try await Self.send(
            ["AUTH \(first.admin)", "WATCH shop", "MULTI", "GEOADD shop 13 39 b"], to: first,
            replies: 4)
        _ = try await Self.send(["AUTH \(first.admin)", "GEOADD shop 1 2 c"], to: second, replies: 2)
        let aborted = try await Self.send(["EXEC"], to: first, replies: 1)
        #expect(aborted == "*-1\r\n")
        #expect(Self.place(first.directory, "shop", "b") == nil)
        let afterwards = try await Self.send(["MULTI", "GEOADD shop 13 39 b", "EXEC"], to: first, replies: 3)
        #expect(afterwards == "+OK\r\n+QUEUED\r\n*1\r\n:1\r\n", "EXEC forgets the watched keys")
        _ = try await first.channel.finish(acceptAlreadyClosed: true)
        _ = try await second.channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aWriteThatChangesNothingDoesNotTouchAWatchedKey() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let reply = try await Self.send(
            [
                "AUTH \(connection.admin)", "GEOADD shop 13 38 a", "WATCH shop", "GEOADD shop 13 38 a", "MULTI",
                "ZCARD shop", "EXEC",
            ], to: connection, replies: 7)
        #expect(reply.hasSuffix("+QUEUED\r\n*1\r\n:1\r\n"))
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }
}
