import Foundation
import Geo

/// What one change means for the watches, worked out before it is applied: the object it
/// touches, as it was and as it will be, and the watches it ends.
struct WatchStep {
    var position: LogPosition
    var transition: WatchTransition?
    /// Watches of this principal end (its token stopped working).
    var revoked: (principal: Principal, reason: String)?
    /// Roaming watches following this user end (the user was removed).
    var removedUser: String?
}

extension WatchHub {
    /// Works out what `change`, about to be applied to `directory` at `position`, does for the
    /// watches. `overlay` holds the states of objects changed earlier in the same run of changes
    /// that is applied at once (an import), which `directory` does not show yet.
    static func step(
        for change: DirectoryChange, at position: LogPosition, in directory: PlaceDirectory,
        overlay: inout [WatchedKey: ObjectState?]
    ) -> WatchStep {
        var step = WatchStep(position: position)
        func before(_ key: WatchedKey) -> ObjectState? {
            if let overridden = overlay[key] { return overridden }
            return directory.watchState(of: key)
        }
        if let effect = PlaceDirectory.watchEffect(of: change, before: before) {
            step.transition = WatchTransition(
                position: position, key: effect.key, before: before(effect.key), after: effect.after)
            overlay.updateValue(effect.after, forKey: effect.key)
        }
        switch change {
        case .addUser(let user, let digest), .putUser(let user, let digest):
            if let old = directory.tokenDigest(ofUser: user.id), old != digest {
                step.revoked = (.user(user.id), "the token that made this watch was replaced")
            }
        case .removeUser(let id):
            step.revoked = (.user(id), "the user who made this watch was removed")
            step.removedUser = id
        case .setAdminToken(let digest):
            if let old = directory.adminTokenDigest, old != digest {
                step.revoked = (.admin, "the admin token that made this watch was replaced")
            }
        default:
            break
        }
        return step
    }

    /// Evaluates applied changes against the watches and queues the events; `directory` is the
    /// directory after them (with the directory's write lock held).
    func evaluate(_ steps: [WatchStep], directory: PlaceDirectory) {
        guard let last = steps.last else { return }
        lock.lock()
        defer { lock.unlock() }
        record(steps, upTo: last.position)
        guard !watches.isEmpty else { return }
        let start = Self.threadCPUSeconds()
        let view = WatchView(directory: directory)
        for step in steps {
            if let transition = step.transition { evaluate(transition, view: view) }
            end(step)
            endOverfull(at: step.position)
            flush()
        }
        statistics.changesEvaluated += steps.count
        statistics.evaluationSeconds += Self.threadCPUSeconds() - start
    }

    /// The CPU time the calling thread has used, seconds: what an evaluation costs, whatever else
    /// the machine is doing.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Keeps the transitions for resuming, as many as the limit says.
    private func record(_ steps: [WatchStep], upTo position: LogPosition) {
        let keep = limits.historyChanges
        guard keep > 0 else {
            history.removeAll()
            historyFrom = position
            return
        }
        for step in steps { if let transition = step.transition { history.append(transition) } }
        if history.count > keep + keep / 4 + 64 {
            let dropped = history.count - keep
            historyFrom = max(historyFrom, history[dropped - 1].position)
            history.removeFirst(dropped)
        }
    }

