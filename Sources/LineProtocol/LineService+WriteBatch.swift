import Places

/// Several writes of one connection submitted at once: a multi-member command's (`submitAll`), and
/// a connection's pipelined writes run as one group (`executeWrites`).
extension LineService {
    /// Submits several writes at once and calls `completion` once, when the last one is answered,
    /// with every result in request order. The writes are independent: one refused does not stop
    /// the others (Redis's multi-member commands are not transactions across Vicinity's store
    /// either). Requests with the same subject are planned one after the other by the directory,
    /// so they take effect in the order given.
    ///
    /// - Parameters:
    ///   - requests: the writes; none answers `completion([])` at once.
    ///   - token: the token presented (nil for none), resolved by the directory for each write.
    ///   - lastWrite: the connection's last write position, moved to each write stored.
    ///   - completion: runs exactly once, on the writer thread (or at once for no requests).
    func submitAll(
        _ requests: [DirectoryRequest], presenting token: String?, noting lastWrite: LastWritePosition,
        completion: @escaping @Sendable ([Result<String?, PlacesError>]) -> Void
    ) {
        guard !requests.isEmpty else {
            completion([])
            return
        }
        let batch = WriteBatch(count: requests.count)
        for (index, request) in requests.enumerated() {
            directory.submitWithReceipt(request, presenting: token) { result in
                if case .success(let receipt) = result { lastWrite.note(receipt.position) }
                if let results = batch.record(result.map(\.token), at: index) { completion(results) }
            }
        }
    }

    /// Runs a connection's queued pipelined writes together (`CommandHandler` takes them off its
    /// queue when they name distinct records): each command runs now, in order, and all their
    /// writes join the directory's queue at once, so that they share a commit. They stay
    /// independent: a write refused is answered with its error and the others are stored.
    ///
    /// The caller guarantees that no command reads what an earlier one writes (distinct keys and
    /// members, see `CommandHandler.writeKeys`): each runs against the directory as it was before
    /// the group.
    ///
    /// - Parameter completion: every reply in order, once the last write is answered; at once when
    ///   none writes.
    func executeWrites(
        _ commands: [[String]], session: Session, completion: @escaping @Sendable ([RESPReply]) -> Void
    ) {
        let replies = ReplyBatch(count: commands.count, completion: completion)
        var writes: [(request: DirectoryRequest, completion: @Sendable (Result<WriteReceipt, PlacesError>) -> Void)] =
            []
        let lastWrite = session.lastWrite
        for (index, command) in commands.enumerated() {
            countCommand()
            var session = session
            let arguments = CommandArguments(command: command[0], values: Array(command.dropFirst()))
            do throws(CommandFailure) {
                let outcome = try self.command(command[0].uppercased(), arguments, &session)
                noteGrouped(command, session, failure: nil)
                switch outcome {
                case .reply(let reply):
                    replies.record(reply, at: index)
                case .waitForPosition(let position, _):
                    // Not groupable (`groupableWrites`); answered as it stands, should it come here.
                    replies.record(
                        positionReply(position, timeoutMilliseconds: 0, applied: directory.appliedPosition >= position),
                        at: index)
                case .write(let request, let reply):
                    writes.append(
                        (
                            request,
                            { result in
                                switch result {
                                case .success(let receipt):
                                    lastWrite.note(receipt.position)
                                    replies.record(reply(receipt.token), at: index)
                                case .failure(let error): replies.record(LineService.reply(for: error), at: index)
                                }
                            }
                        ))
                case .writes(let requests, let reply), .atomicWrites(let requests, let reply):
                    guard !requests.isEmpty else {
                        replies.record(reply([]), at: index)
                        continue
                    }
                    let batch = WriteBatch(count: requests.count)
                    for (offset, request) in requests.enumerated() {
                        writes.append(
                            (
                                request,
                                { result in
                                    if case .success(let receipt) = result { lastWrite.note(receipt.position) }
                                    if let results = batch.record(result.map(\.token), at: offset) {
                                        replies.record(reply(results), at: index)
                                    }
                                }
                            ))
                    }
                }
            } catch {
                noteGrouped(command, session, failure: error.line)
                replies.record(.error(error.line), at: index)
            }
        }
        if !writes.isEmpty { directory.submitWithReceipts(contentsOf: writes, presenting: session.token) }
    }

    /// Whether `CommandHandler` may run a request together with other pipelined writes: a write
    /// whose effect depends only on the records it names (not on the connection's state, nor on a
    /// whole key as DEL).
    static let groupableWrites: Set<String> = [
        "GEOADD", "ZREM", "PLACE.SET", "PLACE.DEL", "USER.ADD", "USER.MOVE", "USER.VISIBILITY", "USER.PRECISION",
        "USER.DEL",
    ]

    /// The records a groupable write may read or change, as `key\0member` strings, over-counted
    /// (every argument after the key may be a member); nil for a command that is not groupable.
    /// Two writes with no string in common can run against the same state.
    static func writeKeys(_ arguments: [String]) -> Set<String>? {
        guard arguments.count >= 2 else { return nil }
        let name = arguments[0].uppercased()
        guard groupableWrites.contains(name) else { return nil }
        if name.hasPrefix("USER.") { return ["\(PlaceDirectory.userKind)\u{0}\(arguments[1])"] }
        let key = arguments[1]
        var members = Array(arguments.dropFirst(2))
        if name.hasPrefix("PLACE.") {
            members = Array(members.prefix(1))
        } else if name == "GEOADD" {
            // Options, then longitude latitude member triples.
            let options = members.prefix { ["NX", "XX", "CH"].contains($0.uppercased()) }.count
            members = stride(from: options + 2, to: members.count, by: 3).map { members[$0] }
        }
        return Set(members.map { key + "\u{0}" + $0 })
    }
}
