import NIOCore
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// ZRANGE and the other sorted-set reads over GEO keys, and GEORADIUS … STORE and GEOSEARCHSTORE.
/// Scores are the 52-bit geohashes Redis documents for Palermo and Catania (the GEOADD page).
@Suite(.timeLimit(.minutes(10))) struct SortedSetCommandTests {
    static let sicily = "GEOADD Sicily 13.361389 38.115556 Palermo 15.087269 37.502669 Catania"

    static func run(_ lines: [String]) async throws -> String {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        let all = ["AUTH \(connection.admin)", sicily] + lines
        let reply = try await TransactionTests.send(all, to: connection, replies: all.count)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
        let prefix = "+OK\r\n:2\r\n"
        #expect(reply.hasPrefix(prefix))
        return String(reply.dropFirst(prefix.count))
    }

    @Test func scoresRanksAndRanges() async throws {
        let reply = try await Self.run([
            "ZSCORE Sicily Palermo", "ZSCORE Sicily Rome", "ZRANK Sicily Catania", "ZREVRANK Sicily Catania",
            "ZRANGE Sicily 0 -1 WITHSCORES", "ZRANGE Sicily 0 0 REV", "ZCOUNT Sicily (3479099956230698 +inf",
            "ZRANGEBYSCORE Sicily -inf +inf LIMIT 1 1", "ZRANGE Sicily +inf -inf BYSCORE REV WITHSCORES LIMIT 0 1",
            "ZRANGE Sicily 0 1 LIMIT 0 1", "ZRANGEBYSCORE Sicily x 1", "ZRANGE nokey 0 -1",
        ])
        #expect(
            reply
                == "$16\r\n3479099956230698\r\n$-1\r\n:1\r\n:0\r\n"
                + "*4\r\n$7\r\nPalermo\r\n$16\r\n3479099956230698\r\n$7\r\nCatania\r\n$16\r\n3479447370796909\r\n"
                + "*1\r\n$7\r\nCatania\r\n:1\r\n*1\r\n$7\r\nCatania\r\n"
                + "*2\r\n$7\r\nCatania\r\n$16\r\n3479447370796909\r\n"
                + "-ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX\r\n"
                + "-ERR min or max is not a float\r\n*0\r\n")
    }

    @Test func storeWritesTheFoundPlacesIntoAnotherKind() async throws {
        let reply = try await Self.run([
            "GEORADIUS Sicily 15 37 200 km STORE near", "ZRANGE near 0 -1 WITHSCORES",
            "GEOSEARCHSTORE near Sicily FROMLONLAT 15 37 BYRADIUS 100 km", "ZRANGE near 0 -1",
            "GEOSEARCHSTORE near Sicily FROMLONLAT 0 0 BYRADIUS 1 km", "EXISTS near",
            "GEORADIUS Sicily 15 37 200 km STOREDIST far", "GEORADIUS Sicily 15 37 200 km STORE user",
            "GEORADIUS Sicily 15 37 200 km STORE x WITHDIST",
        ])
        #expect(
            reply
                == ":2\r\n*4\r\n$7\r\nPalermo\r\n$16\r\n3479099956230698\r\n$7\r\nCatania\r\n$16\r\n3479447370796909\r\n"
                + ":1\r\n*1\r\n$7\r\nCatania\r\n:0\r\n:0\r\n"
                + "-ERR STOREDIST is not supported by Vicinity: a key's scores are positions; use STORE\r\n"
                + "-ERR key 'user' is read-only: it holds Vicinity's users (use USER.MOVE and USER.DEL)\r\n"
                + "-ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options\r\n")
    }

    @Test func storeNeedsTheAdmin() async throws {
        let connection = try await TransactionTests.connect()
        defer { connection.directory.close() }
        let lines = ["GEOSEARCHSTORE near Sicily FROMLONLAT 15 37 BYRADIUS 1 km"]
        let reply = try await TransactionTests.send(lines, to: connection, replies: lines.count)
        #expect(reply.contains("-NOPERM"))
        #expect(TransactionTests.place(connection.directory, "near", "Palermo") == nil)
        _ = try await connection.channel.finish(acceptAlreadyClosed: true)
    }
}