    private func evaluate(_ transition: WatchTransition, view: WatchView) {
        stamp &+= 1
        let stamp = self.stamp
        let key = transition.key
        if key.kind == PlaceDirectory.userKind, let following = roaming[key.id] {
            for id in following.sorted() {
                guard let watch = watches[id] else { continue }
                let center = centerNow(of: watch, in: view)
                guard center != watch.center else { continue }
                doneMarks[Int(watch.slot)] = stamp
                // The set it held is the one at the old centre with the user as they were.
                var before = view
                before.overlay.updateValue(transition.before, forKey: key)
                queue(
                    recenter(watch, to: center, from: before, to: view, at: transition.position, registered: true),
                    for: watch)
            }
        }
        guard let index = indexes[key.kind] else { return }
        if transition.before?.isBlurred == true || transition.after?.isBlurred == true {
            evaluateBlurred(transition, index: index, stamp: stamp)
            return
        }
        // The watches containing the old location (the object may have been inside them), then
        // those containing the new one; each watch is decided by the object's state before and
        // after, as its principal sees them.
        var old: [UInt32] = []
        if let location = transition.before?.location {
            index.forEachContaining(location) { slot in
                oldMarks[Int(slot)] = stamp
                old.append(slot)
            }
        }
        if let location = transition.after?.location {
            index.forEachContaining(location) { slot in
                newMarks[Int(slot)] = stamp
                decide(slot, transition, wasWithin: oldMarks[Int(slot)] == stamp, isWithin: true)
            }
        }
        for slot in old where newMarks[Int(slot)] != stamp {
            decide(slot, transition, wasWithin: true, isWithin: false)
        }
    }

    /// A user seen at two locations (exact by themselves, published by everyone else): every
    /// watch containing any of them is a candidate, decided by where its principal sees the user.
    private func evaluateBlurred(_ transition: WatchTransition, index: CapIndex, stamp: UInt64) {
        var candidates: [UInt32] = []
        let points = [
            transition.before?.location, transition.before?.published, transition.after?.location,
            transition.after?.published,
        ]
        for case let point? in points {
            index.forEachContaining(point) { slot in
                guard oldMarks[Int(slot)] != stamp else { return }
                oldMarks[Int(slot)] = stamp
                candidates.append(slot)
            }
        }
        for slot in candidates {
            guard doneMarks[Int(slot)] != stamp, let watch = slots[Int(slot)], let circle = watch.circle else {
                continue
            }
            let wasWithin = Self.isWithin(circle, transition.before, transition.key, watch.principal)
            let isWithin = Self.isWithin(circle, transition.after, transition.key, watch.principal)
            if let event = event(in: watch, transition, wasWithin: wasWithin, isWithin: isWithin) {
                queue(event, for: watch)
            }
        }
    }

    /// Whether `principal` sees the object in `state` inside `circle`.
    static func isWithin(_ circle: Circle, _ state: ObjectState?, _ key: WatchedKey, _ principal: Principal) -> Bool {
        guard let object = state?.seen(as: key, by: principal) else { return false }
        return circle.contains(object.coordinate)
    }

    /// Queues the event a transition makes in the watch at `slot`, given whether its location
    /// before and after is within the watch's circle.
    @inline(__always)
    private func decide(_ slot: UInt32, _ transition: WatchTransition, wasWithin: Bool, isWithin: Bool) {
        guard doneMarks[Int(slot)] != stamp, let watch = slots[Int(slot)],
            let event = event(in: watch, transition, wasWithin: wasWithin, isWithin: isWithin)
        else { return }
        queue(event, for: watch)
    }

    /// The event for one object's change in one watch, if any: `enter`, `exit` (the object as it
    /// was: what was last reported) or `move`.
    func event(in watch: Watch, _ transition: WatchTransition, wasWithin: Bool, isWithin: Bool) -> WatchEvent? {
        let was = wasWithin ? transition.before?.seen(as: transition.key, by: watch.principal) : nil
        let now = isWithin ? transition.after?.seen(as: transition.key, by: watch.principal) : nil
        switch (was, now) {
        case (nil, let now?):
            watch.size += 1
            if watch.size > limits.maximumObjects { overfull.append(watch) }
            return watch.event(.enter, transition.position, now)
        case (let was?, nil):
            watch.size -= 1
            return watch.event(.exit, transition.position, was)
        case (let was?, let now?):
            return was == now ? nil : watch.event(.move, transition.position, now)
        case (nil, nil):
            return nil
        }
    }

