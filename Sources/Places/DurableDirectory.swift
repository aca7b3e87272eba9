import Foundation
import Synchronization

/// A `PlaceDirectory` kept in a `PlaceStore`: reads from memory, in parallel, never waiting for a
/// disk; writes acknowledged only once stored, many writers sharing one commit.
///
/// **Reads** (`read`) run under a shared lock: any number at once. A writer holds the lock
/// exclusively only while it applies already-committed changes to memory (microseconds), never
/// while the store writes to disk.
///
/// **Writes** (`perform`, `performAndWait`, `submit`) join a queue that one writer thread drains:
/// it takes every waiting request (up to `maximumBatch`, and stopping at a second request for the
/// same place or user so that the later one sees the earlier one's effect), checks each against
/// the directory (`PlaceDirectory.plan`; a refused request is answered at once), stores all the
/// accepted changes in one transaction, applies them to memory, and only then answers them. While
/// one commit waits for the disk the next batch gathers, so throughput grows with the number of
/// writers instead of being one `fsync` per write (group commit). When a batch's transaction
/// fails, its changes are retried one transaction each, so one bad change fails only its own
/// request.
///
/// Every request is answered exactly once; an answer of success means the change is durable and
/// visible to every read that starts afterwards. Call `close()` to finish the queued writes and
/// stop the writer thread.
public final class DurableDirectory: @unchecked Sendable {
    /// Commit counters, for benchmarks and metrics.
    public struct Statistics: Sendable, Hashable {
        /// Transactions committed.
        public var commits = 0
        /// Changes stored by them.
        public var changes = 0
        /// Time spent in the store's `commit`, in seconds.
        public var commitSeconds = 0.0
    }

    private typealias Completion = @Sendable (Result<WriteReceipt, PlacesError>) -> Void

    /// Who asks: a principal the caller vouches for, or a token resolved when the request is
    /// checked (so a token revoked while the request waited no longer works).
    private enum Asker {
        case principal(Principal)
        case token(String?)
    }

    private struct Pending {
        var request: DirectoryRequest
        var asker: Asker
        var completion: Completion
        /// Set for a group from `transact`: it runs alone, `request` is unused.
        var group: (@Sendable () -> Void)?
    }

    /// The group running on the writer thread, for `read` from inside its body.
    @TaskLocal private static var running: RunningGroup?

    private struct RunningGroup: Sendable {
        let owner: ObjectIdentifier
        let transaction: DirectoryTransaction
    }

    /// The most requests one transaction carries.
    public let maximumBatch: Int
    let store: any PlaceStore
    private let lock = ReadWriteLock()
    /// Guarded by `lock`; changed only by the writer thread.
    private var directory: PlaceDirectory
    private let queue = NSCondition()
    /// Guarded by `queue`.
    private var pending: [Pending] = []
    private var closing = false
    private var finished = false
    private var counters = Statistics()
    /// Guarded by `lock`: the change counter of each key (place kind, or `user`), from one sequence.
    private var keyVersions: [String: UInt64] = [:]
    private var lastVersion: UInt64 = 0
    /// The last log position applied to `directory`; written under `lock`'s write side and
    /// `applying`, read anywhere.
    let applied: Atomic<LogPosition>
    /// Held while memory is brought up to a position (the writer after a commit, the follower):
    /// the log is read and applied in order by one thread at a time.
    let applying = NSLock()
    /// What the follower knows of the store: guarded by its own lock.
    let status: Mutex<ReplicationStatus>
    /// Writers waiting for a position (`whenApplied`).
    let waiters = Mutex<[PositionWaiter]>([])
    /// The follower thread's stop flag and wake-up.
    let follower = NSCondition()
    var followerState: FollowerState = .idle
    /// The watches, evaluated as each change is applied.
    let watchHub: WatchHub

