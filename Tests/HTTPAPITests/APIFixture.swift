import Geo
import Places
import TestSupport

@testable import HTTPAPI

/// The handler over the original app's three Istanbul example pharmacies and three users:
/// `ayse` (public, 41 m from the query point), `mehmet` (private, 40 m from it) and `zeynep`
/// (public, no location). Call `close()` at the end.
struct APIFixture {
    /// The original app's "your location" in Levent, Istanbul.
    static let here = (lat: 41.088154, lon: 29.015615)

    let api: VicinityAPI
    let admin: String
    let ayse: String
    let mehmet: String
    let zeynep: String

    /// - Parameters:
    ///   - openRegistration: whether anyone may register a user (`serve --open-registration`).
    ///   - store: where the directory stores (a test may make it fail, or write to it as another
    ///     server would).
    init(openRegistration: Bool = false, store: MemoryStore = MemoryStore()) async throws {
        var catalog = try PlaceCatalog()
        for (id, name, lat, lon) in [
            ("omur", "Omur", 41.087853, 29.014096), ("emre", "Emre", 41.086059, 29.008232),
            ("arzu", "Arzu", 41.086854, 29.007683),
        ] {
            try catalog.upsert(
                Place(
                    id: id, kind: "pharmacy", name: name, coordinate: try Coordinate(latitude: lat, longitude: lon),
                    attributes: ["note": "illustrative"]))
        }
        var directory = PlaceDirectory(places: catalog)
        directory.openRegistration = openRegistration
        admin = directory.rotateAdminToken()
        let durable = DurableDirectory(directory, store: store)
        api = VicinityAPI(directory: durable)
        func add(_ user: User) async throws -> String {
            try await durable.perform(.addUser(user), by: .admin) ?? ""
        }
        ayse = try await add(
            User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41.0885, longitude: 29.0158)))
        mehmet = try await add(
            User(
                id: "mehmet", name: "Mehmet", location: try Coordinate(latitude: 41.0884, longitude: 29.0159),
                visibility: .private))
        zeynep = try await add(User(id: "zeynep", name: "Zeynep"))
    }

    /// Runs `body` as a request presenting `token` (nil: none).
    func callAs<T>(_ token: String?, _ body: () async throws -> T) async throws -> T {
        try await RequestToken.$current.withValue(token) { try await body() }
    }

    func close() { api.directory.close() }

    /// 43 base64url characters that are nobody's token.
    static let strangerToken = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
}
