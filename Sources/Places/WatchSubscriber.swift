import Foundation
import Synchronization

/// One consumer of watch events — a line-protocol connection, an SSE stream — with a bounded
/// queue of its own.
///
/// The directory appends events as it applies changes, never waiting: when the queue would grow
/// beyond `capacity`, the subscriber is closed instead (its watches are dropped, its queue is
/// emptied and holds one `closed` event per watch), so a subscriber that does not read costs at
/// most `capacity` events of memory and never delays anybody else. `wake` runs (on the applying
/// thread; it must not block) whenever events arrive in an empty queue: the front end then calls
/// `take()` from its own thread, and again until it returns nothing; it also runs once when the
/// subscriber is closed.
public final class WatchSubscriber: Sendable {
    struct State {
        var queue: [WatchEvent] = []
        var closed = false
        /// The subscriber's watches (kept by the hub; here for the per-subscriber limit).
        var watches: Set<WatchID> = []
        /// Whether `wake` is owed: set when the queue was emptied by `take`.
        var asleep = true
    }

    /// The most events the queue holds before the subscriber is closed.
    public let capacity: Int
    let wake: @Sendable () -> Void
    let state = Mutex(State())

    /// - Parameters:
    ///   - capacity: the most events queued at once, 1 or more.
    ///   - wake: called when events arrive in an empty queue; must not block.
    public init(capacity: Int = 10_000, wake: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.wake = wake
    }

    /// Takes every queued event, in order (the events of one log position always together).
    public func take() -> [WatchEvent] {
        state.withLock { state in
            let events = state.queue
            state.queue = []
            state.asleep = true
            return events
        }
    }

    /// True once closed (by falling behind, or by `DurableDirectory.unwatchAll`): no further
    /// events come, but those queued (the final `closed` ones) can still be taken.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// The watches this subscriber holds.
    public var watches: Set<WatchID> { state.withLock { $0.watches } }

    /// Appends the events of one position. Returns false when they did not fit: the caller closes
    /// the subscriber.
    func deliver(_ events: [WatchEvent]) -> Bool {
        guard !events.isEmpty else { return true }
        let (accepted, wakeUp) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (true, false) }
            guard state.queue.count + events.count <= capacity else { return (false, false) }
            state.queue.append(contentsOf: events)
            let wakeUp = state.asleep
            state.asleep = false
            return (true, wakeUp)
        }
        if wakeUp { wake() }
        return accepted
    }

    /// Closes: empties the queue, and queues `finals` (one `closed` event per watch) in its place.
    /// Always wakes the front end, even one that stopped taking (a full socket), so that it can
    /// end the connection.
    func close(with finals: [WatchEvent]) {
        let closing = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closed = true
            state.queue = finals
            state.watches = []
            state.asleep = false
            return true
        }
        if closing { wake() }
    }
}
