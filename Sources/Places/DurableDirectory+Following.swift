import Foundation
import Synchronization

/// Following the store's change log: memory applies every committed change in log order, this
/// directory's own and every other writer's (another process on the same SQLite file, another
/// node on the same PostgreSQL).
///
/// Memory moves only forward through the log: `applied` is the last position applied, and a
/// change is applied only when every position before it has been. The writer, after a commit
/// that starts beyond `applied + 1`, first reads and applies what others committed in between;
/// the follower thread reads whatever is newer. Both hold `applying`, so the log is applied by one
/// thread at a time, each change once.
extension DurableDirectory {
    /// The most changes read from the log at once.
    static let logReadLimit = 4_096

    /// The last log position applied to memory: a read that starts now reflects every change up to
    /// it.
    public var appliedPosition: LogPosition { applied.load(ordering: .acquiring) }

    /// How far memory has followed the store.
    public var replication: ReplicationStatus { status.withLock { $0 } }

    /// Starts a thread that applies what other writers commit, woken by the store
    /// (`PlaceStore.waitForChanges`) and at least every `pollInterval` seconds; while the store
    /// does not answer, reads keep answering from memory and it retries with backoff (up to 5 s).
    /// Every `trimInterval` seconds it trims the log to `retention` (nil: never).
    ///
    /// Call once; `close()` stops it.
    public func follow(pollInterval: Double = 1, retention: LogRetention? = nil, trimInterval: Double = 60) {
        follower.lock()
        defer { follower.unlock() }
        guard followerState == .idle else { return }
        followerState = .running
        status.withLock { $0.following = true }
        let thread = Thread { [weak self] in
            self?.runFollower(pollInterval: pollInterval, retention: retention, trimInterval: trimInterval)
        }
        thread.name = "vicinity-follower"
        thread.start()
    }

    /// Stops the follower thread, if one runs, and waits for it.
    func stopFollowing() {
        follower.lock()
        defer { follower.unlock() }
        guard followerState == .running else {
            if followerState == .idle { followerState = .stopped }
            return
        }
        followerState = .stopping
        follower.broadcast()
        while followerState != .stopped { follower.wait() }
    }

    private var followerRunning: Bool {
        follower.lock()
        defer { follower.unlock() }
        return followerState == .running
    }

    private func runFollower(pollInterval: Double, retention: LogRetention?, trimInterval: Double) {
        var backoff = 0.05
        var lastTrim = Date().timeIntervalSince1970
        // Reads of the log that failed while the store answered otherwise: a transaction too large
        // to read in time (an import of millions) would fail the same way forever.
        var failedReads = 0
        while followerRunning {
            do {
                if failedReads >= 3 {
                    failedReads = 0
                    applying.lock()
                    defer { applying.unlock() }
                    try reload()
                }
                try catchUp(before: nil)
                failedReads = 0
                backoff = 0.05
                if let retention, Date().timeIntervalSince1970 - lastTrim >= trimInterval {
                    lastTrim = Date().timeIntervalSince1970
                    _ = try store.trimLog(keeping: retention)
                }
                store.waitForChanges(after: appliedPosition, timeout: pollInterval)
            } catch {
                noteUnreachable(error, writing: false)
                if (try? store.head()) != nil { failedReads += 1 }
                follower.lock()
                if followerState == .running { _ = follower.wait(until: Date(timeIntervalSinceNow: backoff)) }
                follower.unlock()
                backoff = min(backoff * 2, 5)
            }
        }
        follower.lock()
        followerState = .stopped
        status.withLock { $0.following = false }
        follower.broadcast()
        follower.unlock()
    }

    /// Reads the log after `applied` and applies it: everything the store holds, or only the
    /// positions before `limit`. A log trimmed past `applied` loads a snapshot instead.
    ///
    /// - Throws: what the store's reads throw (memory then stays where it was).
    func catchUp(before limit: LogPosition?) throws {
        applying.lock()
        defer { applying.unlock() }
        try catchUpLocked(before: limit)
    }

