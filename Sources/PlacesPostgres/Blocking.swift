import Foundation
import NIOPosix
import Places
import Synchronization

/// Runs async work to completion and blocks the calling thread until it is done: how the
/// synchronous `PlaceStore` methods, called on the directory's writer and follower threads, use
/// postgres-nio's async API.
///
/// The work runs on a thread of its own (`BlockingExecutor`), so CPU-bound tasks holding Swift's
/// cooperative pool do not delay it. The caller must be an ordinary thread: never an event loop
/// (it would wait for itself), and preferably not a task of the cooperative pool (a blocked pool
/// thread is one fewer for everything else).
///
/// - Parameters:
///   - timeout: seconds to wait before calling `onTimeout`, or nil to wait as long as it takes.
///   - onTimeout: makes `body` end soon (closes its connection, which fails what it waits for);
///     the call then still waits for `body` to end.
///   - lost: fires when `body` can no longer succeed (its connection closed). `body` then gets
///     `lostGraceSeconds` to end by itself (normally failing with the connection's error); after
///     that the caller is not held any longer.
/// - Throws: what `body` throws; `PlacesError.storeUnavailable` when `body` is abandoned.
func blocking<T: Sendable>(
    timeout: Double? = nil, onTimeout: @Sendable () -> Void = {}, lost: LossSignal? = nil,
    _ body: @escaping @Sendable () async throws -> T
) throws -> T {
    precondition(
        MultiThreadedEventLoopGroup.currentEventLoop == nil,
        "a PostgresPlaceStore method was called on an event loop, which it would block")
    precondition(
        !BlockingExecutor.isCurrentThread,
        "a PostgresPlaceStore method was called from its own work, which it would block")
    let completion = Completion<T>()
    Task(executorPreference: BlockingExecutor.shared) {
        do {
            completion.finish(.success(try await body()))
        } catch {
            completion.finish(.failure(error))
        }
    }
    lost?.watch { completion.markLost() }
    defer { lost?.clear() }
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
    if let result = completion.wait(until: deadline, orLost: true) { return try result.get() }
    if completion.isLost {
        // postgres-nio normally fails a query at once when its connection closes; a reply stream
        // caught in the close has been seen to wait for ever instead.
        if let result = completion.wait(until: Date(timeIntervalSinceNow: lostGraceSeconds), orLost: false) {
            return try result.get()
        }
        throw PlacesError.storeUnavailable(
            "the connection closed while waiting for the database's answer; "
                + "whatever was sent may or may not have been stored")
    }
    onTimeout()
    // Closing the connection normally fails what `body` waits for at once; when even that gets no
    // answer, the caller is not held any longer (the task is abandoned; its result, if it ever
    // comes, is dropped). Whether a commit it ran was stored is then unknown.
    if let result = completion.wait(until: Date(timeIntervalSinceNow: abandonAfterSeconds), orLost: false) {
        return try result.get()
    }
    throw PlacesError.storeUnavailable(
        "the database did not answer within \(Int(timeout ?? 0)) s, nor when its connection was closed; "
            + "whatever was sent may or may not have been stored")
}

/// Seconds `blocking` still waits for its work after `onTimeout` before giving up on it.
let abandonAfterSeconds = 5.0

/// Seconds `blocking` still waits for its work once its connection is lost.
let lostGraceSeconds = 0.3

/// Tells the `blocking` call waiting on a connection that the connection is gone: one per
/// connection, fired once (when it closes), watched by one call at a time.
final class LossSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    init() {}

    /// Calls the waiter, if any, and every later one at once.
    func fire() {
        let waiter = state.withLock { state -> (@Sendable () -> Void)? in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?()
    }

    /// Calls `waiter` when the signal fires (at once if it has), unless `clear` comes first.
    func watch(_ waiter: @escaping @Sendable () -> Void) {
        let fired = state.withLock { state -> Bool in
            if !state.fired { state.waiter = waiter }
            return state.fired
        }
        if fired { waiter() }
    }

    /// Forgets the waiter.
    func clear() { state.withLock { $0.waiter = nil } }
}

/// Carries a result from the task to the blocked thread, and the news that the work's connection
/// is lost.
private final class Completion<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<T, any Error>?
    private var lost = false

    func finish(_ result: Result<T, any Error>) {
        condition.lock()
        self.result = result
        condition.broadcast()
        condition.unlock()
    }

    func markLost() {
        condition.lock()
        lost = true
        condition.broadcast()
        condition.unlock()
    }

    var isLost: Bool {
        condition.lock()
        defer { condition.unlock() }
        return lost
    }

    /// The result once it is in; nil when `deadline` passes first, or (with `orLost`) the
    /// connection is lost first.
    func wait(until deadline: Date?, orLost: Bool) -> Result<T, any Error>? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil && !(orLost && lost) {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        return result
    }
}