    /// Brings a watch to a centre (the same or a new one): the events that take what it held in
    /// `old` (at its old centre) to what is within the new one in `new`: exits measured from the
    /// old centre, a `center` event if it moved, then enters and moves.
    func recenter(
        _ watch: Watch, to center: Coordinate?, from old: WatchView, to new: WatchView, at position: LogPosition,
        registered: Bool
    ) -> [WatchEvent] {
        let oldCenter = watch.center
        let held = watch.circle.map { old.members(of: watch.spec.kind, in: $0, principal: watch.principal) } ?? []
        let moved = center != oldCenter
        if moved {
            if registered && watch.circle != nil { indexes[watch.spec.kind]?.remove(watch.slot) }
            move(watch, to: center)
            if registered, let circle = watch.circle {
                indexes[watch.spec.kind, default: CapIndex()].insert(circle, id: watch.slot)
            }
        }
        let inside = watch.circle.map { new.members(of: watch.spec.kind, in: $0, principal: watch.principal) } ?? []
        let ids = Set(inside.map(\.id))
        var previous: [String: WatchedObject] = [:]
        for object in held { previous[object.id] = object }
        var events: [WatchEvent] = []
        for object in held.sorted(by: { $0.id < $1.id }) where !ids.contains(object.id) {
            events.append(watch.event(.exit, position, object, center: oldCenter))
        }
        if moved { events.append(watch.event(.center, position)) }
        for object in inside {
            if let old = previous[object.id] {
                if moved || old != object { events.append(watch.event(.move, position, object)) }
            } else {
                events.append(watch.event(.enter, position, object))
            }
        }
        watch.size = inside.count
        if inside.count > limits.maximumObjects { overfull.append(watch) }
        return events
    }

    /// Ends the watches whose set grew beyond `WatchLimits.maximumObjects`.
    private func endOverfull(at position: LogPosition) {
        guard !overfull.isEmpty else { return }
        for watch in overfull where watches[watch.id] != nil {
            queue(
                watch.event(
                    .closed, position,
                    message:
                        "more than \(limits.maximumObjects) objects inside (--max-watch-objects); narrow the radius"),
                for: watch)
            remove(watch)
        }
        overfull.removeAll()
    }

    /// Ends the watches a step revokes, each with a `closed` event.
    private func end(_ step: WatchStep) {
        var ended: [Watch] = []
        if let (principal, reason) = step.revoked {
            for id in (byPrincipal[principal] ?? []).sorted() {
                guard let watch = watches[id] else { continue }
                queue([watch.event(.closed, step.position, message: reason)], for: watch)
                ended.append(watch)
            }
        }
        if let user = step.removedUser {
            for id in (roaming[user] ?? []).sorted() {
                guard let watch = watches[id], watch.principal != .user(user) else { continue }
                queue(
                    [watch.event(.closed, step.position, message: "the user this watch follows was removed")],
                    for: watch)
                ended.append(watch)
            }
        }
        for watch in ended { remove(watch) }
    }

    /// Holds events for a watch's subscriber until `flush`.
    func queue(_ events: [WatchEvent], for watch: Watch) {
        guard !events.isEmpty else { return }
        outbox[outboxSlot(for: watch.subscriber)].events.append(contentsOf: events)
    }

    /// Holds one event for a watch's subscriber until `flush`.
    func queue(_ event: WatchEvent, for watch: Watch) {
        outbox[outboxSlot(for: watch.subscriber)].events.append(event)
    }

    private func outboxSlot(for subscriber: WatchSubscriber) -> Int {
        let key = ObjectIdentifier(subscriber)
        if let slot = outboxSlots[key] { return slot }
        outboxSlots[key] = outbox.count
        outbox.append((subscriber, []))
        return outbox.count - 1
    }

    /// Hands each subscriber the events held for it (those of one position together), closing the
    /// ones that fell behind.
    func flush() {
        guard !outbox.isEmpty else { return }
        var held: [(subscriber: WatchSubscriber, events: [WatchEvent])] = []
        swap(&held, &outbox)
        outboxSlots.removeAll(keepingCapacity: true)
        defer {
            // The emptied list goes back, with its capacity, for the next change.
            held.removeAll(keepingCapacity: true)
            if outbox.isEmpty { swap(&held, &outbox) }
        }
        for (subscriber, events) in held {
            statistics.eventsQueued += events.count
            var owesWake = false
            if !subscriber.deliver(events, owesWake: &owesWake) {
                drop(subscriber, position: events[0].position)
            } else if owesWake {
                wakes.append(subscriber)
            }
        }
    }

