import Dispatch
import Places
import Synchronization

/// A `PlaceStore` in memory for tests: it stores nothing on disk (the directory in memory is the
/// whole truth), records each transaction, and can be told to fail or to hold its commits.
public final class MemoryStore: PlaceStore, @unchecked Sendable {
    /// The error a commit throws when `fail(when:)` says so.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "disk full" }
    }

    private let state = Mutex<(transactions: [[DirectoryChange]], failing: @Sendable (DirectoryChange) -> Bool)>(
        ([], { _ in false }))
    /// When set, each `commit` signals `entered`, then waits for `release` before storing.
    public let gate: (entered: DispatchSemaphore, release: DispatchSemaphore)?

    /// - Parameter gated: hold every commit until the test signals `gate.release`.
    public init(gated: Bool = false) {
        gate = gated ? (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)) : nil
    }

    /// The transactions committed so far, in order.
    public var transactions: [[DirectoryChange]] { state.withLock { $0.transactions } }

    /// Changes for which `predicate` holds make their whole transaction fail with `Failure`.
    public func fail(when predicate: @escaping @Sendable (DirectoryChange) -> Bool) {
        state.withLock { $0.failing = predicate }
    }

    public func commit(_ changes: [DirectoryChange]) throws -> [DirectoryChange] {
        if let gate {
            gate.entered.signal()
            gate.release.wait()
        }
        try state.withLock { state in
            if changes.contains(where: state.failing) { throw Failure() }
            state.transactions.append(changes)
        }
        return changes
    }
}
