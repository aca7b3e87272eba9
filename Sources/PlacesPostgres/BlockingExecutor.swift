import Foundation

/// The threads that run the tasks `blocking` starts, apart from Swift's cooperative pool.
///
/// The pool has one thread per core, and CPU-bound tasks (a burst of large queries, a load) can
/// hold every one of them for seconds. A store call waiting for its task behind them would stall
/// the directory's writer or follower for as long. On these threads the task's steps (building a
/// query, decoding its answer as the event loop hands it over) run whatever the pool is doing.
///
/// Two threads, started with the first task and kept for the process's life, take jobs in the
/// order they are enqueued: the writer's and the follower's calls run side by side, and one task's
/// steps never overlap (the runtime runs a task on one thread at a time). `Task.sleep` and
/// `Task.yield` inside a body resume on the global pool, not here (the runtime ignores the
/// preference for them); no production body sleeps.
final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor of the process.
    static let shared = BlockingExecutor(threads: 2)

    /// The key `Thread.threadDictionary` holds on the executor's own threads.
    private static let marker = "vicinity.blocking-executor"

    private let condition = NSCondition()
    /// Jobs waiting to run, guarded by `condition`.
    private var queue: [UnownedJob] = []

    private init(threads: Int) {
        for number in 1...threads {
            let thread = Thread { self.run() }
            thread.name = "vicinity-blocking-\(number)"
            thread.start()
        }
    }

    /// Whether the calling thread is one of the executor's: `blocking` called there would wait for
    /// work that needs the thread it holds.
    static var isCurrentThread: Bool { Thread.current.threadDictionary[marker] != nil }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, for ever.
    private func run() {
        Thread.current.threadDictionary[Self.marker] = true
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
