import Geo
import Logging
import NIOCore
import Places
import PostgresNIO

extension PostgresPlaceStore {
    /// Every stored place, in (kind, id) order, bytewise (as `vicinity export` lists them).
    public func places() throws -> [Place] {
        let logger = self.logger
        return try read { connection in try await Self.fetchPlaces(on: connection, logger: logger) }
    }

    /// Every stored user with their token digest, by id.
    public func users() throws -> [(user: User, tokenDigest: TokenDigest)] {
        let logger = self.logger
        return try read { connection in try await Self.fetchUsers(on: connection, logger: logger) }.map {
            (user: $0.0, tokenDigest: $0.1)
        }
    }

    /// The admin token's digest, if one was set.
    public func adminTokenDigest() throws -> TokenDigest? {
        let logger = self.logger
        return try read { connection in try await Self.fetchAdminTokenDigest(on: connection, logger: logger) }
    }

    /// Everything stored and the log position it reflects, read in one `REPEATABLE READ`
    /// transaction: places, users, the admin digest and the head from one snapshot of the data.
    ///
    /// - Parameter cellSizeMeters: the grid cell side of every index, or nil for the default.
    public func snapshot(cellSizeMeters: Double?) throws -> DirectorySnapshot {
        let logger = self.logger
        let (places, users, admin, head) = try read(timeout: Self.snapshotTimeout) { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let head = try await Self.fetchHead(on: connection, logger: logger)
                let places = try await Self.fetchPlaces(on: connection, logger: logger)
                let users = try await Self.fetchUsers(on: connection, logger: logger)
                let admin = try await Self.fetchAdminTokenDigest(on: connection, logger: logger)
                try await connection.query("COMMIT", logger: logger)
                return (places, users, admin, head)
            } catch {
                if !PostgresFailure.isConnectionLoss(error) {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                }
                throw error
            }
        }
        do {
            var catalog = try PlaceCatalog(cellSizeMeters: cellSizeMeters)
            try catalog.add(contentsOf: places)
            let directory = try PlaceDirectory(
                places: catalog, users: users.map { (user: $0.0, tokenDigest: $0.1) }, adminTokenDigest: admin)
            return DirectorySnapshot(directory: directory, position: head.position, committedAt: head.committedAt)
        } catch {
            throw PostgresStoreError.readFailed("\(error)")
        }
    }

    static func fetchPlaces(on connection: PostgresConnection, logger: Logger) async throws -> [Place] {
        var places: [Place] = []
        var names = AttributeCoding.NameCache()
        var kind = ""
        let rows = try await connection.query(
            "SELECT kind, id, name, lat, lon, attributes FROM vicinity_place ORDER BY kind, id", logger: logger)
        for try await row in rows {
            let (rowKind, id, name, latitude, longitude, attributes) = try row.decode(
                (String, String, String, Double, Double, String).self)
            // Rows come in kind order: one String per kind, shared by its places.
            if rowKind != kind { kind = rowKind }
            let (attributeNames, values) = AttributeCoding.decode(attributes, names: &names)
            places.append(
                Place(
                    id: id, kind: kind, name: name,
                    coordinate: try Coordinate(latitude: latitude, longitude: longitude),
                    attributeNames: attributeNames, attributeValues: values))
        }
        return places
    }

    static func fetchUsers(on connection: PostgresConnection, logger: Logger) async throws -> [(User, TokenDigest)] {
        var users: [(User, TokenDigest)] = []
        let rows = try await connection.query(
            "SELECT \(unescaped: userColumns) FROM vicinity_user ORDER BY id", logger: logger)
        for try await row in rows { users.append(try user(from: row)) }
        return users
    }

    static func fetchAdminTokenDigest(on connection: PostgresConnection, logger: Logger) async throws -> TokenDigest? {
        guard
            let row = try await connection.query(
                "SELECT value FROM vicinity_setting WHERE key = \(adminTokenKey)", logger: logger
            ).collect().first
        else { return nil }
        return TokenDigest(bytes: Array(try row.decode(ByteBuffer.self).readableBytesView))
    }
}
