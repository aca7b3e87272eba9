import Places
import Synchronization

/// One connection's geo watches (`WATCH NEARBY …`, `SUBSCRIBE "NEARBY …"`): its single
/// `WatchSubscriber`, made on the first watch, and the channel name each watch's events carry.
///
/// Thread-safe; the connection's handler reads it on its event loop, commands change it there too.
final class ConnectionWatches: Sendable {
    /// The most events the subscriber queues before it is closed for falling behind (1 or more).
    let capacity: Int
    private let wake: @Sendable () -> Void
    private struct State {
        var subscriber: WatchSubscriber?
        /// Each watch's channel, in the order the watches were made.
        var channels: [(id: WatchID, channel: String)] = []
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - capacity: the subscriber's queue, events (`ServerConfiguration.watchQueue`).
    ///   - wake: called (on the applying thread; must not block) when events arrive in the
    ///     subscriber's empty queue: the connection then drains it on its own loop.
    init(capacity: Int, wake: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.wake = wake
    }

    /// The subscriber, made now when this is the connection's first watch.
    func subscriber() -> WatchSubscriber {
        state.withLock { state in
            if let subscriber = state.subscriber { return subscriber }
            let subscriber = WatchSubscriber(capacity: capacity, wake: wake)
            state.subscriber = subscriber
            return subscriber
        }
    }

    /// The subscriber if one was made.
    var current: WatchSubscriber? { state.withLock { $0.subscriber } }

    /// Notes a new watch; the number of watches afterwards.
    func add(_ id: WatchID, channel: String) -> Int {
        state.withLock { state in
            state.channels.append((id, channel))
            return state.channels.count
        }
    }

    /// Forgets a watch; its channel and the number of watches left, or nil when there is no such watch.
    func remove(_ id: WatchID) -> (channel: String, remaining: Int)? {
        state.withLock { state in
            guard let index = state.channels.firstIndex(where: { $0.id == id }) else { return nil }
            let channel = state.channels.remove(at: index).channel
            return (channel, state.channels.count)
        }
    }

    /// The watches, in the order they were made.
    var all: [(id: WatchID, channel: String)] { state.withLock { $0.channels } }

    /// The channel of a watch, nil once it ended.
    func channel(of id: WatchID) -> String? {
        state.withLock { state in state.channels.first { $0.id == id }?.channel }
    }

    /// How many watches the connection holds.
    var count: Int { state.withLock { $0.channels.count } }
}
