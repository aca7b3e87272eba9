import Foundation
import Geo
import Places
import Testing

@testable import HTTPAPI

/// Issue 18 on the watch streams (Server-Sent Events, on a real socket): everyone else watches a
/// street user at their published cell, with distances rounded, and a move inside the cell is no
/// event for them; the user's own watch follows them exactly.
@Suite(.timeLimit(.minutes(10))) struct UserWatchPrivacyTests {
    static let target = "/v1/users/nearby/watch?\(UserPrivacyTests.here)&radius=3000"

    @Test func aMoveInsideTheCellIsNoEventForOthers() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        let server = HTTPServer(directory: fixture.api.directory, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let anyone = try EventStreamClient(port: port, target: Self.target)
        let herself = try EventStreamClient(
            port: port, target: Self.target, headers: ["Authorization": "Bearer \(fixture.kerem)"])
        let snapshot = await anyone.receive("ready").events
        _ = await herself.receive("ready")
        let inside = try #require(snapshot.first { $0.name == "inside" && $0.object == "kerem" })
        #expect(inside.json["lat"] as? Double == PrivacyFixture.cellCentre.latitude)
        #expect(inside.json["lon"] as? Double == PrivacyFixture.cellCentre.longitude)
        let distance = try #require(inside.json["distance_m"] as? Double)
        #expect(distance > 0 && distance.truncatingRemainder(dividingBy: 100) == 0, "\(distance)")

        // Inside the cell, then into the next cell north (about 110 m on): only that one is a
        // move for anyone else, while kerem's own watch sees both.
        try await fixture.moveKerem(to: PrivacyFixture.insideCell[1])
        let nextCell = try Coordinate(
            latitude: PrivacyFixture.cellCentre.latitude + 0.001, longitude: PrivacyFixture.cellCentre.longitude)
        try await fixture.moveKerem(to: nextCell)
        let others = await anyone.receive { received in received.events.contains { $0.name == "move" } }
        let moves = others.events.dropFirst(snapshot.count).filter { $0.object == "kerem" }
        #expect(moves.map(\.name) == ["move"], "\(moves)")
        let published = LocationPrecision.street.published(nextCell)
        #expect(moves.first?.json["lat"] as? Double == published.latitude)
        let own = await herself.receive { received in received.events.filter { $0.name == "move" }.count >= 2 }
        let ownMoves = own.events.filter { $0.name == "move" }
        #expect(
            ownMoves.map { $0.json["lat"] as? Double } == [PrivacyFixture.insideCell[1].latitude, nextCell.latitude])
        anyone.close()
        herself.close()
        await server.shutdown()
    }
}
