/// How a `PostgresPlaceStore` numbers the changes it logs.
public enum LogSequencing: Sendable, Hashable {
    /// Gap-free positions in commit order, taken from the head row inside the transaction (the
    /// only mode for real use; see `PostgresPlaceStore`).
    case headRow
    /// Deliberately broken, for the test that proves `headRow` necessary: positions come from a
    /// plain sequence at the start of the transaction, so a transaction can commit a higher
    /// number before another commits a lower one, and a reader tailing the log skips the lower
    /// one. The transaction sleeps up to `delaySeconds` (at random) between taking its numbers and
    /// committing, to widen that window. Chosen by `VICINITY_UNSAFE_LOG_SEQUENCE=1` or by the initializer.
    case unsafeSequence(delaySeconds: Double)

    /// The environment variable that turns the broken mode on (`1`).
    public static let environmentVariable = "VICINITY_UNSAFE_LOG_SEQUENCE"

    /// The environment variable with the broken mode's longest delay, in milliseconds (default 0).
    public static let delayVariable = "VICINITY_UNSAFE_LOG_DELAY_MS"

    /// `unsafeSequence` when the environment asks for it (with the delay it names, 0 to 1000 ms),
    /// else `headRow`.
    public static func from(environment: [String: String]) -> LogSequencing {
        guard environment[environmentVariable] == "1" else { return .headRow }
        let milliseconds = environment[delayVariable].flatMap(Double.init) ?? 0
        return .unsafeSequence(delaySeconds: min(max(milliseconds, 0), 1_000) / 1_000)
    }
}