    /// Starts the writer thread.
    ///
    /// - Parameters:
    ///   - directory: the directory as the store holds it (typically loaded from it).
    ///   - store: where every change goes before it is applied.
    ///   - position: the log position `directory` reflects; nil for the store's newest now (right
    ///     for a directory just loaded with no other writer in between; `init(loading:)` is exact).
    ///   - maximumBatch: the most requests per transaction, 1 or more.
    public init(
        _ directory: PlaceDirectory, store: any PlaceStore, position: LogPosition? = nil, maximumBatch: Int = 4_096
    ) {
        self.directory = directory
        self.store = store
        self.maximumBatch = max(1, maximumBatch)
        let head = position.map { LogHead(position: $0, committedAt: nil) } ?? (try? store.head())
        let start = head?.position ?? 0
        applied = Atomic(start)
        watchHub = WatchHub(position: start)
        status = Mutex(ReplicationStatus(applied: start, appliedCommittedAt: head?.committedAt))
        // Weak: the thread object outlives the run (in its thread-specific data), and must not be
        // what frees the directory at thread exit.
        let thread = Thread { [weak self] in self?.drain() }
        thread.name = "vicinity-writer"
        thread.start()
    }

    /// Loads the store's snapshot and starts the writer thread over it.
    ///
    /// - Parameter cellSizeMeters: the grid cell side of every index, or nil for the default.
    /// - Throws: what the store's `snapshot` throws.
    public convenience init(
        loading store: any PlaceStore, cellSizeMeters: Double? = nil, maximumBatch: Int = 4_096,
        configure: (inout PlaceDirectory) -> Void = { _ in }
    ) throws {
        var snapshot = try store.snapshot(cellSizeMeters: cellSizeMeters)
        configure(&snapshot.directory)
        self.init(snapshot.directory, store: store, position: snapshot.position, maximumBatch: maximumBatch)
        status.withLock { $0.appliedCommittedAt = snapshot.committedAt }
    }

    // MARK: - Reading

    /// Runs `body` on the directory as it is now. Many reads run at once; none waits for a disk.
    /// Keep `body` short and free of I/O: a write waits for it before applying a commit.
    ///
    /// Inside the body of `transact` (on the writer thread) it reads the group's own copy, with the
    /// group's writes so far.
    public func read<T, E: Error>(_ body: (PlaceDirectory) throws(E) -> T) throws(E) -> T {
        if let running = Self.running, running.owner == ObjectIdentifier(self) {
            return try body(running.transaction.directory)
        }
        return try lock.withReadLock { () throws(E) -> T in try body(directory) }
    }

    /// `read(_:)` with the log position the directory reflects, both read under the same lock.
    public func readWithPosition<T>(_ body: (PlaceDirectory, LogPosition) -> T) -> T {
        lock.withReadLock { body(directory, applied.load(ordering: .acquiring)) }
    }

    /// The change counter of a key: a place kind, or `PlaceDirectory.userKind` for the users. It
    /// grows whenever a stored change touches the key (never for a write that changes nothing), so
    /// two equal readings mean the key did not change between them (`WATCH`).
    public func version(ofKey key: String) -> UInt64 {
        lock.withReadLock { keyVersions[key] ?? 0 }
    }

    /// The counters so far.
    public var statistics: Statistics {
        queue.lock()
        defer { queue.unlock() }
        return counters
    }

    // MARK: - Writing

    /// Makes a write and returns once it is stored and visible.
    ///
    /// - Parameter token: the token presented (nil for none), resolved to a principal when the
    ///   request is checked, after every write queued before it.
    /// - Returns: the clear text of a token the write created (`addUser`, `rotateAdminToken`).
    /// - Throws: `.invalidToken`, what `PlaceDirectory.plan` throws, `.storeFailed` when the store
    ///   refuses the write, `.closed` after `close()`.
    @discardableResult
    public func perform(_ request: DirectoryRequest, presenting token: String?) async throws(PlacesError) -> String? {
        try await perform(request, .token(token)).token
    }

    /// `perform(_:presenting:)` with all the write's receipt: also whether it replaced a record
    /// (decided when the write is planned, in order with every other write to that record).
    public func performWithReceipt(_ request: DirectoryRequest, presenting token: String?) async throws(PlacesError)
        -> WriteReceipt
    {
        try await perform(request, .token(token))
    }

