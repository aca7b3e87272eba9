import Foundation
import Synchronization

/// One consumer of watch events — a line-protocol connection, an SSE stream — with a bounded
/// queue of its own.
///
/// The directory appends events as it applies changes, never waiting: when the queue would grow
/// beyond `capacity`, the subscriber is closed instead (its watches are dropped, its queue is
/// emptied and holds one `closed` event per watch), so a subscriber that does not read costs at
/// most `capacity` events of memory and never delays anybody else. `wake` runs (on the applying
/// thread, after the directory's locks are released; it must not block) whenever events arrive in
/// an empty queue: the front end then calls `take()` from its own thread, and again until it
/// returns nothing; it also runs once when the subscriber is closed.
public final class WatchSubscriber: Sendable {
    struct State {
        /// The queued events, as the batches they came in (one position's each): the applying
        /// thread appends a batch without copying its events; `take` joins them on the front
        /// end's thread.
        var batches: [[WatchEvent]] = []
        var count = 0
        var closed = false
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
        let batches = state.withLock { state in
            let batches = state.batches
            state.batches = []
            state.count = 0
            state.asleep = true
            return batches
        }
        return batches.count == 1 ? batches[0] : Array(batches.joined())
    }

    /// True once closed (by falling behind, or by `DurableDirectory.unwatchAll`): no further
    /// events come, but those queued (the final `closed` ones) can still be taken.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Appends the events of one position: false when they do not fit (the caller closes the
    /// subscriber). One position's events always go into an empty queue, however many: a watch's
    /// set is bounded by `WatchLimits.maximumObjects`, and splitting them would break the rule that
    /// a position's events come together.
    ///
    /// - Parameter owesWake: set to true when the front end must be woken (by the caller, once it
    ///   holds no lock).
    func deliver(_ events: [WatchEvent], owesWake: inout Bool) -> Bool {
        guard !events.isEmpty else { return true }
        return state.withLock { state -> Bool in
            guard !state.closed else { return true }
            guard state.count == 0 || state.count + events.count <= capacity else { return false }
            state.batches.append(events)
            state.count += events.count
            if state.asleep { owesWake = true }
            state.asleep = false
            return true
        }
    }

    /// Closes: empties the queue, and queues `finals` (one `closed` event per watch) in its place.
    /// The front end is always owed a wake, even one that stopped taking (a full socket), so that
    /// it can end the connection.
    ///
    /// - Returns: whether it was open (then the caller wakes it, once it holds no lock).
    func close(with finals: [WatchEvent]) -> Bool {
        state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closed = true
            state.batches = finals.isEmpty ? [] : [finals]
            state.count = finals.count
            state.asleep = false
            return true
        }
    }

    /// Forgets the queued events of one watch (ended by its subscriber: none follow it).
    func forget(_ watch: WatchID) {
        state.withLock { state in
            state.batches = state.batches.map { $0.filter { $0.watch != watch } }.filter { !$0.isEmpty }
            state.count = state.batches.reduce(0) { $0 + $1.count }
        }
    }
}
