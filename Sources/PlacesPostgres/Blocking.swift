import Dispatch
import NIOPosix
import Places

/// Runs async work to completion and blocks the calling thread until it is done: how the
/// synchronous `PlaceStore` methods, called on the directory's writer and follower threads, use
/// postgres-nio's async API.
///
/// The work runs on Swift's global executor, so the caller must be an ordinary thread: never an
/// event loop (it would wait for itself), and preferably not a task of the cooperative pool (a
/// blocked pool thread is one fewer to run the work).
///
/// - Parameters:
///   - timeout: seconds to wait before calling `onTimeout`, or nil to wait as long as it takes.
///   - onTimeout: makes `body` end soon (closes its connection, which fails what it waits for);
///     the call then still waits for `body` to end.
/// - Throws: what `body` throws.
func blocking<T: Sendable>(
    timeout: Double? = nil, onTimeout: @Sendable () -> Void = {}, _ body: @escaping @Sendable () async throws -> T
) throws -> T {
    precondition(
        MultiThreadedEventLoopGroup.currentEventLoop == nil,
        "a PostgresPlaceStore method was called on an event loop, which it would block")
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            box.result = .success(try await body())
        } catch {
            box.result = .failure(error)
        }
        done.signal()
    }
    if let timeout, done.wait(timeout: .now() + timeout) == .timedOut {
        onTimeout()
        // Closing the connection normally fails what `body` waits for at once; when even that
        // gets no answer, the caller is not held any longer (the task is abandoned; its result,
        // if it ever comes, is dropped). Whether a commit it ran was stored is then unknown.
        if done.wait(timeout: .now() + abandonAfterSeconds) == .timedOut {
            throw PlacesError.storeUnavailable(
                "the database did not answer within \(Int(timeout)) s, nor when its connection was closed; "
                    + "whatever was sent may or may not have been stored")
        }
    } else if timeout == nil {
        done.wait()
    }
    return try box.result!.get()
}

/// Seconds `blocking` still waits for its work after `onTimeout` before giving up on it.
let abandonAfterSeconds = 5.0

/// Carries a result from the task to the blocked thread (the semaphore orders the access).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
