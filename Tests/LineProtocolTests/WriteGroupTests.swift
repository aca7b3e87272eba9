import NIOCore
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// Pipelined writes already queued on one connection run together: they share commits, replies
/// stay in request order and go out once the writes are stored.
@Suite(.timeLimit(.minutes(10))) struct WriteGroupTests {
    /// The quick test on a name's bytes lets every groupable write through, in any case, and
    /// keeps the pipelined reads out.
    @Test func groupableNamesPassTheQuickTest() {
        for name in LineService.groupableWrites {
            for spelling in [name, name.lowercased()] {
                #expect(CommandHandler.mayBeGroupable(ByteBuffer(string: spelling)), "\(spelling)")
            }
        }
        for name in ["GEOSEARCH", "geosearch", "NEARBY", "PING", "GEORADIUS_RO", "GET", "", "ZCARD"] {
            #expect(!CommandHandler.mayBeGroupable(ByteBuffer(string: name)), "\(name)")
        }
    }

    @Test func queuedWritesShareOneCommitAndKeepTheirOrder() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        var lines = ["AUTH \(connection.admin)"]
        for index in 0..<20 { lines.append("GEOADD shop 13.\(index) 38 p\(index)") }
        lines += ["GEOADD shop 13.0 38 p0", "GEOADD shop 14 38 p0", "ZCARD shop", "PLACE.SET \"bad kind\" x 41 29"]
        lines += ["GEOADD shop 15 38 last"]
        let reply = try await TransactionTests.send(lines, to: connection, replies: lines.count)
        let expected =
            "+OK\r\n" + String(repeating: ":1\r\n", count: 20) + ":0\r\n:0\r\n:20\r\n"
        #expect(reply.hasPrefix(expected), "a later write sees the earlier ones of its group")
        #expect(reply.hasSuffix(":1\r\n"))
        #expect(reply.contains("-ERR invalid kind"))
        let transactions = connection.store.transactions
        #expect(transactions.reduce(0) { $0 + $1.count } == 22)
        #expect(transactions.count <= 4, "20 pipelined writes in few commits, not 20: \(transactions.map(\.count))")
        let moved = TransactionTests.place(connection.directory, "shop", "p0")
        #expect(moved?.coordinate.longitude == 14)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }

    /// When the store refuses a shared commit, the directory retries its writes one by one: only
    /// the bad one fails, as without grouping.
    @Test func aGroupTheStoreRefusesIsRetriedOneByOne() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        connection.store.fail { change in
            if case .putPlace(let place) = change { return place.id == "broken" }
            return false
        }
        let lines = [
            "AUTH \(connection.admin)", "GEOADD shop 13 38 first", "GEOADD shop 13 38 a", "GEOADD shop 13 38 broken",
            "GEOADD shop 13 38 b",
        ]
        let reply = try await TransactionTests.send(lines, to: connection, replies: lines.count)
        #expect(reply.hasPrefix("+OK\r\n:1\r\n:1\r\n-ERR "))
        #expect(reply.hasSuffix(":1\r\n"))
        #expect(TransactionTests.place(connection.directory, "shop", "a") != nil)
        #expect(TransactionTests.place(connection.directory, "shop", "b") != nil)
        #expect(TransactionTests.place(connection.directory, "shop", "broken") == nil)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }
}
