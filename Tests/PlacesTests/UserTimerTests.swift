import Foundation
import Geo
import TestSupport
import Testing

@testable import Places

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}

/// Must show 3 (issue 18), in memory with a clock the test moves: a location is forgotten exactly
/// when it expires and a private spell ends exactly on time — not a second before — each as a
/// stored change that every map, count, record and watch sees; a move pushes the expiry, and
/// setting the visibility again cancels a spell's end.
@Suite(.timeLimit(.minutes(10))) struct UserTimerTests {
    let clock = ManualClock()
    let here = at(41, 29)

    /// A directory at `street` whose locations last `ttl` seconds, on the test's clock.
    func durable(ttl: Int = 3_600) throws -> DurableDirectory {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        directory.privacy = clock.privacy(.street, locationTTLSeconds: ttl)
        return DurableDirectory(directory, store: MemoryStore())
    }

    /// The ids `principal` finds within 5 km of `here`, and the count it is given.
    func onMap(_ durable: DurableDirectory, as principal: Principal) throws -> (ids: [String], count: Int) {
        try durable.read { directory throws(PlacesError) in
            (
                try directory.nearbyUsers(here, radiusMeters: 5_000, as: principal).map(\.user.id),
                try directory.countUsers(here, radiusMeters: 5_000, as: principal)
            )
        }
    }

    func record(_ durable: DurableDirectory, _ id: String, as principal: Principal = .admin) throws -> User {
        try durable.read { directory throws(PlacesError) in try directory.user(id, as: principal) }
    }

    // MARK: - (a) Locations expire

    @Test func aLocationIsForgottenExactlyWhenItExpires() async throws {
        let durable = try durable()
        defer { durable.close() }
        let start = clock.now
        try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        try await durable.perform(.addUser(User(id: "bob", name: "Bob")), by: .admin)
        let added = try record(durable, "ada")
        #expect(added.precision == .street)
        #expect(added.locationExpiresAt == start.addingTimeInterval(3_600))
        #expect(try record(durable, "bob").locationExpiresAt == nil, "no location, nothing to expire")
        #expect(durable.nextUserTimer == start.addingTimeInterval(3_600))

        clock.advance(3_599)
        #expect(await durable.runDueUserTimers() == 0)
        #expect(try onMap(durable, as: .anonymous) == (["ada"], 1))
        #expect(try record(durable, "ada") == added)

        clock.advance(1)
        #expect(await durable.runDueUserTimers() == 1)
        for principal in [Principal.anonymous, .user("bob"), .user("ada"), .admin] {
            #expect(try onMap(durable, as: principal) == ([], 0), "\(principal)")
        }
        let forgotten = try record(durable, "ada")
        #expect(forgotten.location == nil && forgotten.locationExpiresAt == nil)
        #expect(try record(durable, "ada", as: .user("ada")) == forgotten)
        #expect(durable.read { $0.publicUserCount } == 0)
        #expect(durable.nextUserTimer == nil)
        #expect(await durable.runDueUserTimers() == 0, "a timer runs once")
    }

    @Test func aMoveBeforeTheExpiryPushesIt() async throws {
        let durable = try durable()
        defer { durable.close() }
        let start = clock.now
        let token = try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        clock.advance(1_800)
        try await durable.perform(.moveUser("ada", to: at(41.0005, 29)), presenting: token)
        let moved = try record(durable, "ada", as: .user("ada"))
        #expect(moved.locationExpiresAt == start.addingTimeInterval(5_400))
        #expect(durable.nextUserTimer == start.addingTimeInterval(5_400))
        // Others are not told when: it would tell a move inside a cell from none.
        #expect(try record(durable, "ada", as: .anonymous).locationExpiresAt == nil)

        clock.advance(1_800)  // the first expiry
        #expect(await durable.runDueUserTimers() == 0)
        #expect(try onMap(durable, as: .anonymous).ids == ["ada"])
        clock.advance(1_799)
        #expect(await durable.runDueUserTimers() == 0)
        #expect(try record(durable, "ada").location == at(41.0005, 29))
        clock.advance(1)
        #expect(await durable.runDueUserTimers() == 1)
        #expect(try record(durable, "ada").location == nil)
    }

    @Test func forgettingOnesOwnLocationLeavesNoTimer() async throws {
        let durable = try durable()
        defer { durable.close() }
        let token = try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        try await durable.perform(.moveUser("ada", to: nil), presenting: token)
        #expect(try record(durable, "ada").locationExpiresAt == nil)
        #expect(durable.nextUserTimer == nil)
    }

    @Test func locationsLastForeverWithoutALifetime() async throws {
        let durable = try durable(ttl: 0)
        defer { durable.close() }
        try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        #expect(try record(durable, "ada").locationExpiresAt == nil)
        #expect(durable.nextUserTimer == nil)
        clock.advance(10 * 365 * 86_400)
        #expect(await durable.runDueUserTimers() == 0)
        #expect(try onMap(durable, as: .anonymous).ids == ["ada"])
    }

    // MARK: - (b) Watches

    @Test func aWatchSeesTheExpiryAsAnExitAndTheEndOfAPrivateSpellAsAnEnter() async throws {
        let durable = try durable()
        defer { durable.close() }
        let ada = try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        let bob = try await durable.perform(.addUser(User(id: "bob", name: "Bob")), by: .admin)
        let subscriber = WatchSubscriber {}
        let spec = WatchSpec(kind: PlaceDirectory.userKind, center: .point(here), radiusMeters: 500)
        _ = try durable.watch(spec, presenting: bob, for: subscriber)
        #expect(subscriber.take().map(\.kind) == [.inside, .ready])

        clock.advance(3_599)
        await durable.runDueUserTimers()
        #expect(subscriber.take().isEmpty)
        clock.advance(1)
        await durable.runDueUserTimers()
        let exits = subscriber.take()
        #expect(exits.map(\.kind) == [.exit])
        #expect(exits.first?.object?.id == "ada")

        // Back on the map, then private for three hours, moving now and then (seen by nobody).
        try await durable.perform(.moveUser("ada", to: here), presenting: ada)
        #expect(subscriber.take().map(\.kind) == [.enter])
        let spellStart = clock.now
        try await durable.perform(.setVisibility("ada", .private, forSeconds: 3 * 3_600), presenting: ada)
        #expect(subscriber.take().map(\.kind) == [.exit])
        let last = at(41.002, 29.001)
        for step in 1...3 {
            clock.advance(50 * 60)
            try await durable.perform(.moveUser("ada", to: step == 3 ? last : here), presenting: ada)
            #expect(await durable.runDueUserTimers() == 0)
        }
        #expect(subscriber.take().isEmpty, "a private user's moves show to no one else")
        clock.advance(spellStart.addingTimeInterval(3 * 3_600 - 1).timeIntervalSince(clock.now))
        #expect(await durable.runDueUserTimers() == 0)
        #expect(subscriber.take().isEmpty)
        clock.advance(1)
        #expect(await durable.runDueUserTimers() == 1)
        let enters = subscriber.take()
        #expect(enters.map(\.kind) == [.enter])
        #expect(enters.first?.object?.coordinate == LocationPrecision.street.published(last))
        #expect(enters.first?.object?.distanceStepMeters == 100)
    }

    // MARK: - (c) Ghost mode

    @Test func aPrivateSpellEndsByItselfOnTimeAndNotBefore() async throws {
        let durable = try durable(ttl: 0)
        defer { durable.close() }
        let start = clock.now
        let ada = try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        try await durable.perform(.addUser(User(id: "bob", name: "Bob", location: at(41.001, 29))), by: .admin)
        try await durable.perform(.setVisibility("ada", .private, forSeconds: 3 * 3_600), presenting: ada)
        let ghost = try record(durable, "ada", as: .user("ada"))
        #expect(ghost.visibility == .private && ghost.privateUntil == start.addingTimeInterval(10_800))
        #expect(durable.nextUserTimer == start.addingTimeInterval(10_800))

        func hidden() throws {
            for principal in [Principal.anonymous, .user("bob"), .admin] {
                #expect(try onMap(durable, as: principal) == (["bob"], 1), "\(principal)")
            }
            for principal in [Principal.anonymous, .user("bob")] {
                #expect(throws: PlacesError.noSuchUser("ada")) { try record(durable, "ada", as: principal) }
            }
            #expect(try onMap(durable, as: .user("ada")).ids == ["ada", "bob"], "she still sees herself")
        }
        try hidden()
        clock.advance(10_799)
        #expect(await durable.runDueUserTimers() == 0)
        try hidden()

        clock.advance(1)
        #expect(await durable.runDueUserTimers() == 1)
        let ended = try record(durable, "ada")
        #expect(ended.visibility == .public && ended.privateUntil == nil)
        #expect(try onMap(durable, as: .anonymous) == (["ada", "bob"], 2))
        #expect(try record(durable, "ada", as: .user("bob")).location == LocationPrecision.street.published(here))
        #expect(durable.nextUserTimer == nil)
    }

    @Test(arguments: [Visibility.public, .private])
    func settingTheVisibilityAgainCancelsTheEndOfASpell(visibility: Visibility) async throws {
        let durable = try durable(ttl: 0)
        defer { durable.close() }
        let ada = try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        try await durable.perform(.setVisibility("ada", .private, forSeconds: 3 * 3_600), presenting: ada)
        clock.advance(3_600)
        try await durable.perform(.setVisibility("ada", visibility), presenting: ada)
        #expect(try record(durable, "ada").privateUntil == nil)
        #expect(durable.nextUserTimer == nil)
        clock.advance(3 * 3_600)
        #expect(await durable.runDueUserTimers() == 0)
        #expect(try record(durable, "ada").visibility == visibility, "until changed again")
    }

    @Test func aSpellNeedsPrivateAndAValidLength() async throws {
        let durable = try durable(ttl: 0)
        defer { durable.close() }
        let ada = try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        for (visibility, seconds) in [(Visibility.public, 60), (.private, 0), (.private, -5), (.private, 315_360_001)] {
            await #expect(throws: PlacesError.self, "\(visibility) for \(seconds) s") {
                try await durable.perform(.setVisibility("ada", visibility, forSeconds: seconds), presenting: ada)
            }
        }
        #expect(try record(durable, "ada").visibility == .public)
        #expect(durable.nextUserTimer == nil)
        // Only the admin runs timers, and only due ones.
        await #expect(throws: PlacesError.self) { try await durable.perform(.runTimers("ada"), presenting: ada) }
        await #expect(throws: PlacesError.self) { try await durable.perform(.runTimers("ada"), by: .admin) }
    }

    // MARK: - Conditional timer changes

    @Test func aTimerChangeThatIsNoLongerTheUsersChangesNothing() throws {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        directory.privacy = clock.privacy()
        let token = try directory.addUser(User(id: "ada", name: "Ada", location: here), by: .admin)
        let firstExpiry = try #require(try directory.user("ada", as: .admin).locationExpiresAt)
        clock.advance(600)
        try directory.perform(.moveUser("ada", to: at(41.001, 29)), by: directory.principal(presenting: token))
        let moved = try directory.user("ada", as: .admin)

        // The expiry the move replaced: stale, so the location stays.
        try directory.apply(.forgetLocation("ada", expiresAt: firstExpiry))
        #expect(try directory.user("ada", as: .admin) == moved)
        // A spell that is not the user's (she is public).
        try directory.apply(.endPrivacy("ada", privateUntil: clock.inSeconds(60)))
        #expect(try directory.user("ada", as: .admin) == moved)

        // A spell replaced by another: only the current one ends it.
        try directory.perform(.setVisibility("ada", .private, forSeconds: 60), by: .admin)
        let firstSpell = try #require(try directory.user("ada", as: .admin).privateUntil)
        clock.advance(30)
        try directory.perform(.setVisibility("ada", .private, forSeconds: 3_600), by: .admin)
        let respelled = try directory.user("ada", as: .admin)
        try directory.apply(.endPrivacy("ada", privateUntil: firstSpell))
        #expect(try directory.user("ada", as: .admin) == respelled)

        // The current expiry, applied twice (two nodes ran it): forgotten once, the same after.
        let expiry = try #require(moved.locationExpiresAt)
        try directory.apply(.forgetLocation("ada", expiresAt: expiry))
        let forgotten = try directory.user("ada", as: .admin)
        #expect(forgotten.location == nil && forgotten.privateUntil == respelled.privateUntil)
        try directory.apply(.forgetLocation("ada", expiresAt: expiry))
        #expect(try directory.user("ada", as: .admin) == forgotten)
    }

    @Test func aTimerChangesTheUserKeyOnlyWhenOthersSawTheUser() async throws {
        let durable = try durable()
        defer { durable.close() }
        try await durable.perform(
            .addUser(User(id: "cem", name: "Cem", location: here, visibility: .private)), by: .admin)
        clock.advance(10)
        try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)
        let before = durable.version(ofKey: PlaceDirectory.userKind)
        clock.advance(3_590)
        // Cem, private, was on no map: forgetting his location shows on no key.
        #expect(await durable.runDueUserTimers() == 1)
        #expect(try record(durable, "cem").location == nil)
        #expect(durable.version(ofKey: PlaceDirectory.userKind) == before)
        // Ada leaves every map: the key changes.
        clock.advance(10)
        #expect(await durable.runDueUserTimers() == 1)
        #expect(durable.version(ofKey: PlaceDirectory.userKind) > before)
    }
}
