import Foundation

/// Users' timers: a location not refreshed within `PrivacySettings.locationTTLSeconds` is
/// forgotten, a private spell with an end (`setVisibility(…, forSeconds:)`) ends. Each runs as an
/// ordinary stored change (`forgetLocation`, `endPrivacy`), conditional on the timer it is for, so
/// every node applies it in log order with its watch events, and two nodes running one timer at
/// once change the record once.
extension DurableDirectory {
    /// The earliest timer of any user, or nil when none is set.
    public var nextUserTimer: Date? { read { $0.nextUserTimer } }

    /// Runs every user timer that is due by the directory's clock (`PrivacySettings.now`).
    ///
    /// - Returns: the changes it stored (a timer another writer ran first stores a change that
    ///   changes nothing, and counts).
    @discardableResult
    public func runDueUserTimers() async -> Int {
        let due = read { $0.usersWithTimersDue(at: $0.privacy.now()) }
        var stored = 0
        for id in due {
            // A user may have both timers due: each run takes the earliest one.
            for _ in 0..<2 {
                do {
                    try await perform(.runTimers(id), by: .admin)
                    stored += 1
                } catch {
                    break
                }
            }
        }
        return stored
    }

    /// Runs the users' timers as they fall due until the task is cancelled: wakes at the next
    /// timer, and at least every `pollSeconds` (a timer set by another node, or by a write just
    /// made, is found then), so a timer runs within that long of its time.
    public func runUserTimers(pollSeconds: Double = 1) async {
        while !Task.isCancelled {
            let stored = await runDueUserTimers()
            let wait = timerPause(pollSeconds: pollSeconds, afterStoring: stored)
            do { try await Task.sleep(for: .seconds(wait)) } catch { return }
        }
    }

    /// How long `runUserTimers` sleeps after a round that stored `stored` changes, seconds: until
    /// the next timer, at most `pollSeconds`, at least 0.01. A timer still due after a round that
    /// stored nothing (the store refused the writes: a database out of reach, a full disk) is
    /// tried again at the next poll, not a hundred times a second against a failing store.
    func timerPause(pollSeconds: Double, afterStoring stored: Int) -> Double {
        guard let next = nextUserTimer else { return pollSeconds }
        let untilNext = next.timeIntervalSince(read { $0.privacy.now() })
        if untilNext <= 0 && stored == 0 { return pollSeconds }
        return min(pollSeconds, max(0.01, untilNext))
    }
}
