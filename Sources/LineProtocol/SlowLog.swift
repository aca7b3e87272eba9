import Foundation
import Synchronization

/// The commands that took longer than a threshold, newest first, as Redis 7.0's slow log keeps
/// them (`src/slowlog.c`): id, Unix time in seconds, duration in microseconds, the arguments
/// (tokens redacted, at most 32, each cut at 128 bytes), the client's address and name.
///
/// The duration is the command's execution as `CommandStatistics` measures it (not the wait for a
/// write's commit). Defaults are Redis's: `slowlog-log-slower-than` 10,000 µs (negative: log
/// nothing, 0: log every command) and `slowlog-max-len` 128 entries.
final class SlowLog: Sendable {
    struct Entry: Sendable {
        let id: Int
        let unixSeconds: Int
        let microseconds: Int
        let arguments: [String]
        let address: String
        let clientName: String

        var reply: RESPReply {
            .array([
                .integer(id), .integer(unixSeconds), .integer(microseconds), .array(arguments.map { .text($0) }),
                .text(address), .text(clientName),
            ])
        }
    }

    /// Redis's `SLOWLOG_ENTRY_MAX_ARGC` and `SLOWLOG_ENTRY_MAX_STRING` (`src/slowlog.h`).
    static let maximumArguments = 32
    static let maximumArgumentBytes = 128

    private let state = Mutex<(entries: [Entry], nextID: Int)>(([], 0))
    /// `slowlog-log-slower-than`, microseconds.
    let threshold = Atomic<Int>(10_000)
    /// `slowlog-max-len`, entries.
    let maximumLength = Atomic<Int>(128)

    /// Whether a command that took `microseconds` belongs in the log.
    func isSlow(microseconds: Int) -> Bool {
        let threshold = threshold.load(ordering: .relaxed)
        return threshold >= 0 && microseconds >= threshold
    }

    /// Adds an entry (the arguments already redacted), dropping the oldest beyond the maximum length.
    func add(arguments: [String], microseconds: Int, address: String, clientName: String) {
        let kept = Self.shortened(arguments)
        let limit = maximumLength.load(ordering: .relaxed)
        state.withLock { state in
            state.entries.insert(
                Entry(
                    id: state.nextID, unixSeconds: Int(Date().timeIntervalSince1970), microseconds: microseconds,
                    arguments: kept, address: address, clientName: clientName), at: 0)
            state.nextID += 1
            if state.entries.count > max(limit, 0) { state.entries.removeLast(state.entries.count - max(limit, 0)) }
        }
    }

    /// The newest `count` entries (all when nil or negative, as Redis 7.0 takes -1).
    func newest(_ count: Int?) -> [Entry] {
        state.withLock { state in
            guard let count, count >= 0 else { return state.entries }
            return Array(state.entries.prefix(count))
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    func reset() { state.withLock { $0.entries.removeAll() } }

    /// At most 32 arguments, the last saying how many more there were; each argument at most 128
    /// bytes, followed by how many more it had.
    static func shortened(_ arguments: [String]) -> [String] {
        var kept = arguments.prefix(maximumArguments).map { argument -> String in
            let bytes = argument.utf8.count
            guard bytes > maximumArgumentBytes else { return argument }
            let cut = String(decoding: argument.utf8.prefix(maximumArgumentBytes), as: UTF8.self)
            return cut + "... (\(bytes - maximumArgumentBytes) more bytes)"
        }
        if arguments.count > maximumArguments {
            kept[maximumArguments - 1] = "... (\(arguments.count - maximumArguments + 1) more arguments)"
        }
        return kept
    }
}
