import Foundation
import Synchronization

/// Per-command counters for `INFO commandstats`, kept as Redis 7.0 keeps them: calls, time spent
/// executing, calls refused before running (wrong arity) and calls that failed while running.
///
/// Execution time is from the command's arrival at the service to its reply being in the
/// connection's output: parsing the arguments, reading the directory, building the reply and,
/// for a reply given at once, encoding it into the connection's buffer (as Redis's `usec`
/// includes writing the reply into its client's buffer) — not writing it to the socket, and for
/// writes not waiting for the commit (as Redis's `usec` leaves out its own `fsync`). Microsecond
/// totals, so `usec_per_call` compares with Redis's on the same commands.
///
/// Lock-free: each known command has its own atomics, made once; any number of event loops record
/// at the same time.
final class CommandStatistics: Sendable {
    /// One command's counters.
    final class Counters: Sendable {
        let calls = Atomic<Int>(0)
        let nanoseconds = Atomic<Int>(0)
        let rejected = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
    }

    private let table: [String: Counters]

    /// Counters for each of `names` (upper case, as commands are matched).
    init(names: [String]) {
        table = Dictionary(uniqueKeysWithValues: names.map { ($0, Counters()) })
    }

    /// The counters of a command (its name in upper case), nil for an unknown command (Redis keeps
    /// none for those either).
    func counters(for name: String) -> Counters? { table[name] }

    /// Records one call that took `nanoseconds`; `failure` is the error line it answered, if any. A
    /// call refused for its number of arguments counts as rejected only, as Redis refuses it
    /// before running it.
    func record(_ counters: Counters, nanoseconds: Int, failure: String?) {
        if let failure, failure.hasPrefix("ERR wrong number of arguments") {
            counters.rejected.add(1, ordering: .relaxed)
            return
        }
        counters.calls.add(1, ordering: .relaxed)
        counters.nanoseconds.add(nanoseconds, ordering: .relaxed)
        if failure != nil { counters.failed.add(1, ordering: .relaxed) }
    }

    /// Records that a write recorded earlier failed when it was checked or committed.
    func recordFailedWrite(_ counters: Counters) { counters.failed.add(1, ordering: .relaxed) }

    /// Sets every counter to zero (`CONFIG RESETSTAT`).
    func reset() {
        for counters in table.values {
            counters.calls.store(0, ordering: .relaxed)
            counters.nanoseconds.store(0, ordering: .relaxed)
            counters.rejected.store(0, ordering: .relaxed)
            counters.failed.store(0, ordering: .relaxed)
        }
    }

    /// `cmdstat_<name>:calls=…,usec=…,usec_per_call=…,rejected_calls=…,failed_calls=…` for each
    /// command called (or refused) since the start or the last reset, by name.
    var infoLines: [String] {
        table.keys.sorted().compactMap { name in
            let counters = table[name]!
            let calls = counters.calls.load(ordering: .relaxed)
            let rejected = counters.rejected.load(ordering: .relaxed)
            guard calls > 0 || rejected > 0 else { return nil }
            let microseconds = counters.nanoseconds.load(ordering: .relaxed) / 1_000
            let perCall = calls == 0 ? 0 : Double(microseconds) / Double(calls)
            return "cmdstat_\(name.lowercased()):calls=\(calls),usec=\(microseconds),"
                + "usec_per_call=\(String(format: "%.2f", perCall)),rejected_calls=\(rejected),"
                + "failed_calls=\(counters.failed.load(ordering: .relaxed))"
        }
    }
}
