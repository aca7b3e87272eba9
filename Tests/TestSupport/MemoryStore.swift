import Dispatch
import Foundation
import Places
import Synchronization

/// A `PlaceStore` in memory for tests: it stores nothing on disk (the directory in memory is the
/// whole truth), records each transaction and its change log, and can be told to fail or to hold
/// its commits.
public final class MemoryStore: PlaceStore, @unchecked Sendable {
    /// The error a commit throws when `fail(when:)` says so.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "disk full" }

        public init() {}
    }

    private struct State {
        var transactions: [[DirectoryChange]] = []
        var log: [LoggedChange] = []
        var failing: @Sendable (DirectoryChange) -> Bool = { _ in false }
        var failure: @Sendable () -> any Error = { Failure() }
        /// Set while the store plays a database out of reach: every call throws `storeUnavailable`.
        var unreachable: String?
        /// Reads of the log after a position before this one answer `.trimmed`.
        var trimmedThrough: LogPosition = 0
    }

    private let state = Mutex(State())
    /// When set, each `commit` signals `entered`, then waits for `release` before storing.
    public let gate: (entered: DispatchSemaphore, release: DispatchSemaphore)?

    /// - Parameter gated: hold every commit until the test signals `gate.release`.
    public init(gated: Bool = false) {
        gate = gated ? (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)) : nil
    }

    /// The transactions committed so far, in order.
    public var transactions: [[DirectoryChange]] { state.withLock { $0.transactions } }

    /// Changes for which `predicate` holds make their whole transaction fail with `Failure`, or
    /// with the error `failure` makes (`PlacesError.storeUnavailable` for a lost database).
    public func fail(
        when predicate: @escaping @Sendable (DirectoryChange) -> Bool,
        throwing failure: @escaping @Sendable () -> any Error = { Failure() }
    ) {
        state.withLock { state in
            state.failing = predicate
            state.failure = failure
        }
    }

    /// Plays a database that cannot be reached (`reason` set) or is back (nil): while out of
    /// reach, commits and reads of the log throw `PlacesError.storeUnavailable(reason)`.
    public func setUnreachable(_ reason: String?) {
        state.withLock { $0.unreachable = reason }
    }

    private func checkReachable(_ state: State) throws {
        if let reason = state.unreachable { throw PlacesError.storeUnavailable(reason) }
    }

    public func commit(_ changes: [DirectoryChange]) throws -> StoredCommit {
        if let gate {
            gate.entered.signal()
            gate.release.wait()
        }
        return try state.withLock { state in
            try checkReachable(state)
            if changes.contains(where: state.failing) { throw state.failure() }
            state.transactions.append(changes)
            let now = Date().timeIntervalSince1970
            for change in changes {
                state.log.append(
                    LoggedChange(position: LogPosition(state.log.count + 1), change: change, committedAt: now))
            }
            return StoredCommit(changes: changes, position: LogPosition(state.log.count))
        }
    }

    public func head() throws -> LogHead {
        try state.withLock { state in
            try checkReachable(state)
            return LogHead(position: LogPosition(state.log.count), committedAt: state.log.last?.committedAt)
        }
    }

    public func changes(after position: LogPosition, limit: Int) throws -> LogRead {
        try state.withLock { state in
            try checkReachable(state)
            if position < state.trimmedThrough { return .trimmed(oldestKept: state.trimmedThrough + 1) }
            let start = Int(min(position, LogPosition(state.log.count)))
            return .changes(Array(state.log[start..<min(state.log.count, start + max(1, limit))]))
        }
    }

    /// A memory store has no snapshot of its own: the directory in memory is the whole truth.
    public func snapshot(cellSizeMeters: Double?) throws -> DirectorySnapshot {
        var directory = PlaceDirectory(places: try PlaceCatalog(cellSizeMeters: cellSizeMeters))
        let log = state.withLock { $0.log }
        for entry in log { try directory.apply(entry.change) }
        return DirectorySnapshot(
            directory: directory, position: LogPosition(log.count), committedAt: log.last?.committedAt)
    }

    public func waitForChanges(after position: LogPosition, timeout: Double) {
        Thread.sleep(forTimeInterval: min(timeout, 0.01))
    }

    public func trimLog(keeping retention: LogRetention) throws -> Int { 0 }

    /// Plays a log trimmed through its newest entry: a follower behind it must load a snapshot.
    public func trimEverything() {
        state.withLock { $0.trimmedThrough = LogPosition($0.log.count) }
    }
}
