import Foundation
import Geo

/// The watches of one directory: who watches what, the spatial index of their circles, the
/// recent transitions kept for resuming, and the evaluation of every applied change.
///
/// Every method runs under the hub's lock. The directory calls `step`/`evaluate` around each
/// change it applies, holding its write lock, and `register` holding its read lock, so a watch's
/// initial set and the changes after it never overlap or leave a gap.
final class WatchHub: @unchecked Sendable {
    final class Watch {
        // The fields an evaluation reads come first, so that they share the object's first cache
        // lines: with 100,000 watches, a visit is a cache miss, and one is better than five.
        /// How many objects the subscriber was last told are inside. Which ones is not kept: an
        /// object is inside exactly when its state before a change is within the circle and seen
        /// by the principal, so each change is decided by its own before and after.
        var size = 0
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
        /// The digest of the token that made it (nil: anonymous): when the principal's token is no
        /// longer this one, the watch ends.
        var digest: TokenDigest?

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
    /// Counts evaluations; by slot, the last evaluation whose old location, new location, and
    /// roaming re-centring found the watch (contiguous, so that marking touches no watch).
    var stamp: UInt64 = 0
    var oldMarks: [UInt64] = []
    var newMarks: [UInt64] = []
    var doneMarks: [UInt64] = []
    /// Events held for each subscriber while one change is evaluated.
    var outbox: [(subscriber: WatchSubscriber, events: [WatchEvent])] = []
    var outboxSlots: [ObjectIdentifier: Int] = [:]
    /// Watches whose set grew beyond the limit during the current change.
    var overfull: [Watch] = []
    /// Subscribers owed a wake, called once no lock is held (`takeWakes`).
    var wakes: [WatchSubscriber] = []

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
        let digest: TokenDigest?
        switch principal {
        case .anonymous: digest = nil
        case .admin: digest = directory.adminTokenDigest
        case .user(let id): digest = directory.tokenDigest(ofUser: id)
        }
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
        watch.digest = digest
        var events: [WatchEvent]
        if let after, after <= position, after >= historyFrom, !missesOwnRecord(of: principal, after: after) {
            events = replay(watch, after: after, directory: directory, position: position)
        } else {
            events = []
            if let after {
                let reason =
                    after > position
                    ? "position \(after) is ahead of this server's \(position)"
                    : after < historyFrom
                        ? "the changes after position \(after) are no longer remembered (from \(historyFrom) on)"
                        : "the user who asks was removed or added since position \(after)"
                events.append(watch.event(.reset, position, message: reason + "; a fresh snapshot follows"))
            }
            let view = WatchView(directory: directory)
            move(watch, to: centerNow(of: watch, in: view))
            let inside = watch.circle.map { view.members(of: spec.kind, in: $0, principal: principal) } ?? []
            watch.size = inside.count
            for object in inside { events.append(watch.event(.inside, position, object)) }
        }
        events.append(watch.event(.ready, position))
        guard watch.size <= limits.maximumObjects else {
            if slot < slots.count { freeSlots.append(slot) }
            throw .invalidValue(
                noun: "watch", value: "\(watch.size) objects within \(spec.radiusMeters) m",
                expected: "at most \(limits.maximumObjects) (--max-watch-objects); narrow the radius")
        }
        nextID += 1
        // Registered only now, so that `move` above did not index it twice.
        if slot == slots.count {
            slots.append(watch)
            oldMarks.append(0)
            newMarks.append(0)
            doneMarks.append(0)
        } else {
            slots[Int(slot)] = watch
        }
        watches[watch.id] = watch
        if let circle = watch.circle { indexes[spec.kind, default: CapIndex()].insert(circle, id: slot) }
        if case .user(let id) = spec.center { roaming[id, default: []].insert(watch.id) }
        byPrincipal[principal, default: []].insert(watch.id)
        bySubscriber[ObjectIdentifier(subscriber), default: []].insert(watch.id)
        statistics.eventsQueued += events.count
        var owesWake = false
        if !subscriber.deliver(events, owesWake: &owesWake) {
            drop(subscriber, position: position)
        } else if owesWake {
            wakes.append(subscriber)
        }
        return watch.id
    }

    /// Whether a resume by `principal` after `position` would cross the removal or addition of
    /// the asker's own user: the record it saw then may be another person's under the same id.
    func missesOwnRecord(of principal: Principal, after position: LogPosition) -> Bool {
        guard case .user(let own) = principal else { return false }
        return history.contains { transition in
            transition.position > position && transition.key.kind == PlaceDirectory.userKind
                && transition.key.id == own && (transition.before == nil || transition.after == nil)
        }
    }

    /// Whether applied changes must be captured: someone watches, or transitions are kept.
    var isCapturing: Bool { lock.withLock { !watches.isEmpty || limits.historyChanges > 0 } }

    /// The subscribers owed a wake; the caller wakes them once it holds no lock.
    func takeWakes() -> [WatchSubscriber] {
        lock.withLock {
            defer { wakes.removeAll() }
            return wakes
        }
    }

    /// Ends one watch of a subscriber, without an event.
    func unregister(_ id: WatchID, for subscriber: WatchSubscriber) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let watch = watches[id], watch.subscriber === subscriber else { return false }
        remove(watch)
        subscriber.forget(id)
        return true
    }

    /// Ends every watch of a subscriber and closes it.
    func unregisterAll(for subscriber: WatchSubscriber) {
        let wake = lock.withLock {
            for id in bySubscriber[ObjectIdentifier(subscriber)] ?? [] {
                if let watch = watches[id] { remove(watch) }
            }
            return subscriber.close(with: [])
        }
        if wake { subscriber.wake() }
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
        if subscriber.close(with: finals) { wakes.append(subscriber) }
    }

    /// The centre of a watch in a view: its point, or where its user is — exactly for the user's
    /// own watch, at the published location for anyone else's (the admin's), as every query of
    /// theirs sees the user, so a move inside the cell moves no one else's watch.
    func centerNow(of watch: Watch, in view: WatchView) -> Coordinate? {
        switch watch.spec.center {
        case .point(let point): return point
        case .user(let id):
            let state = view.state(of: WatchedKey(kind: PlaceDirectory.userKind, id: id))
            return watch.principal == .user(id) ? state?.location : state?.published
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