    private func catchUpLocked(before limit: LogPosition?) throws {
        while true {
            let start = appliedPosition
            if let limit, start + 1 >= limit { return }
            switch try store.changes(after: start, limit: Self.logReadLimit) {
            case .changes(let entries):
                guard let newest = entries.last else {
                    // Nothing newer: the one read of the head, to see where the database stands.
                    let head = try? store.head()
                    noteReachable(head: head)
                    // The database's log is behind memory (restored from a backup, failed over to
                    // a replica that lost commits, a file replaced): its positions will be reused
                    // for other changes, so memory starts again from a snapshot.
                    if let head, head.position < start { try reload() }
                    return
                }
                // The newest entry read is as far as the database was seen to hold: no second
                // read of the head for each batch of changes.
                noteReachable(head: LogHead(position: newest.position, committedAt: newest.committedAt))
                let wanted = limit.map { limit in entries.filter { $0.position < limit } } ?? entries
                guard !wanted.isEmpty else { return }
                try applyLogged(wanted, own: false)
                // A short read was the end of the log; after a full one there may be more.
                if limit == nil, entries.count < Self.logReadLimit { return }
            case .trimmed:
                try reload()
            }
        }
    }

    /// Applies log entries in order, skipping what is already applied; a gap before an entry
    /// stops there with an error (the caller reads again).
    ///
    /// - Returns: the positions memory could not take (stored, but not applied until a restart),
    ///   with why.
    @discardableResult
    private func applyLogged(_ entries: [LoggedChange], own: Bool) throws -> [LogPosition: PlacesError] {
        var problem: String?
        var unapplied: [LogPosition: PlacesError] = [:]
        var last: LoggedChange?
        withWriteLock { directory in
            // Without watches or kept history the changes need no capture for them (read under
            // the write lock: no watch can start meanwhile).
            let capturing = watchHub.isCapturing
            var offset = 0
            while offset < entries.count {
                let entry = entries[offset]
                let current = applied.load(ordering: .relaxed)
                if entry.position <= current {
                    offset += 1
                    continue
                }
                guard entry.position == current + 1 || store.tailsNaively else {
                    problem = "the log skipped from \(current) to \(entry.position)"
                    return
                }
                // A run of places (an import) goes in together.
                var end = offset + 1
                if case .putPlace = entry.change {
                    while end < entries.count, case .putPlace = entries[end].change,
                        entries[end].position == entries[end - 1].position + 1
                    {
                        end += 1
                    }
                }
                // What the changes do for the watches, worked out before they are applied.
                var overlay: [WatchedKey: ObjectState?] = [:]
                let steps =
                    capturing
                    ? entries[offset..<end].map { entry in
                        WatchHub.step(for: entry.change, at: entry.position, in: directory, overlay: &overlay)
                    } : [WatchStep(position: entries[end - 1].position)]
                do throws(PlacesError) {
                    if end - offset > 1 {
                        let places = entries[offset..<end].map { entry -> Place in
                            guard case .putPlace(let place) = entry.change else { preconditionFailure() }
                            return place
                        }
                        try directory.applyPlaces(places)
                        for kind in Set(places.map(\.kind)) {
                            touch(.removePlace(kind: kind, id: ""), userSeenBefore: nil, in: directory)
                        }
                    } else {
                        try applyOne(entry.change, to: &directory)
                    }
                    watchHub.evaluate(steps, directory: directory)
                } catch {
                    let failure = PlacesError.storeFailed(
                        "stored, but not applied in memory until a restart: \(error.description)")
                    for entry in entries[offset..<end] { unapplied[entry.position] = failure }
                    problem = "a stored change at position \(entries[offset].position) could not be applied in memory"
                }
                // Counted under the write lock and before the position moves: whoever sees the
                // changes or the new position sees them counted.
                let newest = entries[end - 1]
                let count = UInt64(end - offset)
                status.withLock { status in
                    status.applied = newest.position
                    status.appliedCommittedAt = newest.committedAt
                    if own { status.ownChanges += count } else { status.followedChanges += count }
                    if status.latest < newest.position {
                        status.latest = newest.position
                        status.latestCommittedAt = newest.committedAt
                    }
                    if status.latest <= newest.position { status.behindSince = nil }
                }
                applied.store(newest.position, ordering: .releasing)
                last = newest
                offset = end
            }
        }
        for subscriber in watchHub.takeWakes() { subscriber.wake() }
        if last != nil { resumeWaiters() }
        if let problem {
            status.withLock { $0.lastError = problem }
            if problem.hasPrefix("the log skipped") { throw PlacesError.storeFailed(problem) }
        }
        return unapplied
    }

