import Places

/// Redis transactions — `MULTI`, `EXEC`, `DISCARD`, `WATCH`, `UNWATCH` — on
/// `DurableDirectory.transact` (the grouped run of a connection's pipelined writes is in
/// `LineService+WriteBatch.swift`).
///
/// After `MULTI` each command is checked (unknown name, wrong number of arguments: an error reply,
/// and `EXEC` will answer `EXECABORT`) and answered `+QUEUED`. `EXEC` runs the queued commands in
/// order on the directory's writer thread, so no other client's write comes between them, and
/// answers an array of their replies; later commands see the writes of earlier ones. Error
/// wording follows Redis 7.0's `src/multi.c` and `src/server.c` (`processCommand`).
///
/// **All or none.** Redis does not roll back: a command failing at run time leaves the others'
/// effects. Vicinity keeps that for commands that read (their error is an element of the array,
/// as in Redis), but the writes of a transaction are one store transaction: when a write command
/// fails — a bad argument, no permission, a rule of `PlaceDirectory.checked`, the store itself —
/// nothing of the transaction is stored and `EXEC` answers
/// `-EXECABORT Transaction rolled back, nothing stored: command <n> (<name>) failed: <error>`.
/// Clients read `EXECABORT` as a failed transaction (redis-py raises `ExecAbortError`), which is
/// what it is; answering an array would report writes that were not made.
///
/// **WATCH** records each key's change counter (`DurableDirectory.version(ofKey:)`: a key is a
/// place kind, or `user`); `EXEC` compares them on the writer thread before running anything and
/// answers a null array when one changed (by any client, this one included), as Redis does. That
/// is what redis-py's `transaction()` helper and `pipeline.watch()` rely on.
extension LineService {
    /// What `execute` does with a command, given the session's transaction state.
    enum TransactionStep {
        /// Not a transaction command, not in `MULTI`: run it.
        case proceed
        /// Answered already (`+QUEUED`, `+OK`, an error).
        case reply(RESPReply)
        /// `EXEC` of these commands, with the keys watched.
        case exec(QueuedTransaction, watched: [String: UInt64])
    }

    /// The transaction commands, and queueing while in `MULTI`.
    func transactionStep(_ name: String, _ arguments: [String], _ session: inout Session) -> TransactionStep {
        // Redis 7.0's `processCommand` answers QUIT before it looks at MULTI: never queued.
        if name == "QUIT" { return .proceed }
        // Arity was checked in `execute` against `CommandTable`, before this step.
        guard LineService.transactionCommands.contains(name) else {
            guard session.transaction != nil else { return .proceed }
            guard LineService.commandNames.contains(name) else {
                session.transaction?.failed = true
                return .reply(.error(LineService.unknownCommand(arguments[0], arguments: Array(arguments.dropFirst()))))
            }
            session.transaction?.commands.append(arguments)
            return .reply(.simpleString("QUEUED"))
        }
        switch name {
        case "MULTI":
            guard session.transaction == nil else { return .reply(.error("ERR MULTI calls can not be nested")) }
            session.transaction = QueuedTransaction()
            return .reply(.simpleString("OK"))
        case "EXEC":
            guard let queued = session.transaction else { return .reply(.error("ERR EXEC without MULTI")) }
            let watched = session.watchedKeys
            session.transaction = nil
            session.watchedKeys = [:]
            guard !queued.failed else {
                return .reply(.error("EXECABORT Transaction discarded because of previous errors."))
            }
            return .exec(queued, watched: watched)
        case "DISCARD":
            guard session.transaction != nil else { return .reply(.error("ERR DISCARD without MULTI")) }
            session.transaction = nil
            session.watchedKeys = [:]
            return .reply(.simpleString("OK"))
        case "WATCH":
            guard session.transaction == nil else { return .reply(.error("ERR WATCH inside MULTI is not allowed")) }
            for key in arguments.dropFirst() where session.watchedKeys[key] == nil {
                session.watchedKeys[key] = directory.version(ofKey: key)
            }
            return .reply(.simpleString("OK"))
        default:  // UNWATCH: queued inside MULTI, as in Redis
            if session.transaction != nil {
                session.transaction?.commands.append(arguments)
                return .reply(.simpleString("QUEUED"))
            }
            session.watchedKeys = [:]
            return .reply(.simpleString("OK"))
        }
    }

    /// The transaction commands, which `transactionStep` answers itself.
    static let transactionCommands: Set<String> = ["MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH"]

