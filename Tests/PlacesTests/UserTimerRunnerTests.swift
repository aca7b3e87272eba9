import Foundation
import Geo
import TestSupport
import Testing

@testable import Places

/// The timer runner's bookkeeping: which users are due (read off the heap, not a pass over every
/// user) and how long the loop sleeps, also when the store refuses the timers' writes.
@Suite(.timeLimit(.minutes(10))) struct UserTimerRunnerTests {
    let clock = ManualClock()

    /// A deterministic generator (SplitMix64), so that a failure replays.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The users due at `now`, by a pass over every record: what the heap must answer.
    func dueByScan(_ directory: PlaceDirectory, at now: Date) throws -> [String] {
        try directory.users(as: .admin).filter { user in
            let expiry = user.location == nil ? nil : user.locationExpiresAt
            let until = user.visibility == .private ? user.privateUntil : nil
            return [expiry, until].contains { $0.map { $0 <= now } ?? false }
        }.map(\.id)
    }

    @Test func theHeapFindsExactlyTheUsersAPassOverAllWouldFind() throws {
        var random = Seeded(state: 18)
        var directory = PlaceDirectory(places: try PlaceCatalog())
        directory.privacy = clock.privacy(.street, locationTTLSeconds: 600)
        let ids = (0..<40).map { "u\($0)" }
        for step in 0..<3_000 {
            let id = ids.randomElement(using: &random)!
            let latitude = Double.random(in: 40...42, using: &random)
            let location = try Coordinate(latitude: latitude, longitude: Double.random(in: 28...30, using: &random))
            switch Int.random(in: 0..<8, using: &random) {
            case 0: try? directory.addUser(User(id: id, name: id, location: location), by: .admin)
            case 1: try? directory.perform(.moveUser(id, to: location), by: .admin)
            case 2: try? directory.perform(.moveUser(id, to: nil), by: .admin)
            case 3:
                let seconds = Int.random(in: 1...900, using: &random)
                try? directory.perform(.setVisibility(id, .private, forSeconds: seconds), by: .admin)
            case 4: try? directory.perform(.setVisibility(id, .private), by: .admin)
            case 5: try? directory.perform(.setVisibility(id, .public), by: .admin)
            case 6: try? directory.perform(.removeUser(id), by: .admin)
            default: clock.advance(Double(Int.random(in: 0...120, using: &random)))
            }
            if step % 97 == 0 { directory.applyDueTimers() }
            for ahead in [0.0, 60, 300, 900] {
                let now = clock.inSeconds(ahead)
                #expect(directory.usersWithTimersDue(at: now) == (try dueByScan(directory, at: now)), "step \(step)")
            }
        }
    }

    @Test func aTimerTheStoreRefusesIsRetriedAtThePollNotAtOnce() async throws {
        let store = MemoryStore()
        var directory = PlaceDirectory(places: try PlaceCatalog())
        directory.privacy = clock.privacy(.street, locationTTLSeconds: 60)
        let durable = DurableDirectory(directory, store: store)
        defer { durable.close() }
        let here = try Coordinate(latitude: 41.0885, longitude: 29.0158)
        try await durable.perform(.addUser(User(id: "ada", name: "Ada", location: here)), by: .admin)

        clock.advance(59.5)
        #expect(durable.timerPause(pollSeconds: 1, afterStoring: 0) == 0.5, "wakes when the timer falls due")

        clock.advance(0.5)
        store.fail(when: { change in
            if case .forgetLocation = change { return true }
            return false
        })
        #expect(await durable.runDueUserTimers() == 0)
        #expect(durable.nextUserTimer != nil, "still due")
        #expect(
            durable.timerPause(pollSeconds: 1, afterStoring: 0) == 1,
            "a refused timer waits for the next poll instead of spinning every 10 ms")

        store.fail(when: { _ in false })
        #expect(await durable.runDueUserTimers() == 1)
        #expect(durable.nextUserTimer == nil)
        #expect(durable.timerPause(pollSeconds: 1, afterStoring: 1) == 1)
    }
}
