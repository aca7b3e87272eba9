import Synchronization

/// Commands per second over the last 1.6 seconds, for `INFO`'s `instantaneous_ops_per_sec`: as
/// Redis 7.0 (`trackInstantaneousMetric`, 16 samples 100 ms apart), but sampled by the commands
/// themselves (at most one sample per 100 ms) rather than by a timer, so an idle server costs
/// nothing; when no command came lately the rate is averaged since the last sample, and falls
/// towards 0.
final class OperationRate: Sendable {
    /// 100 ms between samples, 16 samples kept (Redis's `STATS_METRIC_SAMPLES`).
    static let intervalNanoseconds: UInt64 = 100_000_000
    static let sampleCount = 16

    private let samples = Mutex<[(at: UInt64, total: Int)]>([])
    private let nextSampleAt = Atomic<UInt64>(0)

    /// Takes a sample when the last is 100 ms old; `total` is the commands run so far.
    func tick(now: UInt64, total: Int) {
        let next = nextSampleAt.load(ordering: .relaxed)
        guard now >= next,
            nextSampleAt.compareExchange(
                expected: next, desired: now + Self.intervalNanoseconds, ordering: .relaxed
            ).exchanged
        else { return }
        samples.withLock { samples in
            samples.append((now, total))
            if samples.count > Self.sampleCount { samples.removeFirst(samples.count - Self.sampleCount) }
        }
    }

    /// Commands per second, rounded down, from the oldest sample within the window (or the newest
    /// before it) to `now`.
    func perSecond(now: UInt64, total: Int) -> Int {
        samples.withLock { samples in
            let windowStart = now &- Self.intervalNanoseconds * UInt64(Self.sampleCount)
            guard let base = samples.first(where: { $0.at >= windowStart }) ?? samples.last, now > base.at else {
                return 0
            }
            return Int(Double(total - base.total) * 1e9 / Double(now - base.at))
        }
    }
}
