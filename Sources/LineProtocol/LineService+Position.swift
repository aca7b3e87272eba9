import Foundation
import Places

/// Read-your-writes on the wire: `POSITION` tells a client where its writes are in the change
/// log, `WAITPOS` waits until this server has applied a position (a write made here or on another
/// server of the same database), and `INFO replication` shows how far this server follows.
extension LineService {
    /// The largest position `WAITPOS` takes: the HTTP API's `Vicinity-Min-Position` range, so one
    /// number works on both.
    static let maximumPosition = LogPosition(Int64.max)
    /// The longest `WAITPOS` waits, in milliseconds (the HTTP API's `Vicinity-Wait-Ms` limit).
    static let maximumWaitMilliseconds = 60_000

    func positionCommand(_ name: String, _ arguments: inout CommandArguments, _ session: Session)
        throws(CommandFailure) -> Outcome?
    {
        switch name {
        case "POSITION":
            guard arguments.isAtEnd else { throw .wrongArity(name) }
            let status = directory.replication
            return .reply(
                .array([
                    .integer(Int(clamping: session.lastWrite.value)), .integer(Int(clamping: status.applied)),
                    .integer(Int(clamping: max(status.latest, status.applied))),
                ]))
        case "WAITPOS":
            guard arguments.remaining == 2 else { throw .wrongArity(name) }
            let positionText = try arguments.next()
            guard let position = LineService.wholeNumber(positionText), position <= LineService.maximumPosition else {
                throw .error(
                    "invalid position \(PlacesError.quoted(positionText)): expected a whole number from 0 to "
                        + "\(LineService.maximumPosition)")
            }
            let timeoutText = try arguments.next()
            guard let timeout = LineService.wholeNumber(timeoutText),
                timeout <= LogPosition(LineService.maximumWaitMilliseconds)
            else {
                throw .error(
                    "invalid timeout \(PlacesError.quoted(timeoutText)): expected a whole number of milliseconds "
                        + "from 0 to \(LineService.maximumWaitMilliseconds)")
            }
            return .waitForPosition(position, timeoutMilliseconds: Int(timeout))
        case "NODE.STATE":
            guard arguments.isAtEnd else { throw .wrongArity(name) }
            try LineService.requireAdmin(session, action: "NODE.STATE needs the admin token")
            // Memory and its position read under one lock, so the dump is one state.
            let dump = directory.readWithPosition { directory, position in directory.stateDump(position: position) }
            return .reply(.bulkText(dump))
        default:
            return nil
        }
    }

    /// `WAITPOS`'s answer once the wait is over: the applied position, or `-TIMEOUT` naming the
    /// position, the time waited and where this server stands.
    func positionReply(_ position: LogPosition, timeoutMilliseconds: Int, applied: Bool) -> RESPReply {
        let status = directory.replication
        guard applied else {
            return .error(
                "TIMEOUT position \(position) not applied within \(timeoutMilliseconds) ms (applied \(status.applied), "
                    + "latest \(max(status.latest, status.applied)))")
        }
        return .integer(Int(clamping: max(status.applied, directory.appliedPosition)))
    }

    /// `WAITPOS`: answers through `completion` once `position` is applied or the time is out,
    /// without holding the event loop (the directory calls back from the thread that applied it,
    /// or from a timer's).
    func waitForPosition(
        _ position: LogPosition, timeoutMilliseconds: Int, completion: @escaping @Sendable (RESPReply) -> Void
    ) {
        directory.whenApplied(position, timeout: Double(timeoutMilliseconds) / 1_000) { [self] applied in
            completion(positionReply(position, timeoutMilliseconds: timeoutMilliseconds, applied: applied))
        }
    }

    /// `# Replication`: how far this server has followed its database's change log. Every node
    /// writes (there is no master or replica), hence `role:node`.
    ///
    /// `last_error` is the admin's only: the database's address, and the ids a failure names, are
    /// not for every client (INFO asks no token).
    func replicationLines(admin: Bool) -> [String] {
        let status = directory.replication
        let lastError =
            !admin && status.lastError != nil
            ? "(shown to the admin token)"
            : (status.lastError ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
        return [
            "# Replication", "role:node", "applied_position:\(status.applied)",
            "latest_position:\(max(status.latest, status.applied))",
            "lag_seconds:" + String(format: "%.3f", status.lagSeconds()), "following:\(status.following ? 1 : 0)",
            "store_reachable:\(status.unreachableSince == nil ? 1 : 0)",
            "store_unreachable_since:" + (status.unreachableSince.map { String(Int($0)) } ?? ""),
            "followed_changes:\(status.followedChanges)", "own_changes:\(status.ownChanges)",
            "snapshot_reloads:\(status.reloads)", "last_error:\(lastError)",
        ]
    }

    /// Decimal digits only, as Redis reads a whole number without a sign; nil otherwise or
    /// beyond `UInt64`.
    static func wholeNumber(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(text)
    }
}
