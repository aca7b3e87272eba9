import Foundation
import Places
import Synchronization
import Testing

@testable import PlacesPostgres

/// `blocking` lets go of its caller when the work's connection is lost, whatever the work does.
@Suite struct BlockingTests {
    struct Refused: Error {}

    /// The timeout these tests give `blocking`, seconds: none of them checks the timeout, so it is
    /// long enough never to be reached on a loaded machine.
    static let patience = 900.0

    static func isUnavailable(_ error: any Error) -> Bool {
        if case .storeUnavailable = error as? PlacesError { return true }
        return false
    }

    /// Work that never ends, as a reply stream caught in a close once did.
    static func forever() async throws -> Int {
        try await Task.sleep(nanoseconds: 3_600_000_000_000)
        return 0
    }

    @Test func workThatHangsAfterTheConnectionClosesIsLeftAfterTheGrace() async throws {
        let loss = LossSignal()
        // Timed on the blocked thread: the test's own task may resume late on a busy pool.
        let (outcome, elapsed) = try await onThread { () -> (Result<Int, any Error>, Double) in
            let start = Date()
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.1)
                loss.fire()
            }
            let outcome = Result { try blocking(timeout: Self.patience, lost: loss, Self.forever) }
            return (outcome, Date().timeIntervalSince(start))
        }
        guard case .failure(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(Self.isUnavailable(error), "\(error)")
        #expect("\(error)".contains("may or may not have been stored"))
        #expect(elapsed >= lostGraceSeconds, "the work had its grace")
        #expect(elapsed < 10, "let go long before the timeout")
    }

    @Test func aConnectionAlreadyLostLetsGoAfterTheGrace() async throws {
        let loss = LossSignal()
        loss.fire()
        let outcome = try await onThread { Result { try blocking(timeout: Self.patience, lost: loss, Self.forever) } }
        guard case .failure(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(Self.isUnavailable(error), "\(error)")
    }

    /// The usual case: the work fails by itself within the grace, and its own error is thrown.
    @Test func workThatFailsWithinTheGraceThrowsItsOwnError() async throws {
        let loss = LossSignal()
        let outcome = try await onThread { () -> Result<Int, any Error> in
            Result {
                try blocking(timeout: Self.patience, lost: loss) { () async throws -> Int in
                    // Fails right after the close, without waiting for the pool to run it again.
                    loss.fire()
                    throw Refused()
                }
            }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(error is Refused, "\(error)")
    }

    @Test func workThatEndsGivesItsResultAndLeavesTheSignalUnwatched() async throws {
        let loss = LossSignal()
        #expect(try await onThread { try blocking(timeout: Self.patience, lost: loss) { 42 } } == 42)
        #expect(try await onThread { try blocking(lost: loss) { 43 } } == 43)
        // Firing now reaches no waiter: the calls above cleared theirs.
        loss.fire()
        let outcome = try await onThread { Result { try blocking(timeout: Self.patience, lost: loss) { 44 } } }
        // The work may finish before the fired signal is seen, or not within the grace; either
        // way the caller is answered.
        switch outcome {
        case .success(let value): #expect(value == 44)
        case .failure(let error): #expect(Self.isUnavailable(error), "\(error)")
        }
    }

    /// The work does not wait for the cooperative pool: with every pool thread held by tasks that
    /// never suspend, it still runs and answers. (Before `BlockingExecutor` it waited for a pool
    /// thread and, the spinners holding them until the answer, timed out.)
    @Test func workRunsWhileCPUBoundTasksHoldEveryPoolThread() async throws {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let spinners = Spinners()
        // More than the pool has threads, so that every pool thread gets one whatever its width.
        for _ in 0..<(4 * width) {
            Task.detached { spinners.spin() }
        }
        let (outcome, held) = try await onThread { () -> (Result<Int, any Error>, Int) in
            // Released whatever happens: the test's own task needs a pool thread to go on.
            defer { spinners.release() }
            // Every pool thread spinning (other suites' tasks may delay them starting), then no
            // more starting: the rest wait for a thread.
            let start = Date()
            while spinners.spinning < width, Date().timeIntervalSince(start) < Self.patience {
                Thread.sleep(forTimeInterval: 0.01)
            }
            Thread.sleep(forTimeInterval: 0.2)
            let held = spinners.spinning
            let outcome = Result {
                try blocking(timeout: 60) { () async throws -> Int in
                    // Resumed from another thread, as postgres-nio's event loop resumes a query.
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread { continuation.resume() }
                    }
                    return 42
                }
            }
            return (outcome, held)
        }
        #expect(held >= width, "every pool thread was held")
        #expect(held < 4 * width, "some spinners were still waiting for a pool thread")
        #expect(try outcome.get() == 42)
    }

    /// Tasks that hold their thread without suspending until released.
    final class Spinners: Sendable {
        private let started = Atomic<Int>(0)
        private let released = Atomic<Bool>(false)

        /// How many have started spinning.
        var spinning: Int { started.load(ordering: .sequentiallyConsistent) }

        func release() { released.store(true, ordering: .sequentiallyConsistent) }

        /// Holds the thread until `release`.
        func spin() {
            started.add(1, ordering: .sequentiallyConsistent)
            while !released.load(ordering: .sequentiallyConsistent) {}
        }
    }
}
