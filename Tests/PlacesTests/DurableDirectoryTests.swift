import Foundation
import Geo
import Synchronization
import TestSupport
import Testing

@testable import Places

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}

private func pharmacy(_ id: String, _ latitude: Double, _ longitude: Double) -> Place {
    Place(id: id, kind: "pharmacy", name: id, coordinate: at(latitude, longitude))
}

/// Group commit: acknowledged writes are stored and visible, refused ones change nothing, reads
/// never wait for the disk.
@Suite(.timeLimit(.minutes(10))) struct DurableDirectoryTests {
    func empty() throws -> PlaceDirectory { PlaceDirectory(places: try PlaceCatalog()) }

    @Test func sixteenWritersShareCommitsAndEveryAcknowledgedWriteIsStoredAndVisible() async throws {
        let store = MemoryStore()
        let durable = DurableDirectory(try empty(), store: store)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<16 {
                group.addTask {
                    for number in 0..<50 {
                        let place = pharmacy(
                            "w\(writer)-\(number)", 41 + Double(writer) / 100, 29 + Double(number) / 1000)
                        // swift-format-ignore: NeverUseForceTry
                        try! await durable.perform(.setPlace(place), by: .admin)
                        // Acknowledged means visible to any read that starts now.
                        #expect(durable.read { $0.places.place(kind: "pharmacy", id: place.id) } == place)
                    }
                }
            }
        }
        durable.close()
        let stored = store.transactions.flatMap { $0 }
        #expect(stored.count == 800)
        #expect(Set(stored).count == 800)
        #expect(durable.read { $0.places.count(kind: "pharmacy") } == 800)
        #expect(durable.statistics.changes == 800)
        #expect(store.transactions.count == durable.statistics.commits)
    }

    @Test func aRefusedRequestIsAnsweredAndNeitherStoredNorApplied() async throws {
        let store = MemoryStore()
        let durable = DurableDirectory(try empty(), store: store)
        defer { durable.close() }
        await #expect(throws: PlacesError.forbidden(action: "changing a place needs the admin token")) {
            try await durable.perform(.setPlace(pharmacy("a", 1, 1)), by: .anonymous)
        }
        await #expect(throws: PlacesError.noSuchUser("ghost")) {
            try await durable.perform(.moveUser("ghost", to: nil), by: .admin)
        }
        #expect(store.transactions.isEmpty)
        #expect(durable.read { $0.places.count } == 0)
    }

    @Test func aFailedCommitChangesNothingAndFailsOnlyItsOwnRequest() async throws {
        let store = MemoryStore()
        let durable = DurableDirectory(try empty(), store: store)
        defer { durable.close() }
        store.fail { change in
            if case .putPlace(let place) = change { return place.id == "bad" }
            return false
        }
        let results = await withTaskGroup(of: (String, Bool).self) { group in
            for id in ["bad", "a", "b", "c"] {
                group.addTask {
                    do {
                        try await durable.perform(.setPlace(pharmacy(id, 1, 1)), by: .admin)
                        return (id, true)
                    } catch {
                        #expect(error as? PlacesError == .storeFailed("disk full"))
                        return (id, false)
                    }
                }
            }
            var results: [String: Bool] = [:]
            for await (id, stored) in group { results[id] = stored }
            return results
        }
        #expect(results == ["bad": false, "a": true, "b": true, "c": true])
        #expect(durable.read { $0.places.place(kind: "pharmacy", id: "bad") } == nil)
        #expect(Set(store.transactions.flatMap { $0 }.map { "\($0)" }).count == 3)
    }

    @Test func readsDoNotWaitForACommitInProgress() throws {
        let store = MemoryStore(gated: true)
        let durable = DurableDirectory(try empty(), store: store)
        let done = DispatchSemaphore(value: 0)
        durable.submit(.setPlace(pharmacy("slow", 1, 1)), by: .admin) { _ in done.signal() }
        store.gate?.entered.wait()
        // The commit is in progress: a read answers at once, without the write.
        #expect(durable.read { $0.places.count } == 0)
        store.gate?.release.signal()
        done.wait()
        #expect(durable.read { $0.places.count } == 1)
        store.gate?.release.signal()  // nothing else commits; keep the gate balanced
        durable.close()
    }

    @Test func laterRequestsForTheSameUserSeeTheEarlierOnes() async throws {
        let store = MemoryStore()
        var directory = try empty()
        let token = try directory.addUser(User(id: "ayse", name: "Ayşe", location: at(41, 29)), by: .admin)
        let durable = DurableDirectory(directory, store: store)
        defer { durable.close() }
        let principal = try durable.read { directory throws(PlacesError) in try directory.principal(presenting: token) }
        // Queued back to back: the removal must be planned after the move is applied, and the
        // visibility change after the removal (so it fails).
        let outcomes = Mutex<[String]>([])
        let all = DispatchGroup()
        for (name, request) in [
            ("move", DirectoryRequest.moveUser("ayse", to: at(42, 30))), ("remove", .removeUser("ayse")),
            ("hide", .setVisibility("ayse", .private)),
        ] {
            all.enter()
            durable.submit(request, by: principal) { result in
                let outcome: String
                switch result {
                case .success: outcome = "ok"
                case .failure(let error): outcome = error.description
                }
                outcomes.withLock { $0.append("\(name): \(outcome)") }
                all.leave()
            }
        }
        all.wait()
        #expect(
            outcomes.withLock { $0 } == [
                "move: ok", "remove: ok", "hide: no user \"ayse\" that you can see",
            ])
        #expect(durable.read { $0.userCount } == 0)
        #expect(store.transactions.count == 2, "one transaction per request that touches ayse")
    }

    @Test func ofWritersRacingToCreateOnePlaceExactlyOneCreatesIt() async throws {
        let durable = DurableDirectory(try empty(), store: MemoryStore())
        defer { durable.close() }
        for round in 0..<5 {
            let id = "racing-\(round)"
            let receipts = try await withThrowingTaskGroup(of: WriteReceipt.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        try await durable.performWithReceipt(
                            .setPlace(pharmacy(id, 41 + Double(writer) / 1000, 29)), by: .admin)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(receipts.filter { !$0.replaced }.count == 1, "round \(round): \(receipts)")
            #expect(receipts.allSatisfy { $0.token == nil })
        }
        // Replaced while there, created again once removed.
        #expect(try await durable.performWithReceipt(.setPlace(pharmacy("racing-0", 41, 29)), by: .admin).replaced)
        try await durable.perform(.removePlace(kind: "pharmacy", id: "racing-0"), by: .admin)
        #expect(try await !durable.performWithReceipt(.setPlace(pharmacy("racing-0", 41, 29)), by: .admin).replaced)
    }

    @Test func aTokenRevokedWhileARequestWaitsNoLongerWorks() throws {
        var directory = try empty()
        let oldAdmin = directory.rotateAdminToken()
        let store = MemoryStore(gated: true)
        let durable = DurableDirectory(directory, store: store)
        let rotated = DispatchSemaphore(value: 0)
        durable.submit(.rotateAdminToken, presenting: oldAdmin) { _ in rotated.signal() }
        store.gate?.entered.wait()
        // Queued with the old token while the rotation is being stored.
        let refused = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<String?, PlacesError>?>(nil)
        durable.submit(.setPlace(pharmacy("late", 1, 1)), presenting: oldAdmin) { result in
            outcome.withLock { $0 = result }
            refused.signal()
        }
        store.gate?.release.signal()
        rotated.wait()
        refused.wait()
        switch outcome.withLock({ $0 }) {
        case .failure(let error): #expect(error == .invalidToken)
        default: Issue.record("the old admin token still worked")
        }
        store.gate?.release.signal()
        durable.close()
        #expect(durable.read { $0.places.count } == 0)
    }

    @Test func lengthsCountUnicodeScalarsAsTheDatabaseDoes() throws {
        var directory = try empty()
        let combining = "e" + String(repeating: "\u{301}", count: 200)  // one character, 201 scalars
        #expect(throws: PlacesError.invalidUserID(combining)) {
            try directory.addUser(User(id: combining, name: "x"), by: .admin)
        }
        #expect(throws: PlacesError.invalidPlaceID(combining)) {
            try directory.perform(.setPlace(pharmacy(combining, 1, 1)), by: .admin)
        }
        try directory.addUser(User(id: String(repeating: "é", count: 128), name: "x"), by: .admin)
    }

    @Test func aClosedDirectoryRefusesWrites() async throws {
        let durable = DurableDirectory(try empty(), store: MemoryStore())
        durable.close()
        await #expect(throws: PlacesError.closed) { try await durable.perform(.rotateAdminToken, by: .admin) }
    }

    @Test func tokensComeBackOnceAndWork() throws {
        let durable = DurableDirectory(try empty(), store: MemoryStore())
        defer { durable.close() }
        let admin = try #require(try durable.performAndWait(.rotateAdminToken, by: .admin))
        #expect(durable.read { try? $0.principal(presenting: admin) } == .admin)
        let token = try #require(try durable.performAndWait(.addUser(User(id: "u", name: "U")), by: .admin))
        #expect(durable.read { try? $0.principal(presenting: token) } == .user("u"))
        let newAdmin = try #require(try durable.performAndWait(.rotateAdminToken, by: .admin))
        #expect(throws: PlacesError.invalidToken) {
            try durable.read { directory throws(PlacesError) in try directory.principal(presenting: admin) }
        }
        #expect(durable.read { try? $0.principal(presenting: newAdmin) } == .admin)
    }
}