    /// Runs `EXEC`: the queued commands as one group on the writer thread, all or none.
    func exec(
        _ queued: QueuedTransaction, watched: [String: UInt64], session: Session,
        completion: @escaping @Sendable (RESPReply, Session) -> Void
    ) {
        directory.transact({ [self] transaction -> (RESPReply, Session) in
            for (key, version) in watched where transaction.version(ofKey: key) != version {
                return (.nullArray, session)
            }
            var session = session
            var replies: [RESPReply] = []
            for (offset, command) in queued.commands.enumerated() {
                let (reply, failedWrite) = runGrouped(command, &session, transaction)
                if failedWrite, case .error(let line) = reply {
                    transaction.rollBack()
                    let name = command[0].uppercased()
                    let message =
                        "EXECABORT Transaction rolled back, nothing stored: command \(offset + 1) (\(name)) failed: "
                    return (.error(message + line), session)
                }
                replies.append(reply)
            }
            return (.array(replies), session)
        }) { [self] result in
            switch result {
            case .success(let (reply, session)):
                // The group's position is not handed back; what is applied once it is stored is at
                // least as far, which is what a read elsewhere needs to wait for.
                if case .array = reply, queued.commands.contains(where: LineService.isWrite) {
                    session.lastWrite.note(directory.appliedPosition)
                }
                completion(reply, session)
            case .failure(.storeUnavailable(let reason)):
                // TRYAGAIN first, as for a single write: clients retry on the prefix.
                completion(
                    .error(
                        "TRYAGAIN Transaction rolled back, nothing stored: "
                            + PlacesError.storeUnavailable(reason).description), session)
            case .failure(let error):
                guard case .error(let line) = LineService.reply(for: error) else { return }
                completion(.error("EXECABORT Transaction rolled back, nothing stored: " + line), session)
            }
        }
    }

    /// Stores `requests` all or none in one transaction, each planned after the ones before.
    ///
    /// - Parameters:
    ///   - lastWrite: the connection's last write position, moved past the transaction once it
    ///     is stored (to the position applied then, which is at least the transaction's).
    ///   - completion: the results in request order: all successes once stored, or the first
    ///     refusal (and nothing stored; the requests after it are not tried).
    func submitAtomically(
        _ requests: [DirectoryRequest], presenting token: String?, noting lastWrite: LastWritePosition,
        completion: @escaping @Sendable ([Result<String?, PlacesError>]) -> Void
    ) {
        directory.transact({ transaction -> [Result<String?, PlacesError>] in
            var results: [Result<String?, PlacesError>] = []
            for request in requests {
                do throws(PlacesError) {
                    results.append(.success(try transaction.perform(request, presenting: token).token))
                } catch {
                    transaction.rollBack()
                    return [.failure(error)]
                }
            }
            return results
        }) { [directory] result in
            switch result {
            case .success(let results):
                if !results.isEmpty, results.allSatisfy({ if case .success = $0 { true } else { false } }) {
                    lastWrite.note(directory.appliedPosition)
                }
                completion(results)
            case .failure(let error): completion([.failure(error)])
            }
        }
    }

    /// Whether a failing command is a write (its failure rolls an `EXEC` back).
    static func isWrite(_ command: [String]) -> Bool {
        let name = command[0].uppercased()
        if groupableWrites.contains(name) || name == "DEL" || name == "GEOSEARCHSTORE" { return true }
        guard name == "GEORADIUS" || name == "GEORADIUSBYMEMBER" else { return false }
        return command.dropFirst().contains { ["STORE", "STOREDIST"].contains($0.uppercased()) }
    }

    /// One command inside a group, on the writer thread: its writes go to `transaction`.
    ///
    /// - Returns: the reply, and whether the command is a write that failed.
    private func runGrouped(_ command: [String], _ session: inout Session, _ transaction: DirectoryTransaction)
        -> (reply: RESPReply, failedWrite: Bool)
    {
        countCommand()
        let name = command[0].uppercased()
        // Queued UNWATCH: EXEC forgets the watched keys anyway.
        if name == "UNWATCH" { return (.simpleString("OK"), false) }
        // Redis 7.0 runs EXEC's commands as a client that may not block: MONITOR refuses there.
        if name == "MONITOR" { return (.error("ERR MONITOR isn't allowed for DENY BLOCKING client"), false) }
        let arguments = CommandArguments(command: command[0], values: Array(command.dropFirst()))
        do throws(CommandFailure) {
            switch try self.command(name, arguments, &session) {
            case .reply(let reply):
                return (reply, false)
            case .waitForPosition(let position, _):
                // Inside EXEC nothing waits (as Redis's blocking commands inside MULTI): the
                // group runs on the writer thread, which applies what the wait would wait for.
                let applied = directory.appliedPosition >= position
                return (positionReply(position, timeoutMilliseconds: 0, applied: applied), false)
            case .write(let request, let reply):
                do throws(PlacesError) {
                    let receipt = try transaction.perform(request, presenting: session.token)
                    return (reply(receipt.token), false)
                } catch {
                    return (LineService.reply(for: error), true)
                }
            case .writes(let requests, let reply), .atomicWrites(let requests, let reply):
                var results: [Result<String?, PlacesError>] = []
                var failed = false
                for request in requests {
                    do throws(PlacesError) {
                        results.append(.success(try transaction.perform(request, presenting: session.token).token))
                    } catch {
                        results.append(.failure(error))
                        failed = true
                    }
                }
                return (reply(results), failed)
            }
        } catch {
            return (.error(error.line), LineService.isWrite(command))
        }
    }
}
