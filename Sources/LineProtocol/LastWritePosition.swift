import Places
import Synchronization

/// The change-log position of the last write acknowledged on one connection, for `POSITION`.
///
/// A reference in `Session`, so that every copy of a connection's session notes into one place:
/// the copy a pipelined group of writes runs with, and the one an `EXEC` hands to the writer
/// thread, come back to the connection by other paths than `execute`'s completion.
public final class LastWritePosition: Sendable {
    private let position = Atomic<LogPosition>(0)

    public init() {}

    /// The position of the newest write acknowledged so far; 0 before the first.
    public var value: LogPosition { position.load(ordering: .acquiring) }

    /// Notes a write stored at `stored`. Positions only grow: a write acknowledged after another
    /// but stored before it (two writes of one pipelined group) does not move it back.
    func note(_ stored: LogPosition) {
        var current = position.load(ordering: .relaxed)
        while stored > current {
            let (exchanged, original) = position.compareExchange(
                expected: current, desired: stored, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}