    // MARK: - Resuming and reloading

    /// The events a new watch missed after `after`, replayed from the kept transitions against the
    /// objects as they were then; leaves the watch holding what it holds now.
    func replay(_ watch: Watch, after: LogPosition, directory: PlaceDirectory, position: LogPosition) -> [WatchEvent] {
        var low = 0
        var high = history.count
        while low < high {
            let middle = (low + high) / 2
            if history[middle].position <= after { low = middle + 1 } else { high = middle }
        }
        let missed = history[low...]
        var view = WatchView(directory: directory)
        for transition in missed where view.overlay.index(forKey: transition.key) == nil {
            view.overlay.updateValue(transition.before, forKey: transition.key)
        }
        move(watch, to: centerNow(of: watch, in: view))
        watch.size =
            watch.circle.map { view.members(of: watch.spec.kind, in: $0, principal: watch.principal).count } ?? 0
        var events: [WatchEvent] = []
        for transition in missed {
            let before = view
            view.overlay.updateValue(transition.after, forKey: transition.key)
            if transition.key.kind == PlaceDirectory.userKind, case .user(let id) = watch.spec.center,
                id == transition.key.id
            {
                let center = centerNow(of: watch, in: view)
                if center != watch.center {
                    events += recenter(
                        watch, to: center, from: before, to: view, at: transition.position, registered: false)
                    continue
                }
            }
            guard transition.key.kind == watch.spec.kind, let circle = watch.circle else { continue }
            let wasWithin = Self.isWithin(circle, transition.before, transition.key, watch.principal)
            let isWithin = Self.isWithin(circle, transition.after, transition.key, watch.principal)
            if let event = event(in: watch, transition, wasWithin: wasWithin, isWithin: isWithin) {
                events.append(event)
            }
        }
        return events
    }

    /// Memory was replaced by a snapshot at `position`, `previous` being the position applied
    /// before: every watch is brought to it with the events that take its subscriber there, the
    /// watches whose token stopped working or whose followed user is gone end, and the kept
    /// transitions are forgotten. A snapshot behind `previous` (a database restored or failed
    /// over) will reuse positions up to it for other changes: resumes from them start afresh.
    func reload(from old: PlaceDirectory, to directory: PlaceDirectory, position: LogPosition, previous: LogPosition) {
        lock.lock()
        defer { lock.unlock() }
        history.removeAll()
        historyFrom = position < previous ? previous + 1 : position
        let view = WatchView(directory: directory)
        let oldView = WatchView(directory: old)
        for id in watches.keys.sorted() {
            guard let watch = watches[id] else { continue }
            if let reason = endedByReload(watch, directory: directory) {
                queue(watch.event(.closed, position, message: reason), for: watch)
                remove(watch)
                continue
            }
            queue(
                recenter(
                    watch, to: centerNow(of: watch, in: view), from: oldView, to: view, at: position, registered: true),
                for: watch)
            endOverfull(at: position)
        }
        flush()
    }

    /// Why a watch cannot go on in a directory loaded afresh, or nil: its token is no longer the
    /// principal's, or the user it follows is gone.
    private func endedByReload(_ watch: Watch, directory: PlaceDirectory) -> String? {
        switch watch.principal {
        case .anonymous: break
        case .admin:
            if directory.adminTokenDigest != watch.digest {
                return "the admin token that made this watch was replaced"
            }
        case .user(let id):
            if directory.tokenDigest(ofUser: id) != watch.digest {
                return "the token that made this watch was replaced, or its user removed"
            }
        }
        if case .user(let followed) = watch.spec.center, directory.registry.users[followed] == nil {
            return "the user this watch follows was removed"
        }
        return nil
    }
}
