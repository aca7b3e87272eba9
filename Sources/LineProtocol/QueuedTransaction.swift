/// The commands a client queued between `MULTI` and `EXEC`, each as its arguments (name first),
/// and whether one of them was refused when queued (then `EXEC` runs none of them).
struct QueuedTransaction: Sendable {
    var commands: [[String]] = []
    /// Set when a command was unknown or had the wrong number of arguments (Redis's
    /// `CLIENT_DIRTY_EXEC`): `EXEC` answers `EXECABORT`.
    var failed = false
}
