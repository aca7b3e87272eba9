import Foundation
import Geo
import HTTPAPI
import LineProtocol
import NIOCore
import Places
import PlacesSQLite
import TestSupport
import VicinityCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One database served three ways at once: the command line reading the file, the line protocol's
/// own commands (`LineService`, in-process) and the HTTP API on a real socket, all over the same
/// places and users, so that a question can be asked of each and the answers compared.
final class Surfaces: Sendable {
    let databasePath: String
    let home: String
    let durable: DurableDirectory
    let line: LineService
    let http: HTTPServer
    let httpPort: Int
    let adminToken: String
    /// Users by id: their tokens.
    let tokens: [String: String]

    /// Where the places are gathered: London, Levent (Istanbul), beside the antimeridian, near
    /// the north pole, on the equator, near the south pole.
    static let centres: [(latitude: Double, longitude: Double)] = [
        (51.5074, -0.1278), (41.088154, 29.015615), (-16.5, 179.995), (89.97, 10), (0.0, 0.0001), (-89.9, -120),
    ]

    init(seed: UInt64 = 14) async throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-surfaces")
        databasePath = folder.file("surfaces.sqlite")
        home = folder.path
        var random = SplitMix64(seed: seed)
        let store = try SQLitePlaceStore(path: databasePath)
        var batch = PlaceImport()
        for (index, centre) in Surfaces.centres.enumerated() {
            for number in 0..<70 {
                let kind = number % 4 == 3 ? "atm" : "pharmacy"
                try batch.add(
                    Place(
                        id: "\(kind)-\(index)-\(number)", kind: kind, name: "Place \(index).\(number)",
                        coordinate: try Surfaces.near(centre, within: 3000, &random)))
            }
            // Two at one point: ties are ordered by id on every surface.
            let twin = try Surfaces.near(centre, within: 200, &random)
            for id in ["twin-\(index)-b", "twin-\(index)-a"] {
                try batch.add(Place(id: id, kind: "pharmacy", name: "Twin", coordinate: twin))
            }
        }
        try batch.store(into: store)
        durable = DurableDirectory(try store.loadDirectory(), store: store)
        adminToken = try await durable.perform(.rotateAdminToken, by: .admin) ?? ""
        var tokens: [String: String] = [:]
        for number in 0..<36 {
            let centre = Surfaces.centres[number % Surfaces.centres.count]
            let location = number % 9 == 8 ? nil : try Surfaces.near(centre, within: 2500, &random)
            let user = User(
                id: "user-\(number)", name: "User \(number)", location: location,
                visibility: number % 3 == 2 ? .private : .public)
            tokens[user.id] = try await durable.perform(.addUser(user), by: .admin) ?? ""
        }
        self.tokens = tokens
        line = LineService(directory: durable)
        http = HTTPServer(directory: durable, host: "127.0.0.1", port: 0)
        httpPort = try await http.start()
    }

    func close() async {
        await http.shutdown()
        durable.close()
    }

    /// A random point within `meters` of `centre` (a small offset in degrees, kept on the globe).
    static func near(
        _ centre: (latitude: Double, longitude: Double), within meters: Double, _ random: inout SplitMix64
    ) throws -> Coordinate {
        let degrees = meters / 111_320
        let latitude = max(-90, min(90, centre.latitude + Double.random(in: -degrees...degrees, using: &random)))
        var longitude = centre.longitude + Double.random(in: -degrees...degrees, using: &random) * 3
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return try Coordinate(latitude: latitude, longitude: longitude)
    }

    // MARK: - Asking

    /// A command line run in-process against the database (`--db` added).
    func cli(_ arguments: [String]) -> CLI.Outcome {
        CLI.run(arguments + ["--db", databasePath], environment: ["HOME": home])
    }

    /// A line-protocol command, after `AUTH token` when a token is given.
    func lineCommand(_ arguments: [String], token: String? = nil) async -> RESPReply {
        var session = Session(id: 1)
        if let token {
            session = await run(["AUTH", token], session).session
        }
        return await run(arguments, session).reply
    }

    private func run(_ arguments: [String], _ session: Session) async -> (reply: RESPReply, session: Session) {
        await withCheckedContinuation { continuation in
            line.execute(arguments, session: session) { reply, session in
                continuation.resume(returning: (reply, session))
            }
        }
    }

    /// An HTTP request on the real socket: status and body.
    func httpRequest(_ method: String, _ target: String, token: String? = nil, json: Data? = nil) async throws -> (
        status: Int, body: Data
    ) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(httpPort)\(target)")!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

extension RESPReply {
    /// The reply's text: a bulk or simple string, or an error's line.
    var text: String? {
        switch self {
        case .bulkString(let buffer): return String(buffer: buffer)
        case .bulkText(let text), .simpleString(let text), .error(let text), .doubleText(let text): return text
        default: return nil
        }
    }

    /// The elements of an array reply.
    var elements: [RESPReply]? {
        if case .array(let elements) = self.expanded { return elements }
        return nil
    }

    var isError: Bool {
        if case .error = self { return true }
        return false
    }
}
