import Foundation

/// The thread that runs the tasks `blocking` starts, apart from Swift's cooperative pool.
///
/// The pool has one thread per core, and CPU-bound tasks (a burst of large queries, a load) can
/// hold every one of them for seconds. A store call waiting for its task behind them would stall
/// the directory's writer or follower for as long. On this thread the task's own steps (sending a
/// query, taking its answer from the event loop) run at once, whatever the pool is doing; they are
/// short, since the waiting is done by the database's event loop, not here.
///
/// One thread, started with the first task and kept for the process's life; jobs run in the
/// order they are enqueued.
final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor of the process.
    static let shared = BlockingExecutor()

    private let condition = NSCondition()
    /// Jobs waiting to run, guarded by `condition`.
    private var queue: [UnownedJob] = []

    private init() {
        let thread = Thread { self.run() }
        thread.name = "vicinity-blocking"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, for ever.
    private func run() {
        var running: [UnownedJob] = []
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            swap(&running, &queue)
            condition.unlock()
            for job in running { job.runSynchronously(on: asUnownedTaskExecutor()) }
            running.removeAll(keepingCapacity: true)
        }
    }
}
