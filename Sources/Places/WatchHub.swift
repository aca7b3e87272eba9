import Foundation
import Geo

/// The watches of one directory: who watches what, the spatial index of their circles, the
/// recent transitions kept for resuming, and the evaluation of every applied change.
///
/// Every method runs under the hub's lock. The directory calls `capture`/`evaluate` around each
/// change it applies, holding its write lock, and `register` holding its read lock, so a watch's
/// initial set and the changes after it never overlap or leave a gap.
final class WatchHub: @unchecked Sendable {
    final class Watch {
        // The fields an evaluation reads come first, so that they share the object's first cache
        // lines: with 100,000 watches, a visit is a cache miss, and one is better than five.
        /// The last evaluation that visited it (one visit per change).
        var stamp: UInt64 = 0
        /// What the subscriber was last told is inside, by id.
        var members: [String: WatchedObject] = [:]
        let id: WatchID
        let principal: Principal
        let subscriber: WatchSubscriber
        /// The centre now (nil: a roaming watch whose user has no location).
        var center: Coordinate?
        let model: DistanceModel
        /// Its number in `indexes[spec.kind]` while it has a circle.
        let slot: UInt32
        let spec: WatchSpec
        var circle: Circle?

        init(id: WatchID, spec: WatchSpec, principal: Principal, subscriber: WatchSubscriber, slot: UInt32) {
            self.id = id
            self.spec = spec
            self.principal = principal
            self.subscriber = subscriber
            self.slot = slot
            model = spec.model
        }

        func event(
            _ kind: WatchEvent.Kind, _ position: LogPosition, _ object: WatchedObject? = nil,
            center: Coordinate? = nil, message: String? = nil
        ) -> WatchEvent {
            WatchEvent(
                watch: id, kind: kind, position: position, object: object, center: center ?? self.center,
                model: model, message: message)
        }
    }

    let lock = NSLock()
    var limits = WatchLimits()
    var statistics = WatchStatistics()
    var watches: [WatchID: Watch] = [:]
    /// Watch by slot; slots are reused, ids never.
    var slots: [Watch?] = []
    var freeSlots: [UInt32] = []
    /// The circles of the watches of each kind.
    var indexes: [String: CapIndex] = [:]
    /// Roaming watches by the user they follow.
    var roaming: [String: Set<WatchID>] = [:]
    var byPrincipal: [Principal: Set<WatchID>] = [:]
    var bySubscriber: [ObjectIdentifier: Set<WatchID>] = [:]
    var nextID: WatchID = 1
    /// The latest transitions, oldest first.
    var history: [WatchTransition] = []
    /// A resume from any position at or after this one can be replayed exactly.
    var historyFrom: LogPosition
    /// Counts evaluations, to visit each watch once per change.
    var stamp: UInt64 = 0
    /// Events held for each subscriber while one change is evaluated.
    var outbox: [(subscriber: WatchSubscriber, events: [WatchEvent])] = []
    var outboxSlots: [ObjectIdentifier: Int] = [:]

    init(position: LogPosition) {
        historyFrom = position
    }

    // MARK: - Registering