    /// `perform(_:presenting:)` for a principal the caller has established itself (the local
    /// operator acting as `.admin`, a test).
    @discardableResult
    public func perform(_ request: DirectoryRequest, by principal: Principal) async throws(PlacesError) -> String? {
        try await perform(request, .principal(principal)).token
    }

    /// `performWithReceipt(_:presenting:)` for an established principal.
    public func performWithReceipt(_ request: DirectoryRequest, by principal: Principal) async throws(PlacesError)
        -> WriteReceipt
    {
        try await perform(request, .principal(principal))
    }

    /// `perform(_:presenting:)` for callers that are not `async`: blocks the calling thread.
    @discardableResult
    public func performAndWait(_ request: DirectoryRequest, presenting token: String?) throws(PlacesError) -> String? {
        try performAndWait(request, .token(token))
    }

    /// `perform(_:by:)` for callers that are not `async`: blocks the calling thread.
    @discardableResult
    public func performAndWait(_ request: DirectoryRequest, by principal: Principal) throws(PlacesError) -> String? {
        try performAndWait(request, .principal(principal))
    }

    /// Queues a write; `completion` runs once, on the writer thread, when it is stored (or refused).
    /// It must not block.
    public func submit(
        _ request: DirectoryRequest, presenting token: String?,
        completion: @escaping @Sendable (Result<String?, PlacesError>) -> Void
    ) {
        enqueue(Pending(request: request, asker: .token(token)) { completion($0.map(\.token)) })
    }

    /// `submit(_:presenting:completion:)` with the write's whole receipt: also the log position it
    /// was stored at (what a front end tells its client, for reads elsewhere that must see it).
    public func submitWithReceipt(
        _ request: DirectoryRequest, presenting token: String?,
        completion: @escaping @Sendable (Result<WriteReceipt, PlacesError>) -> Void
    ) {
        enqueue(Pending(request: request, asker: .token(token), completion: completion))
    }

    /// Queues several writes at once, in order, so that the writer takes them together (one
    /// commit when they fit in a batch and name distinct records); each completion runs once, on
    /// the writer thread, as for `submit(_:presenting:completion:)`.
    public func submit(
        contentsOf writes: [(request: DirectoryRequest, completion: @Sendable (Result<String?, PlacesError>) -> Void)],
        presenting token: String?
    ) {
        submitWithReceipts(
            contentsOf: writes.map { write in
                let completion = write.completion
                return (write.request, { completion($0.map(\.token)) })
            }, presenting: token)
    }

    /// `submit(contentsOf:presenting:)` with each write's whole receipt.
    public func submitWithReceipts(
        contentsOf writes: [(
            request: DirectoryRequest, completion: @Sendable (Result<WriteReceipt, PlacesError>) -> Void
        )],
        presenting token: String?
    ) {
        queue.lock()
        guard !closing else {
            queue.unlock()
            for write in writes { write.completion(.failure(.closed)) }
            return
        }
        for write in writes {
            pending.append(Pending(request: write.request, asker: .token(token), completion: write.completion))
        }
        queue.signal()
        queue.unlock()
    }

    /// `submit(_:presenting:completion:)` for an established principal.
    public func submit(
        _ request: DirectoryRequest, by principal: Principal,
        completion: @escaping @Sendable (Result<String?, PlacesError>) -> Void
    ) {
        enqueue(Pending(request: request, asker: .principal(principal)) { completion($0.map(\.token)) })
    }

