import Foundation
import Geo
import HTTPAPI
import LineProtocol
import Places
import PlacesSQLite
import TestSupport
import VicinityCLI

/// The world of the published-cell tests: three neighbourhoods (Levent in Istanbul, beside the
/// antimeridian, Tromsø at 69.6° N), each with a user `target-N` whose exact position the tests
/// vary inside one cell, a `sentinel-N` who later walks into every watch's circle, and a few
/// others (every precision, one private); an `observer` user asks as "another user". One SQLite
/// file is built once (`Blueprint`); every world is a copy of it served by the command line
/// (in-process), the line protocol (`LineServer` on a real socket) and the HTTP API, so that the
/// log positions, tokens and watch ids of every world are equal.
final class PrivacyWorld: Sendable {
    /// One neighbourhood: the cell the target stays in and where the questions are asked.
    struct Cell: Sendable {
        var index: Int
        /// The cell's published centre (its targets' positions all map to it at `street`).
        var centre: Coordinate
        /// Where the questions are asked: about 300 m from the centre (across the antimeridian
        /// for the cell beside it).
        var query: Coordinate
        /// Where the sentinel walks to: inside every watch's circle.
        var sentinelStop: Coordinate
        var target: String { "target-\(index)" }
        var sentinel: String { "sentinel-\(index)" }
        var neighbour: String { "other-\(index)-1" }
    }

    /// The prepared database: its file, its cells and the tokens in it.
    struct Blueprint: Sendable {
        let folder: TemporaryDirectory
        let path: String
        let cells: [Cell]
        let adminToken: String
        let tokens: [String: String]
    }

    /// The points the cells are picked near.
    static let seeds: [(latitude: Double, longitude: Double)] = [
        (41.0815, 29.0115), (-16.5, 179.9996), (69.6492, 18.9553),
    ]

    /// Builds the database: targets at `precision` (the others at fixed precisions), every
    /// target at `start[i]` to begin with.
    static func blueprint(targetPrecision precision: LocationPrecision, random: inout SplitMix64) async throws
        -> Blueprint
    {
        let folder = try TemporaryDirectory(prefix: "vicinity-cells")
        let path = folder.file("base.sqlite")
        let store = try SQLitePlaceStore(path: path)
        var cells: [Cell] = []
        var batch = PlaceImport()
        for (index, seed) in seeds.enumerated() {
            let centre = LocationPrecision.street.published(
                try Coordinate(latitude: seed.latitude, longitude: seed.longitude))
            let query = try offset(centre, north: 210, east: 230)
            cells.append(
                Cell(
                    index: index, centre: centre, query: query, sentinelStop: try offset(centre, north: -150, east: 120)
                ))
            for number in 0..<6 {
                let place = try Surfaces.near((centre.latitude, centre.longitude), within: 800, &random)
                try batch.add(
                    Place(
                        id: "pharmacy-\(index)-\(number)", kind: "pharmacy", name: "Pharmacy \(number)",
                        coordinate: place))
            }
        }
        try batch.store(into: store)
        let durable = DurableDirectory(try store.loadDirectory(), store: store)
        let adminToken = try await durable.perform(.rotateAdminToken, by: .admin) ?? ""
        var users: [User] = [
            User(
                id: "observer", name: "Observer", location: try offset(cells[0].centre, north: 900, east: -700),
                precision: .street)
        ]
        for cell in cells {
            users.append(
                User(id: cell.target, name: "Target \(cell.index)", location: cell.centre, precision: precision))
            users.append(
                User(
                    id: cell.sentinel, name: "Sentinel \(cell.index)",
                    location: try offset(cell.centre, north: 6000, east: 0),
                    precision: .street))
            let precisions: [LocationPrecision] = [.exact, .street, .district, .street, .city]
            for (number, other) in precisions.enumerated() {
                users.append(
                    User(
                        id: "other-\(cell.index)-\(number)", name: "Other \(cell.index).\(number)",
                        location: try Surfaces.near(
                            (cell.centre.latitude, cell.centre.longitude), within: 700, &random),
                        visibility: number == 3 ? .private : .public, precision: other))
            }
        }
        var tokens: [String: String] = [:]
        for user in users { tokens[user.id] = try await durable.perform(.addUser(user), by: .admin) ?? "" }
        durable.close()
        return Blueprint(folder: folder, path: path, cells: cells, adminToken: adminToken, tokens: tokens)
    }

    let path: String
    let home: String
    let durable: DurableDirectory
    let lineServer: LineServer
    let linePort: Int
    let http: HTTPServer
    let httpPort: Int

    /// A copy of the blueprint's database, served.
    init(copying blueprint: Blueprint, number: Int) async throws {
        path = blueprint.folder.file("world-\(number).sqlite")
        home = blueprint.folder.path
        let files = FileManager.default
        for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: blueprint.path + suffix) {
            try? files.removeItem(atPath: path + suffix)
            try files.copyItem(atPath: blueprint.path + suffix, toPath: path + suffix)
        }
        let store = try SQLitePlaceStore(path: path)
        durable = DurableDirectory(try store.loadDirectory(), store: store)
        var configuration = ServerConfiguration()
        configuration.port = 0
        lineServer = LineServer(service: LineService(directory: durable), configuration: configuration)
        linePort = try await lineServer.start().port ?? 0
        http = HTTPServer(directory: durable, host: "127.0.0.1", port: 0)
        httpPort = try await http.start()
    }

    func close() async {
        await lineServer.shutdown()
        await http.shutdown()
        durable.close()
    }

    func move(_ id: String, to location: Coordinate) async throws {
        _ = try await durable.perform(.moveUser(id, to: location), by: .admin)
    }

    /// The command line, in-process, on this world's file (no token unless the arguments hold one).
    func cli(_ arguments: [String]) -> String {
        let outcome = CLI.run(arguments + ["--db", path], environment: ["HOME": home])
        return "status \(outcome.status)\n\(outcome.standardOutput)\n--- stderr\n\(outcome.standardError)"
    }

    /// `meters` north and east of `point` (small distances, degrees of a sphere: fine for
    /// picking test points).
    static func offset(_ point: Coordinate, north: Double, east: Double) throws -> Coordinate {
        let latitude = point.latitude + north / 111_195
        var longitude = point.longitude + east / (111_195 * cos(point.latitude * .pi / 180))
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return try Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A random position strictly inside `cell`'s street cell: one that publishes as its centre.
    static func randomPosition(in cell: Cell, _ random: inout SplitMix64) throws -> Coordinate {
        while true {
            let candidate = try offset(
                cell.centre, north: Double.random(in: -60...60, using: &random),
                east: Double.random(in: -60...60, using: &random))
            if LocationPrecision.street.published(candidate) == cell.centre, candidate != cell.centre {
                return candidate
            }
        }
    }
}