    /// Adds a watch and queues its first events: the initial set and `ready`, or the replay of
    /// what happened after `after`. Called with the directory's read lock held.
    func register(
        _ spec: WatchSpec, principal: Principal, after: LogPosition?, subscriber: WatchSubscriber,
        directory: PlaceDirectory, position: LogPosition
    ) throws(PlacesError) -> WatchID {
        lock.lock()
        defer { lock.unlock() }
        guard !subscriber.isClosed else { throw .closed }
        guard watches.count < limits.maximumWatches else {
            throw .tooManyWatches(limit: limits.maximumWatches, scope: "this server", flag: "--max-watches")
        }
        let held = bySubscriber[ObjectIdentifier(subscriber)]?.count ?? 0
        guard held < limits.maximumPerSubscriber else {
            throw .tooManyWatches(
                limit: limits.maximumPerSubscriber, scope: "this connection", flag: "--max-watches-per-client")
        }
        let slot = freeSlots.popLast() ?? UInt32(slots.count)
        let watch = Watch(id: nextID, spec: spec, principal: principal, subscriber: subscriber, slot: slot)
        nextID += 1
        var events: [WatchEvent]
        if let after, after <= position, after >= historyFrom {
            events = replay(watch, after: after, directory: directory, position: position)
        } else {
            events = []
            if let after {
                let reason =
                    after > position
                    ? "position \(after) is ahead of this server's \(position)"
                    : "the changes after position \(after) are no longer remembered (from \(historyFrom) on)"
                events.append(watch.event(.reset, position, message: reason + "; a fresh snapshot follows"))
            }
            let view = WatchView(directory: directory)
            move(watch, to: centerNow(of: watch, in: view))
            let inside = watch.circle.map { view.members(of: spec.kind, in: $0, principal: principal) } ?? []
            for object in inside {
                watch.members[object.id] = object
                events.append(watch.event(.inside, position, object))
            }
        }
        events.append(watch.event(.ready, position))
        // Registered only now, so that `move` above did not index it twice.
        if slot == slots.count { slots.append(watch) } else { slots[Int(slot)] = watch }
        watches[watch.id] = watch
        if let circle = watch.circle { indexes[spec.kind, default: CapIndex()].insert(circle, id: slot) }
        if case .user(let id) = spec.center { roaming[id, default: []].insert(watch.id) }
        byPrincipal[principal, default: []].insert(watch.id)
        bySubscriber[ObjectIdentifier(subscriber), default: []].insert(watch.id)
        subscriber.state.withLock { _ = $0.watches.insert(watch.id) }
        statistics.eventsQueued += events.count
        if !subscriber.deliver(events) { drop(subscriber, position: position) }
        return watch.id
    }

    /// Ends one watch of a subscriber, without an event.
    func unregister(_ id: WatchID, for subscriber: WatchSubscriber) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let watch = watches[id], watch.subscriber === subscriber else { return false }
        remove(watch)
        return true
    }

    /// Ends every watch of a subscriber and closes it.
    func unregisterAll(for subscriber: WatchSubscriber) {
        lock.lock()
        defer { lock.unlock() }
        for id in bySubscriber[ObjectIdentifier(subscriber)] ?? [] {
            if let watch = watches[id] { remove(watch) }
        }
        subscriber.close(with: [])
    }

    var snapshotStatistics: WatchStatistics {
        lock.withLock {
            var statistics = self.statistics
            statistics.watches = watches.count
            statistics.subscribers = bySubscriber.count
            return statistics
        }
    }

    /// Forgets a watch everywhere (the caller tells the subscriber, if anything).
    func remove(_ watch: Watch) {
        watches[watch.id] = nil
        if watch.circle != nil { indexes[watch.spec.kind]?.remove(watch.slot) }
        slots[Int(watch.slot)] = nil
        freeSlots.append(watch.slot)
        if case .user(let id) = watch.spec.center {
            roaming[id]?.remove(watch.id)
            if roaming[id]?.isEmpty == true { roaming[id] = nil }
        }
        byPrincipal[watch.principal]?.remove(watch.id)
        if byPrincipal[watch.principal]?.isEmpty == true { byPrincipal[watch.principal] = nil }
        let key = ObjectIdentifier(watch.subscriber)
        bySubscriber[key]?.remove(watch.id)
        if bySubscriber[key]?.isEmpty == true { bySubscriber[key] = nil }
        watch.subscriber.state.withLock { _ = $0.watches.remove(watch.id) }
    }

    /// Closes a subscriber that fell behind: all its watches end, each with a `closed` event.
    func drop(_ subscriber: WatchSubscriber, position: LogPosition) {
        var finals: [WatchEvent] = []
        for id in (bySubscriber[ObjectIdentifier(subscriber)] ?? []).sorted() {
            guard let watch = watches[id] else { continue }
            finals.append(
                watch.event(
                    .closed, position,
                    message:
                        "the subscriber fell more than \(subscriber.capacity) events behind; its watches are closed"
                ))
            remove(watch)
        }
        statistics.subscribersDropped += 1
        subscriber.close(with: finals)
    }

    /// The centre of a watch in a view: its point, or where its user is.
    func centerNow(of watch: Watch, in view: WatchView) -> Coordinate? {
        switch watch.spec.center {
        case .point(let point): return point
        case .user(let id): return view.state(of: WatchedKey(kind: PlaceDirectory.userKind, id: id))?.location
        }
    }

    /// Sets a watch's centre and circle (not its index entry: the caller re-indexes a registered one).
    func move(_ watch: Watch, to center: Coordinate?) {
        watch.center = center
        watch.circle = center.flatMap {
            try? Circle(center: $0, radiusMeters: watch.spec.radiusMeters, model: watch.spec.model)
        }
    }
}