    /// Replaces memory with a fresh snapshot of the store (the log no longer holds what comes
    /// next); keeps this process's own settings (`openRegistration`, `privacy`, `holidays`).
    private func reload() throws {
        let cell = read { $0.places.cellSizeMeters }
        var snapshot = try store.snapshot(cellSizeMeters: cell)
        withWriteLock { directory in
            snapshot.directory.openRegistration = directory.openRegistration
            snapshot.directory.privacy = directory.privacy
            snapshot.directory.holidays = directory.holidays
            let old = directory
            directory = snapshot.directory
            let previous = applied.load(ordering: .relaxed)
            // Counted before the position moves: whoever sees the new position sees the reload.
            status.withLock { status in
                status.applied = snapshot.position
                status.appliedCommittedAt = snapshot.committedAt
                status.reloads += 1
                if status.latest <= snapshot.position { status.behindSince = nil }
            }
            applied.store(snapshot.position, ordering: .releasing)
            bumpAllVersions(in: directory)
            watchHub.reload(from: old, to: directory, position: snapshot.position, previous: previous)
        }
        for subscriber in watchHub.takeWakes() { subscriber.wake() }
        resumeWaiters()
    }

    /// Brings memory to a commit this directory's writer just made: first what others committed
    /// before it (read from the log), then its own changes.
    ///
    /// - Returns: for each change of each commit, in order, nil or why memory could not take it.
    func applyCommitted(_ commits: [StoredCommit]) -> [PlacesError?] {
        applying.lock()
        defer { applying.unlock() }
        var failures: [PlacesError?] = []
        for stored in commits {
            let first = stored.position - LogPosition(stored.changes.count) + 1
            // Others' changes in between come first. The database has just taken this commit, so
            // a failed read of its log is a passing trouble: keep trying (writes wait meanwhile)
            // rather than acknowledge a write that reads would not show.
            var delay = 0.01
            let deadline = Date(timeIntervalSinceNow: Self.catchUpPatience)
            while first > appliedPosition + 1 {
                let before = appliedPosition
                do {
                    try catchUpLocked(before: first)
                    // A naive tailer of a log with holes goes on past them.
                    if appliedPosition == before && store.tailsNaively { break }
                } catch {
                    noteUnreachable(error, writing: false)
                }
                guard appliedPosition == before else { continue }
                guard Date() < deadline else { break }
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, 1)
            }
            guard first <= appliedPosition + 1 || store.tailsNaively else {
                let failure = PlacesError.storeFailed(
                    "stored at change-log position \(stored.position), but this server could not read the log to "
                        + "apply it yet; it will answer with it once it catches up")
                failures += Array(repeating: failure, count: stored.changes.count)
                continue
            }
            let now = Date().timeIntervalSince1970
            let entries = stored.changes.indices.map { offset in
                LoggedChange(
                    position: stored.position(ofChangeAt: offset), change: stored.changes[offset], committedAt: now)
            }
            let unapplied = (try? applyLogged(entries, own: true)) ?? [:]
            failures += entries.map { unapplied[$0.position] }
        }
        return failures
    }

    /// Seconds a writer keeps trying to read what others committed before its own commit.
    static let catchUpPatience = 60.0

    /// Applies one change and counts it against its key's version (under the write lock).
    private func applyOne(_ change: DirectoryChange, to directory: inout PlaceDirectory) throws(PlacesError) {
        let seen = directory.publicView(of: change)
        try directory.apply(change)
        touch(change, userSeenBefore: seen, in: directory)
    }

    /// Records what a commit or a read of the store said about reaching it.
    func noteStore(_ result: Result<StoredCommit, PlacesError>) {
        switch result {
        case .success(let stored):
            status.withLock { $0.writesUnreachableSince = nil }
            noteReachable(head: LogHead(position: stored.position, committedAt: Date().timeIntervalSince1970))
        case .failure(.storeUnavailable(let reason)):
            noteUnreachable(PlacesError.storeUnavailable(reason), writing: true)
        case .failure:
            break
        }
    }

    private func noteReachable(head: LogHead?) {
        let now = Date().timeIntervalSince1970
        status.withLock { status in
            status.readsUnreachableSince = nil
            if let head, head.position > status.latest {
                status.latest = head.position
                status.latestCommittedAt = head.committedAt
            }
            if status.latest > status.applied {
                if status.behindSince == nil { status.behindSince = now }
            } else {
                status.behindSince = nil
            }
        }
    }

    /// Records a failure to reach the store: by a read of the log (cleared by the next read that
    /// works) or by a commit (cleared by the next commit that works), so that a database that
    /// answers reads but refuses writes still shows as out of reach.
    func noteUnreachable(_ error: any Error, writing: Bool) {
        let now = Date().timeIntervalSince1970
        let reason = (error as? PlacesError)?.description ?? (error as? any StoreFailure)?.cause ?? "\(error)"
        status.withLock { status in
            if writing {
                if status.writesUnreachableSince == nil { status.writesUnreachableSince = now }
            } else if status.readsUnreachableSince == nil {
                status.readsUnreachableSince = now
            }
            status.lastError = reason
        }
    }

    // MARK: - Waiting for a position

    /// Calls `completion(true)` once memory has applied `position` (at once if it has), or
    /// `completion(false)` after `timeout` seconds without. Runs on the thread that applied it or
    /// on a timer's.
    public func whenApplied(
        _ position: LogPosition, timeout: Double, completion: @escaping @Sendable (Bool) -> Void
    ) {
        if appliedPosition >= position {
            completion(true)
            return
        }
        let id = UInt64.random(in: 0...UInt64.max)
        waiters.withLock { $0.append(PositionWaiter(id: id, position: position, completion: completion)) }
        // Applied between the check and the append: nobody would wake it.
        resumeWaiters()
        follower.lock()
        follower.broadcast()
        follower.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [self] in
            let expired = waiters.withLock { waiters -> PositionWaiter? in
                guard let offset = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: offset)
            }
            expired?.completion(false)
        }
    }

    /// The newest position the store holds now, or nil when it cannot be read. The store's reads
    /// block, so this one is made on a thread of Dispatch's, never on the caller's.
    public func storeHead() async -> LogPosition? {
        let store = self.store
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: try? store.head().position) }
        }
    }

    /// Waits until memory has applied `position`, up to `timeout` seconds.
    ///
    /// - Returns: true once applied, false when the time ran out.
    public func waitUntilApplied(_ position: LogPosition, timeout: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            whenApplied(position, timeout: timeout) { continuation.resume(returning: $0) }
        }
    }

    private func resumeWaiters() {
        let current = appliedPosition
        let ready = waiters.withLock { waiters -> [PositionWaiter] in
            let ready = waiters.filter { $0.position <= current }
            if !ready.isEmpty { waiters.removeAll { $0.position <= current } }
            return ready
        }
        for waiter in ready { waiter.completion(true) }
    }
}
