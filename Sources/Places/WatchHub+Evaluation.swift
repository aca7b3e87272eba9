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
        case .putUser(let user, let digest):
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
        let key = transition.key
        if key.kind == PlaceDirectory.userKind, let following = roaming[key.id] {
            for id in following.sorted() {
                guard let watch = watches[id] else { continue }
                let center = centerNow(of: watch, in: view)
                guard center != watch.center else { continue }
                watch.stamp = stamp
                queue(recenter(watch, to: center, view: view, at: transition.position, registered: true), for: watch)
            }
        }
        guard let index = indexes[key.kind] else { return }
        // The watches containing the new location first (the object may be inside them), then
        // those containing the old one and not the new (it can only have left them).
        var inside = true
        let visit = { (slot: UInt32) in
            guard let watch = self.slots[Int(slot)], watch.stamp != self.stamp else { return }
            watch.stamp = self.stamp
            if let event = self.evaluate(watch, key, transition.after, inside: inside, at: transition.position) {
                self.queue(event, for: watch)
            }
        }
        if let location = transition.after?.location { index.forEachContaining(location, visit) }
        inside = false
        if let location = transition.before?.location, location != transition.after?.location {
            index.forEachContaining(location, visit)
        }
    }

    /// The event for one object's new state in one watch, if any, with the watch's set updated.
    /// `inside` says whether its location is within the watch's circle, when the caller knows.
    func evaluate(
        _ watch: Watch, _ key: WatchedKey, _ state: ObjectState?, inside: Bool? = nil, at position: LogPosition
    ) -> WatchEvent? {
        if let object = state?.seen(as: key, by: watch.principal),
            inside ?? (watch.circle?.contains(object.coordinate) ?? false)
        {
            guard let old = watch.members.updateValue(object, forKey: key.id) else {
                return watch.event(.enter, position, object)
            }
            return old == object ? nil : watch.event(.move, position, object)
        }
        guard let old = watch.members.removeValue(forKey: key.id) else { return nil }
        return watch.event(.exit, position, old)
    }

    /// Brings a watch to a centre (the same or a new one) and to what is within it in `view`:
    /// exits measured from the old centre, a `center` event if it moved, then enters and moves.
    func recenter(
        _ watch: Watch, to center: Coordinate?, view: WatchView, at position: LogPosition, registered: Bool
    ) -> [WatchEvent] {
        let oldCenter = watch.center
        let moved = center != oldCenter
        if moved {
            if registered && watch.circle != nil { indexes[watch.spec.kind]?.remove(watch.slot) }
            move(watch, to: center)
            if registered, let circle = watch.circle {
                indexes[watch.spec.kind, default: CapIndex()].insert(circle, id: watch.slot)
            }
        }
        let inside = watch.circle.map { view.members(of: watch.spec.kind, in: $0, principal: watch.principal) } ?? []
        let ids = Set(inside.map(\.id))
        var events: [WatchEvent] = []
        for (id, old) in watch.members.sorted(by: { $0.key < $1.key }) where !ids.contains(id) {
            events.append(watch.event(.exit, position, old, center: oldCenter))
        }
        if moved { events.append(watch.event(.center, position)) }
        var members: [String: WatchedObject] = [:]
        members.reserveCapacity(inside.count)
        for object in inside {
            if let old = watch.members[object.id] {
                if moved || old != object { events.append(watch.event(.move, position, object)) }
            } else {
                events.append(watch.event(.enter, position, object))
            }
            members[object.id] = object
        }
        watch.members = members
        return events
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
        let held = outbox
        outbox.removeAll(keepingCapacity: true)
        outboxSlots.removeAll(keepingCapacity: true)
        for (subscriber, events) in held {
            statistics.eventsQueued += events.count
            if !subscriber.deliver(events) { drop(subscriber, position: events[0].position) }
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
        watch.members = [:]
        for object in watch.circle.map({ view.members(of: watch.spec.kind, in: $0, principal: watch.principal) }) ?? []
        {
            watch.members[object.id] = object
        }
        var events: [WatchEvent] = []
        for transition in missed {
            view.overlay.updateValue(transition.after, forKey: transition.key)
            if transition.key.kind == PlaceDirectory.userKind, case .user(let id) = watch.spec.center,
                id == transition.key.id
            {
                let center = centerNow(of: watch, in: view)
                if center != watch.center {
                    events += recenter(watch, to: center, view: view, at: transition.position, registered: false)
                    continue
                }
            }
            if transition.key.kind == watch.spec.kind,
                let event = evaluate(watch, transition.key, transition.after, at: transition.position)
            {
                events.append(event)
            }
        }
        return events
    }

    /// Memory was replaced by a snapshot at `position`: every watch is brought to it with the
    /// events that take its subscriber there, and the kept transitions are forgotten.
    func reload(directory: PlaceDirectory, position: LogPosition) {
        lock.lock()
        defer { lock.unlock() }
        history.removeAll()
        historyFrom = position
        let view = WatchView(directory: directory)
        for id in watches.keys.sorted() {
            guard let watch = watches[id] else { continue }
            if case .user(let user) = watch.principal, directory.registry.users[user] == nil {
                queue([watch.event(.closed, position, message: "the user who made this watch was removed")], for: watch)
                remove(watch)
                continue
            }
            queue(
                recenter(watch, to: centerNow(of: watch, in: view), view: view, at: position, registered: true),
                for: watch)
        }
        flush()
    }
}
