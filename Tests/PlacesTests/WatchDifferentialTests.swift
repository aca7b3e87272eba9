import Foundation
import Geo
import TestSupport
import Testing

@testable import Places

/// Watches against brute force: random moves, visibility flips, removals, place edits and watch
/// creations; after every write, each watch's events replayed equal a brute-force snapshot of its
/// query (ids, names, coordinates, distances and bearings), exactly at the boundary; no event
/// names a user to another principal unless that user was public just before or just after it.
@Suite(.timeLimit(.minutes(10))) struct WatchDifferentialTests {
    /// Where a run happens: an ordinary city, the north pole, the antimeridian at the equator.
    enum Region: CaseIterable {
        case city, pole, antimeridian

        func point(_ random: inout SplitMix64) -> Coordinate {
            switch self {
            case .city:
                return at(41 + (random.nextUnit() - 0.5) * 0.04, 29 + (random.nextUnit() - 0.5) * 0.05)
            case .pole:
                return at(90 - random.nextUnit() * 0.02, random.nextUnit() * 360 - 180)
            case .antimeridian:
                let longitude =
                    random.nextUnit() < 0.5 ? 180 - random.nextUnit() * 0.015 : -180 + random.nextUnit() * 0.015
                return at((random.nextUnit() - 0.5) * 0.02, longitude)
            }
        }
    }

    /// One watch as the test follows it: what it asked, and the set its events add up to.
    final class Follower {
        let spec: WatchSpec
        let principal: Principal
        let subscriber: WatchSubscriber
        var id: WatchID = 0
        var set: [String: Snapshot] = [:]
        var closed = false
        var events: [WatchEvent] = []

        init(spec: WatchSpec, principal: Principal) {
            self.spec = spec
            self.principal = principal
            subscriber = WatchSubscriber(capacity: 100_000) {}
        }
    }

    struct Snapshot: Hashable {
        var name: String
        var coordinate: Coordinate
        var distance: Double
        var bearing: Double
    }

    @Test(arguments: 0..<18) func eventsReplayedEqualBruteForceSnapshots(seed: Int) async throws {
        let region = Region.allCases[seed % 3]
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let durable = DurableDirectory(PlaceDirectory(places: try PlaceCatalog()), store: MemoryStore())
        defer { durable.close() }
        var tokens: [String: String] = [:]
        var followers: [Follower] = []
        var userCount = 0

        func addUser() async throws {
            let id = "u\(userCount)"
            userCount += 1
            let location = random.nextUnit() < 0.8 ? region.point(&random) : nil
            let visibility: Visibility = random.nextUnit() < 0.7 ? .public : .private
            tokens[id] = try await durable.perform(
                .addUser(User(id: id, name: "User \(id)", location: location, visibility: visibility)), by: .admin)
        }
        for _ in 0..<6 { try await addUser() }
        for number in 0..<8 {
            let place = Place(
                id: "p\(number)", kind: "pharmacy", name: "Pharmacy \(number)", coordinate: region.point(&random))
            try await durable.perform(.setPlace(place), by: .admin)
        }

        func liveUsers() -> [User] { durable.read { Array($0.registry.users.values) } }

        func newWatch() throws {
            let users = liveUsers()
            let kind = random.nextUnit() < 0.5 ? PlaceDirectory.userKind : "pharmacy"
            let models: [DistanceModel] = [
                .geodesic, .geodesic, .sphere, .haversine(try Haversine(radiusMeters: 6_378_137)),
            ]
            let model = models[Int(random.next() % UInt64(models.count))]
            var principal: Principal = [.anonymous, .admin][Int(random.next() % 2)]
            if !users.isEmpty, random.nextUnit() < 0.5 {
                principal = .user(users[Int(random.next() % UInt64(users.count))].id)
            }
            var center = WatchSpec.Center.point(region.point(&random))
            if random.nextUnit() < 0.4, !users.isEmpty {
                // Roaming: on the asker's own record, or any user's for the admin.
                let user = users[Int(random.next() % UInt64(users.count))].id
                if case .user(let own) = principal {
                    center = .user(own)
                } else {
                    principal = .admin
                    center = .user(user)
                }
            }
            // Mostly hundreds of meters; now and then 0 (the centre alone) or tens of km (coarse levels).
            let sizeRoll = random.nextUnit()
            var radius =
                sizeRoll < 0.05
                ? 0 : sizeRoll < 0.15 ? 5_000 + random.nextUnit() * 60_000 : 100 + random.nextUnit() * 1_500
            // Now and then exactly on the boundary of an object (d == r: inside).
            if random.nextUnit() < 0.3, case .point(let point) = center {
                let objects = durable.read { directory in
                    directory.places.collections["pharmacy"]?.places.map(\.coordinate) ?? []
                }
                if let target = objects.randomElement(using: &random) { radius = try model.distance(point, target) }
            }
            let follower = Follower(
                spec: WatchSpec(kind: kind, center: center, radiusMeters: radius, model: model), principal: principal)
            follower.id = try durable.watch(follower.spec, by: principal, for: follower.subscriber)
            followers.append(follower)
        }
        for _ in 0..<4 { try newWatch() }

        var publicBefore: [String: Bool] = [:]
        func publicNow() -> [String: Bool] {
            durable.read { directory in
                directory.registry.users.mapValues { $0.visibility == .public && $0.location != nil }
            }
        }
        publicBefore = publicNow()

        // Resumes: at step 40 each watch's position and set are noted; at step 120 the same watch
        // is asked again from that position, and must get exactly the events the live one got since.
        var noted: [(follower: Follower, position: LogPosition, set: [String: Snapshot], seen: Int)] = []
        for step in 0..<160 {
            if step == 40 {
                for follower in followers where !follower.closed {
                    _ = try check(
                        [follower], durable: durable, publicBefore: publicBefore, publicAfter: publicNow(), step: step)
                    noted.append((follower, durable.appliedPosition, follower.set, follower.events.count))
                }
            }
            if step == 120 {
                for (follower, position, set, seen) in noted where !follower.closed {
                    let again = WatchSubscriber(capacity: 100_000) {}
                    let id = try durable.watch(follower.spec, by: follower.principal, after: position, for: again)
                    let replayed = again.take()
                    let live = Array(follower.events[seen...]).filter { $0.kind != .ready }
                    #expect(replayed.last?.kind == .ready)
                    #expect(
                        replayed.dropLast().map { Self.withoutWatch($0) } == live.map { Self.withoutWatch($0) },
                        "resume of watch \(follower.id) from \(position)")
                    var resumed = set
                    for event in replayed {
                        guard let object = event.object, let measured = event.measure() else { continue }
                        if event.kind == .exit {
                            resumed[object.id] = nil
                        } else {
                            resumed[object.id] = Snapshot(
                                name: object.name, coordinate: object.coordinate, distance: measured.distanceMeters,
                                bearing: measured.bearingDegrees)
                        }
                    }
                    #expect(resumed == follower.set)
                    #expect(durable.unwatch(id, for: again))
                }
            }
            let users = liveUsers()
            let roll = random.nextUnit()
            if roll < 0.35, let user = users.randomElement(using: &random) {
                // Moves: mostly somewhere in the region, sometimes onto a watch's boundary.
                var location: Coordinate? = region.point(&random)
                if random.nextUnit() < 0.1 { location = nil }
                if random.nextUnit() < 0.2, let follower = followers.randomElement(using: &random),
                    case .point(let center) = follower.spec.center,
                    let target = durable.read({ $0.places.collections["pharmacy"]?.places.first?.coordinate })
                {
                    // Onto a point at the same distance as the first pharmacy: two objects on one ring.
                    _ = center
                    location = target
                }
                try await durable.perform(.moveUser(user.id, to: location), presenting: tokens[user.id])
            } else if roll < 0.5, let user = users.randomElement(using: &random) {
                let visibility: Visibility = user.visibility == .public ? .private : .public
                try await durable.perform(.setVisibility(user.id, visibility), presenting: tokens[user.id])
            } else if roll < 0.56, let user = users.randomElement(using: &random) {
                try await durable.perform(.removeUser(user.id), by: .admin)
            } else if roll < 0.6 {
                try await addUser()
            } else if roll < 0.8 {
                let number = Int(random.next() % 10)
                // Now and then renamed where it stands: a move event with the same coordinate.
                let standing = durable.read { $0.places.place(kind: "pharmacy", id: "p\(number)")?.coordinate }
                let coordinate = random.nextUnit() < 0.3 ? standing ?? region.point(&random) : region.point(&random)
                let place = Place(
                    id: "p\(number)", kind: "pharmacy", name: "Pharmacy \(number)\(random.nextUnit() < 0.3 ? "b" : "")",
                    coordinate: coordinate)
                try await durable.perform(.setPlace(place), by: .admin)
            } else if roll < 0.86 {
                let number = Int(random.next() % 10)
                _ = try? await durable.perform(.removePlace(kind: "pharmacy", id: "p\(number)"), by: .admin)
            } else if roll < 0.95 {
                try newWatch()
            } else if let follower = followers.filter({ !$0.closed }).randomElement(using: &random) {
                #expect(durable.unwatch(follower.id, for: follower.subscriber))
                follower.closed = true
            }
            let publicAfter = publicNow()
            try check(followers, durable: durable, publicBefore: publicBefore, publicAfter: publicAfter, step: step)
            publicBefore = publicAfter
        }
        #expect(followers.contains { !$0.events.isEmpty })
    }

    /// An event with its watch's id zeroed, to compare two watches' streams.
    static func withoutWatch(_ event: WatchEvent) -> WatchEvent {
        var event = event
        event.watch = 0
        return event
    }

    /// Takes every follower's new events, replays them, and compares with brute force.
    @discardableResult
    func check(
        _ followers: [Follower], durable: DurableDirectory, publicBefore: [String: Bool], publicAfter: [String: Bool],
        step: Int
    ) throws -> Int {
        var taken = 0
        for follower in followers where !follower.closed {
            let events = follower.subscriber.take()
            taken += events.count
            follower.events += events
            for event in events {
                #expect(event.watch == follower.id)
                if follower.spec.kind == PlaceDirectory.userKind, let object = event.object,
                    follower.principal != .user(object.id)
                {
                    // Only about a user public just before or after: private users are nobody
                    // else's business.
                    #expect(
                        publicBefore[object.id] == true || publicAfter[object.id] == true,
                        "step \(step): \(event.kind) names \(object.id) to \(follower.principal)")
                }
                switch event.kind {
                case .inside, .enter, .move:
                    let object = try #require(event.object)
                    let measured = try #require(event.measure())
                    follower.set[object.id] = Snapshot(
                        name: object.name, coordinate: object.coordinate, distance: measured.distanceMeters,
                        bearing: measured.bearingDegrees)
                case .exit:
                    let object = try #require(event.object)
                    #expect(follower.set.removeValue(forKey: object.id) != nil, "step \(step): exit of a non-member")
                case .closed:
                    follower.closed = true
                case .ready, .center, .reset:
                    break
                }
            }
            if follower.closed { continue }
            let expected = try bruteForce(follower, durable: durable)
            #expect(
                follower.set == expected, "step \(step): watch \(follower.id) \(follower.spec) as \(follower.principal)"
            )
        }
        return taken
    }

    /// What the follower's watch must hold now, by scanning every object.
    func bruteForce(_ follower: Follower, durable: DurableDirectory) throws -> [String: Snapshot] {
        try durable.read { directory throws -> [String: Snapshot] in
            let center: Coordinate?
            switch follower.spec.center {
            case .point(let point): center = point
            case .user(let id): center = directory.registry.users[id]?.location
            }
            guard let center else { return [:] }
            var objects: [(String, String, Coordinate)] = []
            if follower.spec.kind == PlaceDirectory.userKind {
                for user in directory.registry.users.values {
                    guard let location = user.location,
                        user.visibility == .public || follower.principal == .user(user.id)
                    else { continue }
                    objects.append((user.id, user.name, location))
                }
            } else {
                for place in directory.places.collections[follower.spec.kind]?.places ?? [] {
                    guard directory.places.handle(kind: place.kind, id: place.id) != nil else { continue }
                    objects.append((place.id, place.name, place.coordinate))
                }
            }
            var snapshot: [String: Snapshot] = [:]
            for (id, name, coordinate) in objects {
                let measured = try follower.spec.model.measure(center, coordinate)
                guard measured.distanceMeters <= follower.spec.radiusMeters else { continue }
                snapshot[id] = Snapshot(
                    name: name, coordinate: coordinate, distance: measured.distanceMeters, bearing: measured.bearing)
            }
            return snapshot
        }
    }
}

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    // swift-format-ignore: NeverUseForceTry
    try! Coordinate(latitude: latitude, longitude: longitude)
}