    /// Runs `body` on the writer thread with no other write between its writes, then stores the
    /// writes it made (`DirectoryTransaction.perform`) in one store transaction, all or none, and
    /// applies them to memory.
    ///
    /// Reads by other threads see the directory before the group until it is stored; reads made
    /// by `body` itself through `read` see the group's writes. The body must not wait for another
    /// write (it would wait for itself).
    ///
    /// - Parameters:
    ///   - body: runs once, on the writer thread; what it returns is handed to `completion`. It may
    ///     call `rollBack()` to store nothing.
    ///   - completion: runs once, on the writer thread, after the commit: `.success` with the
    ///     body's value when the writes are stored (or there were none, or they were rolled back),
    ///     `.failure` when the store refused them (then nothing is stored) or after `close()`.
    public func transact<T: Sendable>(
        _ body: @escaping @Sendable (DirectoryTransaction) -> T,
        completion: @escaping @Sendable (Result<T, PlacesError>) -> Void
    ) {
        let group: @Sendable () -> Void = { [self] in
            // The follower also changes memory: copy it under the lock.
            let transaction = lock.withReadLock {
                DirectoryTransaction(directory: directory, versions: keyVersions)
            }
            let value = Self.$running.withValue(RunningGroup(owner: ObjectIdentifier(self), transaction: transaction)) {
                body(transaction)
            }
            let changes = transaction.changes
            guard !changes.isEmpty else {
                completion(.success(value))
                return
            }
            switch commit(changes) {
            case .success(let stored):
                let failure = applyCommitted([stored]).compactMap { $0 }.first
                completion(failure.map { .failure($0) } ?? .success(value))
            case .failure(let error):
                completion(.failure(error))
            }
        }
        enqueue(
            Pending(
                request: .rotateAdminToken, asker: .principal(.anonymous),
                completion: { result in if case .failure(let error) = result { completion(.failure(error)) } },
                group: group))
    }

    /// Counts a stored change, just applied, against its key's version; under the write lock.
    ///
    /// A user change counts against `user` only when what others see of the user changed
    /// (`PlaceDirectory.publicView(of:)`): a private user's moves, and a public user's moves
    /// inside one cell, must not show, not even as a `WATCH user` that fails.
    func touch(_ change: DirectoryChange, userSeenBefore: User?, in directory: PlaceDirectory) {
        let key: String
        switch change {
        case .putPlace(let place): key = place.kind
        case .removePlace(let kind, _): key = kind
        case .addUser, .moveUser, .setVisibility, .setPrecision, .forgetLocation, .endPrivacy, .putUser, .removeUser:
            guard userSeenBefore != directory.publicView(of: change) else { return }
            key = PlaceDirectory.userKind
        case .setAdminToken: return
        }
        lastVersion += 1
        keyVersions[key] = lastVersion
    }

    /// Counts a wholesale replacement of memory (a snapshot loaded) against every key, old and
    /// new; under the write lock.
    func bumpAllVersions(in directory: PlaceDirectory) {
        lastVersion += 1
        for key in Set(keyVersions.keys).union(directory.places.kinds).union([PlaceDirectory.userKind]) {
            keyVersions[key] = lastVersion
        }
    }

    /// Runs `body` with the directory under the write lock.
    func withWriteLock<T>(_ body: (inout PlaceDirectory) -> T) -> T {
        lock.withWriteLock { body(&directory) }
    }

    private func perform(_ request: DirectoryRequest, _ asker: Asker) async throws(PlacesError) -> WriteReceipt {
        let result = await withCheckedContinuation { continuation in
            enqueue(Pending(request: request, asker: asker) { continuation.resume(returning: $0) })
        }
        return try result.get()
    }

    private func performAndWait(_ request: DirectoryRequest, _ asker: Asker) throws(PlacesError) -> String? {
        let done = DispatchSemaphore(value: 0)
        let answer = Answer()
        enqueue(
            Pending(request: request, asker: asker) { result in
                answer.result = result
                done.signal()
            })
        done.wait()
        return try answer.result!.get().token
    }

    private func enqueue(_ item: Pending) {
        queue.lock()
        guard !closing else {
            queue.unlock()
            item.completion(.failure(.closed))
            return
        }
        pending.append(item)
        queue.signal()
        queue.unlock()
    }

    /// Stores every write queued so far, refuses later ones with `.closed`, and stops the writer
    /// thread and the follower. Returns when the last queued write is answered.
    public func close() {
        stopFollowing()
        queue.lock()
        closing = true
        queue.broadcast()
        while !finished { queue.wait() }
        queue.unlock()
    }

    // MARK: - The writer thread

