import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// Privacy through the wire: users go private and public and move, each through their own
/// connection, and after every step two observers (an anonymous client and another user) ask every
/// command that can show a user: GEOSEARCH, GEORADIUS, GEORADIUSBYMEMBER, GEOPOS, GEODIST, GEOHASH,
/// ZCARD, EXISTS, NEARBY, NEAREST, MAP, USER.GET and INFO. No reply may name a private user, place
/// one, count one or give its position, and each user must still see themselves.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WirePrivacyTests {
    struct Walker {
        let id: String
        let name: String
        let token: String
        var isPublic: Bool
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func privateUsersAreInNoReplyToAnyoneElse(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        var directory = PlaceDirectory(places: try PlaceCatalog())
        let admin = directory.rotateAdminToken()
        var configuration = ServerConfiguration()
        configuration.port = 0
        let service = LineService(directory: DurableDirectory(directory, store: MemoryStore()))
        let server = LineServer(service: service, configuration: configuration)
        let port = try await server.start().port ?? 0
        defer { Task { await server.shutdown() } }

        // Twelve users near Istanbul, added over the wire by the admin; about a third private.
        let operatorClient = try RawClient(port: port)
        operatorClient.send(LineServerTests.resp(["AUTH", admin]))
        #expect(operatorClient.receive(replies: 1) == "+OK\r\n")
        var walkers: [Walker] = []
        for index in 0..<12 {
            let id = "walker\(index)zq"
            let name = "Strider\(index)Xy"
            let isPublic = random.nextUnit() > 0.35
            var command = ["USER.ADD", id, "NAME", name, "AT", latitude(&random), longitude(&random)]
            if !isPublic { command.append("PRIVATE") }
            operatorClient.send(LineServerTests.resp(command))
            let reply = operatorClient.receive(replies: 1)
            let token = try #require(reply.split(separator: "\r\n").last.map(String.init), "\(reply)")
            walkers.append(Walker(id: id, name: name, token: token, isPublic: isPublic))
        }
        var connections: [RawClient] = []
        for walker in walkers {
            let connection = try RawClient(port: port)
            connection.send(LineServerTests.resp(["AUTH", walker.token]))
            #expect(connection.receive(replies: 1) == "+OK\r\n")
            connections.append(connection)
        }
        let anonymous = try RawClient(port: port)

        for step in 0..<30 {
            // One user changes: visibility or place, through their own connection.
            let mover = Int(random.next() % UInt64(walkers.count))
            if random.nextUnit() < 0.6 {
                walkers[mover].isPublic.toggle()
                connections[mover].send(
                    LineServerTests.resp([
                        "USER.VISIBILITY", walkers[mover].id, walkers[mover].isPublic ? "PUBLIC" : "PRIVATE",
                    ]))
            } else {
                connections[mover].send(
                    LineServerTests.resp(["USER.MOVE", walkers[mover].id, latitude(&random), longitude(&random)]))
            }
            #expect(connections[mover].receive(replies: 1) == "+OK\r\n", "step \(step)")

            let observer = Int(random.next() % UInt64(walkers.count))
            for (client, own) in [(anonymous, nil), (connections[observer], observer)] as [(RawClient, Int?)] {
                let hidden = walkers.indices.filter { !walkers[$0].isPublic && $0 != own }
                let visible = walkers.indices.filter { walkers[$0].isPublic || $0 == own }
                for command in battery(walkers) {
                    client.send(LineServerTests.resp(command))
                    let reply = client.receive(replies: 1)
                    if let asked = hidden.first(where: { command.contains(walkers[$0].id) }) {
                        // Asked by id: the reply must be the one for an id nobody has.
                        let id = walkers[asked].id
                        client.send(LineServerTests.resp(command.map { $0 == id ? "ghost000zq" : $0 }))
                        let unknown = client.receive(replies: 1)
                        #expect(reply == unknown.replacingOccurrences(of: "ghost000zq", with: id), "\(command)")
                        continue
                    }
                    for index in hidden {
                        #expect(!reply.contains(walkers[index].id), "\(command[0]) showed \(walkers[index].id)")
                        #expect(!reply.contains(walkers[index].name), "\(command[0]) showed \(walkers[index].name)")
                    }
                }
                for index in hidden {
                    for command in [
                        ["GEOPOS", "user", walkers[index].id], ["GEOHASH", "user", walkers[index].id],
                        ["GEODIST", "user", walkers[index].id, walkers[visible.first ?? 0].id],
                    ] {
                        client.send(LineServerTests.resp(command))
                        let reply = client.receive(replies: 1)
                        #expect(
                            reply == "*1\r\n*-1\r\n" || reply == "*1\r\n$-1\r\n" || reply == "$-1\r\n",
                            "\(command) answered \(reply.debugDescription) (seed \(seed), step \(step))")
                    }
                }
                client.send(LineServerTests.resp(["ZCARD", "user"]))
                #expect(client.receive(replies: 1) == ":\(visible.count)\r\n", "ZCARD counts what the asker may see")
                client.send(LineServerTests.resp(["INFO", "keyspace"]))
                let publicCount = walkers.filter(\.isPublic).count
                #expect(client.receive(replies: 1).contains("public_users:\(publicCount)\r\n"))
                if let own {
                    client.send(LineServerTests.resp(["GEOPOS", "user", walkers[own].id]))
                    #expect(client.receive(replies: 1).hasPrefix("*1\r\n*2\r\n"), "a user always sees themselves")
                }
            }
        }
    }

    /// Every command that lists or finds users, over the whole area.
    private func battery(_ walkers: [Walker]) -> [[String]] {
        [
            ["GEOSEARCH", "user", "FROMLONLAT", "29.0", "41.0", "BYRADIUS", "200", "km", "WITHCOORD", "WITHDIST"],
            ["GEOSEARCH", "user", "FROMLONLAT", "29.0", "41.0", "BYBOX", "400", "400", "km", "ASC", "COUNT", "50"],
            ["GEORADIUS", "user", "29.0", "41.0", "200", "km", "WITHDIST", "WITHHASH"],
            ["GEORADIUS_RO", "user", "29.0", "41.0", "200", "km", "DESC"],
            ["GEORADIUSBYMEMBER", "user", walkers[0].id, "200", "km"],
            ["GEOSEARCH", "user", "FROMMEMBER", walkers[1].id, "BYRADIUS", "200", "km"],
            ["NEARBY", "user", "41.0", "29.0", "200000", "WITHCOORD"],
            ["NEAREST", "user", "41.0", "29.0", "50"],
            ["MAP", "41.0", "29.0", "RADIUS", "60000", "KIND", "user", "WIDTH", "120", "HEIGHT", "60"],
            ["USER.GET", walkers[2].id],
            ["EXISTS", "user"],
        ]
    }

    private func latitude(_ random: inout SplitMix64) -> String { String(40.9 + 0.2 * random.nextUnit()) }
    private func longitude(_ random: inout SplitMix64) -> String { String(28.9 + 0.2 * random.nextUnit()) }
}
