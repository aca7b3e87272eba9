import Foundation
import Geo
import TestSupport
import Testing

@testable import Places

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}

/// Watches beyond the differential test: who may watch what, limits, slow subscribers, tokens
/// that stop working, resumes that cannot be replayed, memory replaced by a snapshot.
@Suite(.timeLimit(.minutes(10))) struct WatchEngineTests {
    let durable: DurableDirectory
    let store = MemoryStore()
    var tokens: [String: String] = [:]

    init() async throws {
        durable = DurableDirectory(PlaceDirectory(places: try PlaceCatalog()), store: store)
        for (id, visibility) in [("ada", Visibility.public), ("bob", .public), ("cem", .private)] {
            tokens[id] = try await durable.perform(
                .addUser(User(id: id, name: id.capitalized, location: at(41, 29), visibility: visibility)), by: .admin)
        }
        try await durable.perform(
            .setPlace(Place(id: "p1", kind: "pharmacy", name: "One", coordinate: at(41.001, 29))), by: .admin)
    }

    func spec(_ kind: String = "pharmacy", center: WatchSpec.Center = .point(at(41, 29)), radius: Double = 500)
        -> WatchSpec
    {
        WatchSpec(kind: kind, center: center, radiusMeters: radius)
    }

    @Test func initialSetThenReadyAtTheAppliedPosition() throws {
        let subscriber = WatchSubscriber {}
        let id = try durable.watch(spec(), presenting: nil, for: subscriber)
        let events = subscriber.take()
        #expect(events.map(\.kind) == [.inside, .ready])
        #expect(events.allSatisfy { $0.watch == id && $0.position == durable.appliedPosition })
        #expect(events[0].object?.id == "p1")
        let measured = try #require(events[0].measure())
        #expect(abs(measured.distanceMeters - 111.04) < 0.1)
        #expect(subscriber.take().isEmpty)
    }

    @Test func roamingWatchesNeedTheUsersTokenOrTheAdmins() throws {
        let subscriber = WatchSubscriber {}
        #expect(throws: PlacesError.self) {
            try durable.watch(spec(center: .user("ada")), presenting: nil, for: subscriber)
        }
        #expect(
            throws: PlacesError.forbidden(
                action: "a watch that follows a user needs that user's token or the admin token")
        ) {
            try durable.watch(spec(center: .user("ada")), presenting: tokens["bob"], for: subscriber)
        }
        // A private user is missing to everybody else.
        #expect(throws: PlacesError.noSuchUser("cem")) {
            try durable.watch(spec(center: .user("cem")), presenting: tokens["bob"], for: subscriber)
        }
        #expect(throws: PlacesError.noSuchUser("zed")) {
            try durable.watch(spec(center: .user("zed")), by: .admin, for: subscriber)
        }
        _ = try durable.watch(spec(center: .user("cem")), presenting: tokens["cem"], for: subscriber)
        _ = try durable.watch(spec(center: .user("ada")), by: .admin, for: subscriber)
        #expect(throws: PlacesError.invalidToken) { try durable.watch(spec(), presenting: "nonsense", for: subscriber) }
    }

    @Test func badSpecsAreRefusedWithTheRule() throws {
        let subscriber = WatchSubscriber {}
        #expect(throws: PlacesError.self) { try durable.watch(spec(radius: -1), presenting: nil, for: subscriber) }
        #expect(throws: PlacesError.self) { try durable.watch(spec(radius: .nan), presenting: nil, for: subscriber) }
        #expect(throws: PlacesError.self) {
            try durable.watch(spec(radius: 20_000_001), presenting: nil, for: subscriber)
        }
        #expect(throws: PlacesError.self) { try durable.watch(spec("has space"), presenting: nil, for: subscriber) }
        let projected = WatchSpec(
            kind: "pharmacy", center: .point(at(41, 29)), radiusMeters: 5, model: .projected(.auto))
        #expect(throws: PlacesError.self) { try durable.watch(projected, presenting: nil, for: subscriber) }
        #expect(durable.watchStatistics.watches == 0)
    }

    @Test func limitsPerSubscriberAndPerServer() throws {
        durable.watchLimits = WatchLimits(maximumWatches: 3, maximumPerSubscriber: 2, historyChanges: 10)
        let first = WatchSubscriber {}
        let second = WatchSubscriber {}
        _ = try durable.watch(spec(), presenting: nil, for: first)
        _ = try durable.watch(spec(), presenting: nil, for: first)
        #expect(
            throws: PlacesError.tooManyWatches(limit: 2, scope: "this connection", flag: "--max-watches-per-client")
        ) { try durable.watch(spec(), presenting: nil, for: first) }
        let third = try durable.watch(spec(), presenting: nil, for: second)
        #expect(throws: PlacesError.tooManyWatches(limit: 3, scope: "this server", flag: "--max-watches")) {
            try durable.watch(spec(), presenting: nil, for: second)
        }
        #expect(durable.unwatch(third, for: second))
        #expect(!durable.unwatch(third, for: second))
        durable.unwatchAll(for: first)
        #expect(first.isClosed)
        #expect(durable.watchStatistics.watches == 0)
        #expect(throws: PlacesError.closed) { try durable.watch(spec(), presenting: nil, for: first) }
    }

    @Test func aSubscriberThatDoesNotReadIsClosedAndOthersGoOn() async throws {
        let slow = WatchSubscriber(capacity: 8) {}
        let reader = WatchSubscriber {}
        _ = try durable.watch(spec(), presenting: nil, for: slow)
        _ = try durable.watch(spec(), presenting: nil, for: slow)
        let readerWatch = try durable.watch(spec(), presenting: nil, for: reader)
        _ = reader.take()
        for step in 1...10 {
            let place = Place(id: "p1", kind: "pharmacy", name: "One", coordinate: at(41.001 + Double(step) / 1e5, 29))
            try await durable.perform(.setPlace(place), by: .admin)
            #expect(reader.take().map(\.kind) == [.move])
        }
        #expect(slow.isClosed)
        let finals = slow.take()
        #expect(finals.map(\.kind) == [.closed, .closed])
        #expect(finals[0].message?.contains("fell more than 8 events behind") == true)
        #expect(durable.watchStatistics.watches == 1)
        #expect(durable.watchStatistics.subscribersDropped == 1)
        #expect(durable.unwatch(readerWatch, for: reader))
    }

    @Test func watchesEndWhenTheirTokenStopsWorking() async throws {
        try await durable.perform(.rotateAdminToken, by: .admin)
        let subscriber = WatchSubscriber {}
        let adas = try durable.watch(spec(), presenting: tokens["ada"], for: subscriber)
        let admins = try durable.watch(spec("user"), by: .admin, for: subscriber)
        let following = try durable.watch(spec(center: .user("bob")), by: .admin, for: subscriber)
        _ = subscriber.take()
        try await durable.perform(.replaceUserToken("ada"), by: .admin)
        var events = subscriber.take()
        #expect(events.map(\.kind) == [.closed])
        #expect(events[0].watch == adas)
        try await durable.perform(.removeUser("bob"), by: .admin)
        events = subscriber.take()
        // The watch following Bob loses its centre (its pharmacy exits, measured from where he
        // was) and ends; Bob leaves the admin's watch of users like anyone out of range.
        #expect(events.map(\.kind) == [.exit, .center, .exit, .closed])
        #expect(events.map(\.watch) == [following, following, admins, following])
        #expect(events[0].object?.id == "p1" && events[0].center == at(41, 29))
        #expect(events[1].center == nil)
        #expect(events[2].object?.id == "bob")
        try await durable.perform(.rotateAdminToken, by: .admin)
        events = subscriber.take()
        #expect(events.map(\.kind) == [.closed])
        #expect(durable.watchStatistics.watches == 0)
    }

    @Test func aResumeTooOldStartsAfreshAndSaysSo() async throws {
        durable.watchLimits = WatchLimits(historyChanges: 1)
        let from = durable.appliedPosition
        for step in 0..<100 {
            let place = Place(id: "q\(step % 3)", kind: "pharmacy", name: "Q", coordinate: at(41.002, 29))
            try await durable.perform(.setPlace(place), by: .admin)
        }
        let subscriber = WatchSubscriber {}
        _ = try durable.watch(spec(), presenting: nil, after: from, for: subscriber)
        let events = subscriber.take()
        #expect(events.first?.kind == .reset)
        #expect(events.first?.message?.contains("no longer remembered") == true)
        #expect(events.filter { $0.kind == .inside }.count == 4)
        #expect(events.last?.kind == .ready)
        // From the newest position nothing was missed: just `ready`.
        let current = WatchSubscriber {}
        _ = try durable.watch(spec(), presenting: nil, after: durable.appliedPosition, for: current)
        #expect(current.take().map(\.kind) == [.ready])
        // Ahead of this server: a fresh start.
        let ahead = WatchSubscriber {}
        _ = try durable.watch(spec(), presenting: nil, after: durable.appliedPosition + 5, for: ahead)
        #expect(ahead.take().first?.kind == .reset)
    }

    @Test func aFollowerThatReloadsASnapshotTellsItsWatchesTheDifference() async throws {
        let follower = try DurableDirectory(loading: store)
        defer { follower.close() }
        follower.follow(pollInterval: 0.01)
        let woken = WatchSubscriber {}
        _ = try follower.watch(spec(), presenting: nil, for: woken)
        #expect(woken.take().map(\.kind) == [.inside, .ready])
        // Changes the follower applies from the log come as events.
        try await durable.perform(
            .setPlace(Place(id: "p2", kind: "pharmacy", name: "Two", coordinate: at(41.002, 29))), by: .admin)
        #expect(await follower.waitUntilApplied(durable.appliedPosition, timeout: 5))
        #expect(woken.take().map(\.kind) == [.enter])
        // A log trimmed past the follower: it loads a snapshot, and the watch hears what changed.
        follower.close()
        let behind = try DurableDirectory(loading: store)
        defer { behind.close() }
        let watcher = WatchSubscriber {}
        _ = try behind.watch(spec(), presenting: nil, for: watcher)
        _ = watcher.take()
        try await durable.perform(.removePlace(kind: "pharmacy", id: "p1"), by: .admin)
        try await durable.perform(
            .setPlace(Place(id: "p3", kind: "pharmacy", name: "Three", coordinate: at(41.003, 29))), by: .admin)
        store.trimEverything()
        behind.follow(pollInterval: 0.01)
        #expect(await behind.waitUntilApplied(durable.appliedPosition, timeout: 5))
        let events = watcher.take()
        #expect(Set(events.map { "\($0.kind) \($0.object?.id ?? "")" }) == ["exit p1", "enter p3"])
        #expect(behind.replication.reloads == 1)
    }

    @Test func aReloadEndsWatchesWhoseTokenStoppedWorking() async throws {
        try await durable.perform(.rotateAdminToken, by: .admin)
        let behind = try DurableDirectory(loading: store)
        defer { behind.close() }
        let subscriber = WatchSubscriber {}
        let adas = try behind.watch(spec("user"), presenting: tokens["ada"], for: subscriber)
        let following = try behind.watch(spec(center: .user("bob")), by: .admin, for: subscriber)
        let anonymous = try behind.watch(spec("user"), presenting: nil, for: subscriber)
        _ = subscriber.take()
        // While the follower is away: Ada is removed and another, private, Ada added; Bob goes.
        try await durable.perform(.removeUser("ada"), by: .admin)
        try await durable.perform(
            .addUser(User(id: "ada", name: "Another Ada", location: at(41, 29), visibility: .private)), by: .admin)
        try await durable.perform(.removeUser("bob"), by: .admin)
        store.trimEverything()
        behind.follow(pollInterval: 0.01)
        #expect(await behind.waitUntilApplied(durable.appliedPosition, timeout: 5))
        let events = subscriber.take()
        #expect(!events.contains { $0.object?.name == "Another Ada" }, "a private user shown to a stale token")
        #expect(events.filter { $0.kind == .closed }.map(\.watch).sorted() == [adas, following].sorted())
        #expect(behind.watchStatistics.watches == 1)
        #expect(
            Set(events.filter { $0.watch == anonymous }.map { "\($0.kind) \($0.object?.id ?? "")" }) == [
                "exit ada", "exit bob",
            ])
    }

    @Test func aResumeAcrossTheAskersOwnRemovalStartsAfresh() async throws {
        try await durable.perform(.setVisibility("cem", .private), presenting: tokens["cem"])
        let before = durable.appliedPosition
        try await durable.perform(.removeUser("cem"), by: .admin)
        let token = try await durable.perform(
            .addUser(User(id: "cem", name: "New Cem", location: at(45, 10), visibility: .private)), by: .admin)
        let subscriber = WatchSubscriber {}
        _ = try durable.watch(spec("user"), presenting: token, after: before, for: subscriber)
        let events = subscriber.take()
        #expect(events.first?.kind == .reset)
        #expect(!events.contains { $0.object?.name == "Cem" }, "the old Cem's private record")
    }

    @Test func wakeMayCallBackIntoTheDirectory() async throws {
        let box = SubscriberBox()
        let subscriber = WatchSubscriber { [durable] in
            // What a front end does when woken: read the counters, take, end what is closed.
            _ = durable.watchStatistics
            if let subscriber = box.subscriber, subscriber.isClosed { durable.unwatchAll(for: subscriber) }
        }
        box.subscriber = subscriber
        _ = try durable.watch(spec(), presenting: nil, for: subscriber)
        _ = subscriber.take()
        try await durable.perform(
            .setPlace(Place(id: "p1", kind: "pharmacy", name: "One", coordinate: at(41.0011, 29))), by: .admin)
        #expect(subscriber.take().map(\.kind) == [.move])
    }

    @Test func aWatchTooLargeIsRefusedAndOneGrowingTooLargeEnds() async throws {
        durable.watchLimits = WatchLimits(maximumObjects: 2)
        for number in 2...3 {
            try await durable.perform(
                .setPlace(
                    Place(id: "p\(number)", kind: "pharmacy", name: "P", coordinate: at(41 + Double(number) / 1e4, 29))),
                by: .admin)
        }
        let subscriber = WatchSubscriber(capacity: 2) {}
        #expect(throws: PlacesError.self) { try durable.watch(spec(radius: 5_000), presenting: nil, for: subscriber) }
        #expect(!subscriber.isClosed && durable.watchStatistics.watches == 0)
        let small = try durable.watch(spec(radius: 100), presenting: nil, for: subscriber)
        // One position's events go into an empty queue even beyond its capacity.
        #expect(subscriber.take().map(\.kind) == [.inside, .inside, .ready])
        try await durable.perform(
            .setPlace(Place(id: "p4", kind: "pharmacy", name: "P", coordinate: at(41.0001, 29))), by: .admin)
        let events = subscriber.take()
        #expect(events.map(\.kind) == [.enter, .closed])
        #expect(events.last?.watch == small && events.last?.message?.contains("--max-watch-objects") == true)
        #expect(durable.watchStatistics.watches == 0)
    }

    @Test func anEndedWatchSendsNothingMore() async throws {
        let subscriber = WatchSubscriber {}
        let first = try durable.watch(spec(), presenting: nil, for: subscriber)
        let second = try durable.watch(spec(), presenting: nil, for: subscriber)
        #expect(durable.unwatch(first, for: subscriber))
        #expect(subscriber.take().allSatisfy { $0.watch == second })
    }
}

/// Lets a subscriber's wake refer to the subscriber.
private final class SubscriberBox: @unchecked Sendable {
    var subscriber: WatchSubscriber?
}
