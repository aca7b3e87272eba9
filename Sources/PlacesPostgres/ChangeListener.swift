import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The wake-up of `waitForChanges`: a connection of its own that `LISTEN`s on the channel every
/// commit notifies (`pg_notify(ChangeListener.channel, position)`, sent when the transaction
/// commits), reconnecting with backoff when it is lost.
///
/// PostgreSQL does not keep notifications for a session that is not connected: after a reconnect
/// the next wait returns at once, so that the follower reads what was committed meanwhile.
final class ChangeListener: Sendable {
    /// The notification channel.
    static let channel = "vicinity_changes"

    private struct State {
        /// The highest position notified so far.
        var notified: UInt64 = 0
        /// Counts LISTENs begun; a wait that finds it changed returns at once.
        var generation = 0
        /// The generation the last wait saw.
        var seenGeneration = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let wakeUp = NSCondition()
    private let settings: PostgresSettings
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(settings: PostgresSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Starts listening in the background.
    func start() {
        let started = Task { [self] in await run() }
        task.withLock { $0 = started }
    }

    /// Stops listening.
    func close() {
        state.withLock { $0.closed = true }
        task.withLock { $0?.cancel() }
        signal()
    }

    /// Blocks until a position after `position` is notified, the listener has reconnected since
    /// the last wait, or `timeout` seconds have passed.
    func wait(after position: UInt64, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        wakeUp.lock()
        defer { wakeUp.unlock() }
        while true {
            let ready = state.withLock { state -> Bool in
                if state.closed || state.notified > position { return true }
                if state.generation != state.seenGeneration {
                    state.seenGeneration = state.generation
                    return true
                }
                return false
            }
            if ready || !wakeUp.wait(until: deadline) { return }
        }
    }

    private func signal() {
        wakeUp.lock()
        wakeUp.broadcast()
        wakeUp.unlock()
    }

    private func run() async {
        var backoff = ReconnectingConnection.firstBackoff
        while !Task.isCancelled, !state.withLock({ $0.closed }) {
            var connection: PostgresConnection?
            do {
                let opened = try await ReconnectingConnection.open(settings, logger: logger)
                connection = opened
                try await withTaskCancellationHandler {
                    try await opened.listen(on: Self.channel) { notifications in
                        state.withLock { $0.generation += 1 }
                        signal()
                        backoff = ReconnectingConnection.firstBackoff
                        for try await notification in notifications {
                            guard let position = UInt64(notification.payload) else { continue }
                            state.withLock { $0.notified = max($0.notified, position) }
                            signal()
                        }
                    }
                } onCancel: {
                    opened.close().whenComplete { _ in }
                }
            } catch {
                if !Task.isCancelled {
                    logger.debug(
                        "PostgreSQL listener lost; reconnecting",
                        metadata: ["database": "\(settings)", "reason": "\(PostgresFailure.reason(of: error))"])
                }
            }
            if let connection { try? await connection.close() }
            try? await Task.sleep(nanoseconds: UInt64(backoff * 1e9))
            backoff = min(backoff * 2, ReconnectingConnection.longestBackoff)
        }
    }
}