    private func drain() {
        while let batch = nextBatch() {
            if batch.count == 1, let group = batch[0].group {
                group()
                continue
            }
            var planned: [(change: DirectoryChange, receipt: WriteReceipt, completion: Completion)] = []
            lock.withReadLock {
                for item in batch {
                    do throws(PlacesError) {
                        let principal: Principal
                        switch item.asker {
                        case .principal(let given): principal = given
                        case .token(let token): principal = try directory.principal(presenting: token)
                        }
                        let plan = try directory.plan(item.request, by: principal)
                        planned.append((plan.change, plan.receipt, item.completion))
                    } catch {
                        item.completion(.failure(error))
                    }
                }
            }
            guard !planned.isEmpty else { continue }
            // What the store answers for each change, or why it refused it.
            var outcomes: [Result<WriteReceipt, PlacesError>]
            var commits: [StoredCommit] = []
            switch commit(planned.map(\.change)) {
            case .success(let stored):
                commits = [stored]
                outcomes = planned.indices.map { offset in
                    .success(receipt(planned[offset].receipt, stored, offset))
                }
            case .failure(let error) where planned.count == 1:
                outcomes = [.failure(error)]
            case .failure(.storeUnavailable(let reason)):
                // Not one change at a time: the database is out of reach, and a commit whose
                // outcome is unknown must not be sent again (it may be stored already).
                outcomes = planned.map { _ in .failure(.storeUnavailable(reason)) }
            case .failure:
                // One transaction each, so that one refused change fails only its own request.
                outcomes = planned.map { item in
                    commit([item.change]).map { stored in
                        commits.append(stored)
                        return receipt(item.receipt, stored, 0)
                    }
                }
            }
            // Stored, but memory could not follow (an index beyond its handle range): say so
            // rather than acknowledge what queries will not show.
            let failures = applyCommitted(commits)
            var failureOffset = 0
            for offset in outcomes.indices {
                guard case .success = outcomes[offset] else { continue }
                if let failure = failures[failureOffset] { outcomes[offset] = .failure(failure) }
                failureOffset += 1
            }
            for (offset, item) in planned.enumerated() {
                item.completion(outcomes[offset])
            }
        }
    }

    /// The writer's receipt with what the store decided: its position, and whether it replaced.
    private func receipt(_ planned: WriteReceipt, _ stored: StoredCommit, _ offset: Int) -> WriteReceipt {
        var receipt = planned
        receipt.position = stored.position(ofChangeAt: offset)
        if let replaced = stored.replaced[offset] { receipt.replaced = replaced }
        return receipt
    }

    /// The next requests to plan together: waits for at least one; nil once closed and empty.
    private func nextBatch() -> [Pending]? {
        queue.lock()
        defer { queue.unlock() }
        while pending.isEmpty && !closing { queue.wait() }
        guard !pending.isEmpty else {
            finished = true
            queue.broadcast()
            return nil
        }
        var subjects = Set<String>()
        var taken = 0
        if pending[0].group != nil {
            taken = 1
        } else {
            while taken < pending.count, taken < maximumBatch, pending[taken].group == nil,
                subjects.insert(pending[taken].request.subject).inserted
            {
                taken += 1
            }
        }
        let batch = Array(pending[..<taken])
        pending.removeFirst(taken)
        return batch
    }

    /// Commits in one transaction: the changes as stored, or the error to answer with.
    private func commit(_ changes: [DirectoryChange]) -> Result<StoredCommit, PlacesError> {
        let start = DispatchTime.now().uptimeNanoseconds
        var result: Result<StoredCommit, PlacesError>
        do {
            let stored = try store.commit(changes)
            result =
                stored.changes.count == changes.count && stored.replaced.count == changes.count
                ? .success(stored) : .failure(.storeFailed("the store lost a change"))
        } catch let error as PlacesError {
            result = .failure(error)
        } catch {
            result = .failure(.storeFailed((error as? any StoreFailure)?.cause ?? "\(error)"))
        }
        noteStore(result)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        queue.lock()
        if case .success = result {
            counters.commits += 1
            counters.changes += changes.count
        }
        counters.commitSeconds += seconds
        queue.unlock()
        return result
    }
}

/// Carries an answer from the writer thread to a waiting caller (the semaphore orders the access).
private final class Answer: @unchecked Sendable {
    var result: Result<WriteReceipt, PlacesError>?
}
