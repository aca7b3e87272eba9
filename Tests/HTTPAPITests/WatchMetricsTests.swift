import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import HTTPAPI

/// `/metrics` counts the watches when scraped: held, subscribers, events queued, subscribers
/// dropped for falling behind, and the CPU the evaluation took.
@Suite(.timeLimit(.minutes(10))) struct WatchMetricsTests {
    @Test func metricsCountTheWatches() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let directory = fixture.api.directory
        let transport = try RecordingTransport.serving(fixture)
        let here = try Coordinate(latitude: APIFixture.here.lat, longitude: APIFixture.here.lon)
        let reader = WatchSubscriber {}
        let slow = WatchSubscriber(capacity: 4) {}
        _ = try directory.watch(
            WatchSpec(kind: "pharmacy", center: .point(here), radiusMeters: 500), presenting: nil, for: reader)
        _ = try directory.watch(
            WatchSpec(kind: "pharmacy", center: .point(here), radiusMeters: 500), presenting: nil, for: slow)
        var lines = Set(try await transport.send(.get, "/metrics").body.split(separator: "\n").map(String.init))
        #expect(lines.contains("vicinity_watches_held 2.0"), "\(lines.sorted())")
        #expect(lines.contains("vicinity_watch_subscribers 2.0"))
        // The initial sets: one inside and ready for each.
        #expect(lines.contains("vicinity_watch_events_total 4"))
        for step in 1...3 {
            let place = Place(
                id: "new", kind: "pharmacy", name: "New",
                coordinate: try Coordinate(
                    latitude: APIFixture.here.lat + Double(step) / 1e5, longitude: APIFixture.here.lon))
            try await directory.perform(.setPlace(place), by: .admin)
        }
        lines = Set(try await transport.send(.get, "/metrics").body.split(separator: "\n").map(String.init))
        #expect(lines.contains("vicinity_watches_held 1.0"), "the slow subscriber was closed")
        #expect(lines.contains("vicinity_watch_subscribers_dropped_total 1"))
        #expect(reader.take().map(\.kind) == [.inside, .ready, .enter, .move, .move])
        #expect(lines.contains { $0.hasPrefix("vicinity_watch_evaluation_cpu_seconds ") })
    }
}
