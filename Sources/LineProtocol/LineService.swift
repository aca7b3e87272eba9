import Foundation
import Geo
import Places
import Synchronization

/// Runs the commands of the line protocol against the `Places` façade: every command goes through
/// the `DurableDirectory` (reads from memory, writes through its group commit), so the wire can
/// neither bypass authorization nor show a private user.
///
/// Thread-safe: event loops call `execute` concurrently; reads run in parallel.
public final class LineService: Sendable {
    public let directory: DurableDirectory
    /// The server's start, for `INFO`.
    let started = Date()
    private let counters = Mutex<(nextClientID: Int, connected: Int)>((1, 0))
    /// Commands run so far: an atomic, not under the mutex, since every command counts itself and
    /// event loops would otherwise queue for the lock.
    private let commands = Atomic<Int>(0)
    /// `INFO commandstats`.
    let statistics = CommandStatistics(names: LineService.commandNames)
    /// The live connections (`CLIENT`, `MONITOR`).
    let clients = ClientRegistry()
    let slowLog = SlowLog()
    /// `INFO`'s `instantaneous_ops_per_sec`.
    let operationRate = OperationRate()
    /// The table's entries of the commands `execute` runs, by upper-case name, for the central
    /// arity check (the table also describes commands this service does not run).
    static let runnable: [String: CommandDescription] = CommandTable.byName.filter { commandNames.contains($0.key) }
    /// `runnable` as the checks of every command read it: each entry behind one reference, so
    /// that a lookup retains one object rather than each of a description's fields.
    static let checks: [String: CommandCheck] = runnable.mapValues(CommandCheck.init)

    /// What `execute` checks of a command before running it: its arity, its name, whether it is
    /// an admin command (not shown to monitors), and the same of its subcommands by name.
    final class CommandCheck: Sendable {
        /// Lower case; `container|sub` for a subcommand.
        let name: String
        let arity: Int
        let isAdmin: Bool
        let subcommands: [String: CommandCheck]

        init(_ description: CommandDescription) {
            name = description.name
            arity = description.arity
            isAdmin = description.flags.contains("admin")
            subcommands = Dictionary(
                description.subcommands.map { ($0.name, CommandCheck($0)) }, uniquingKeysWith: { first, _ in first })
        }

        /// `CommandDescription.accepts(wordCount:)`.
        func accepts(wordCount count: Int) -> Bool { arity >= 0 ? count == arity : count >= -arity }
    }

    public init(directory: DurableDirectory) {
        self.directory = directory
    }

    /// A new connection's session; nil when `maximumClients` are connected already.
    ///
    /// - Parameter endpoint: how `CLIENT KILL` closes the connection and `MONITOR` writes to it, and
    ///   the addresses `CLIENT LIST` shows.
    func connect(maximumClients: Int, endpoint: ClientRegistry.Endpoint) -> Session? {
        let id = counters.withLock { counters -> Int? in
            guard counters.connected < maximumClients else { return nil }
            counters.connected += 1
            defer { counters.nextClientID += 1 }
            return counters.nextClientID
        }
        guard let id else { return nil }
        var session = Session(id: id)
        session.record = clients.add(id: id, endpoint: endpoint)
        return session
    }

    /// A new connection's session without a socket behind it (tests, embedding).
    public func connect(maximumClients: Int) -> Session? {
        connect(maximumClients: maximumClients, endpoint: .detached)
    }

    /// Forgets a connection `connect` registered.
    public func disconnect(_ session: Session) {
        clients.remove(id: session.id)
        counters.withLock { $0.connected -= 1 }
    }

    var connectedClients: Int { counters.withLock { $0.connected } }
    var commandsProcessed: Int { commands.load(ordering: .relaxed) }

    /// Runs one command. `completion` runs exactly once, with the reply and the session as the
    /// command left it: at once for reads, on the writer thread after the commit for writes.
    ///
    /// Before the command runs, its arity (and its subcommand's) is checked against `CommandTable`
    /// as Redis checks it, and monitoring clients are sent its line; after, the slow log and the
    /// client's record are updated.
    ///
    /// The time INFO commandstats and the slow log count is the command's own, as Redis 7.0's
    /// `call()` times `c->cmd->proc`: from after the lookup and the arity check (Redis's
    /// `processCommand`) and the monitors' line (untimed in Redis too) to the reply written into
    /// the connection's output; for EXEC, to the reply of its last command.
    public func execute(
        _ arguments: [String], session: Session, completion: @escaping @Sendable (RESPReply, Session) -> Void
    ) {
        let total = commands.add(1, ordering: .relaxed).newValue
        guard let name = arguments.first else {
            completion(.error("ERR empty command"), session)
            return
        }
        let session = refreshed(session)
        operationRate.tick(now: DispatchTime.now().uptimeNanoseconds, total: total)
        let upperName = name.uppercased()
        let counters = statistics.counters(for: upperName)
        let statistics = self.statistics
        let slowLog = self.slowLog
        var described: CommandCheck?
        if let entry = LineService.checks[upperName] {
            described = entry
            if !entry.subcommands.isEmpty, arguments.count >= 2 {
                let subName = entry.name + "|" + arguments[1].lowercased()
                guard let sub = entry.subcommands[subName] else {
                    var refused = session
                    refused.transaction?.failed = true
                    completion(.error(LineService.unknownSubcommand(arguments[1], of: upperName)), refused)
                    return
                }
                described = sub
            }
        }
        var running = session
        if let described, !described.accepts(wordCount: arguments.count) {
            let line = CommandFailure.wrongArity(described.name).line
            if let counters { statistics.record(counters, nanoseconds: 0, failure: line) }
            // Inside MULTI, as in Redis: refused now, and EXEC will answer EXECABORT.
            running.transaction?.failed = true
            completion(.error(line), running)
            return
        }
        if let described, clients.isMonitored, !described.isAdmin {
            feedMonitors(arguments, session)
        }
        session.record?.begin(described?.name ?? upperName.lowercased())
        let finish: @Sendable (RESPReply, Session) -> Void = { reply, session in
            session.record?.update(session)
            completion(reply, session)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        @Sendable func record(failure: String?) {
            let elapsed = Int(clamping: DispatchTime.now().uptimeNanoseconds &- started)
            if let counters { statistics.record(counters, nanoseconds: elapsed, failure: failure) }
            if slowLog.isSlow(microseconds: elapsed / 1_000) {
                slowLog.add(
                    arguments: ArgumentRedaction.redacted(arguments), microseconds: elapsed / 1_000,
                    address: session.record?.endpoint.address ?? "", clientName: session.name ?? "")
            }
        }
        do throws(CommandFailure) {
            if let reply = try watchStep(upperName, arguments, &running) {
                finish(reply, running)
                record(failure: nil)
                return
            }
        } catch {
            finish(.error(error.line), running)
            record(failure: error.line)
            return
        }
        switch transactionStep(upperName, arguments, &running) {
        case .proceed:
            break
        case .reply(let reply):
            finish(reply, running)
            if case .error(let line) = reply { record(failure: line) } else { record(failure: nil) }
            return
        case .exec(let queued, let watched):
            exec(queued, watched: watched, session: running) { reply, session in
                finish(reply, session)
                record(failure: nil)
            }
            return
        }
        let commandArguments = CommandArguments(command: name, values: Array(arguments.dropFirst()))
        do throws(CommandFailure) {
            switch try command(upperName, commandArguments, &running) {
            case .reply(let reply):
                var failure: String?
                if case .error(let line) = reply { failure = line }
                // The completion writes the reply into the connection's output (not to the
                // socket): timed with the command, as Redis times the reply it buffers.
                finish(reply, running)
                record(failure: failure)
                if running.startsMonitoring { clients.startMonitoring(id: running.id) }
            case .write(let request, let reply):
                record(failure: nil)
                let final = running
                directory.submitWithReceipt(request, presenting: running.token) { result in
                    switch result {
                    case .success(let receipt):
                        final.lastWrite.note(receipt.position)
                        finish(reply(receipt.token), final)
                    case .failure(let error):
                        if let counters { statistics.recordFailedWrite(counters) }
                        finish(LineService.reply(for: error), final)
                    }
                }
            case .writes(let requests, let reply):
                record(failure: nil)
                let final = running
                submitAll(requests, presenting: running.token, noting: running.lastWrite) { results in
                    finish(reply(results), final)
                }
            case .atomicWrites(let requests, let reply):
                record(failure: nil)
                let final = running
                submitAtomically(requests, presenting: running.token, noting: running.lastWrite) { results in
                    finish(reply(results), final)
                }
            case .waitForPosition(let position, let timeout):
                record(failure: nil)
                let final = running
                waitForPosition(position, timeoutMilliseconds: timeout) { reply in finish(reply, final) }
            }
        } catch {
            record(failure: error.line)
            finish(.error(error.line), running)
        }
    }

    /// Sends the command's line to the monitoring clients, as Redis 7.0 writes it
    /// (`replicationFeedMonitors`): `+<unix seconds>.<microseconds> [0 <ip:port>] "CMD" "arg"…`, the
    /// arguments quoted and their secrets redacted.
    func feedMonitors(_ arguments: [String], _ session: Session) {
        let now = Date().timeIntervalSince1970
        let seconds = Int(now)
        let micro = String(Int((now - Double(seconds)) * 1_000_000))
        let padded = String(repeating: "0", count: max(0, 6 - micro.count)) + micro
        let quoted = ArgumentRedaction.redacted(arguments).map(ArgumentRedaction.quoted).joined(separator: " ")
        let address = session.record?.endpoint.address ?? ""
        clients.feedMonitors("+\(seconds).\(padded) [0 \(address)] \(quoted)\r\n")
    }

    /// What `execute` notes of every command, for one run in a group of pipelined writes (which
    /// `executeWrites` runs without `execute`): its line to the monitoring clients, the client's
    /// last command, and its call in `INFO commandstats` (a refusal at planning counted as failed).
    func noteGrouped(_ arguments: [String], _ session: Session, failure: String?) {
        let name = arguments[0].uppercased()
        if clients.isMonitored { feedMonitors(arguments, session) }
        session.record?.begin(name.lowercased())
        if let counters = statistics.counters(for: name) {
            statistics.record(counters, nanoseconds: 0, failure: failure)
        }
    }

    /// The session with its principal resolved from its token again: a token replaced
    /// (`USER.TOKEN`, `admin-token --rotate`) or a user removed stops counting for reads on
    /// connections already authenticated, not only for new ones and for writes. A token that no
    /// longer resolves reads as anonymous; writes still present it and are refused with its error.
    func refreshed(_ session: Session) -> Session {
        guard let token = session.token else { return session }
        var session = session
        session.principal =
            (try? directory.read { directory throws(PlacesError) in try directory.principal(presenting: token) })
            ?? .anonymous
        return session
    }

    /// Sets the command counters and statistics to zero (`CONFIG RESETSTAT`).
    func resetStatistics() {
        statistics.reset()
        commands.store(0, ordering: .relaxed)
    }

    /// What a command does: answer now, or make a write and answer once it is stored.
    enum Outcome {
        case reply(RESPReply)
        case write(DirectoryRequest, reply: @Sendable (String?) -> RESPReply)
        /// Several writes submitted at once, answered by one reply once every one is answered
        /// (results in request order); see `submitAll(_:presenting:completion:)`.
        case writes([DirectoryRequest], reply: @Sendable ([Result<String?, PlacesError>]) -> RESPReply)
        /// Several writes stored all or none, in one transaction (GEOSEARCHSTORE, GEORADIUS … STORE):
        /// on the first refused, nothing is stored and the results hold that refusal.
        case atomicWrites([DirectoryRequest], reply: @Sendable ([Result<String?, PlacesError>]) -> RESPReply)
        /// Answer once the directory has applied a log position, or the time is out (`WAITPOS`).
        case waitForPosition(LogPosition, timeoutMilliseconds: Int)
    }

    /// Counts a command run outside `execute` (inside a group on the writer thread).
    func countCommand() { commands.add(1, ordering: .relaxed) }

    func command(_ name: String, _ arguments: CommandArguments, _ session: inout Session) throws(CommandFailure)
        -> Outcome
    {
        var arguments = arguments
        if let outcome = try connectionCommand(name, &arguments, &session) { return outcome }
        if let outcome = try positionCommand(name, &arguments, session) { return outcome }
        if let outcome = try vicinityCommand(name, &arguments, session) { return outcome }
        if let outcome = try userCommand(name, &arguments, session) { return outcome }
        if let outcome = try userTokenCommand(name, &arguments) { return outcome }
        if let outcome = try redisGeoCommand(name, &arguments, session) { return outcome }
        if let outcome = try introspectionCommand(name, &arguments, &session) { return outcome }
        if let outcome = try sortedSetCommand(name, &arguments, session) { return outcome }
        var rest: [String] = []
        while !arguments.isAtEnd { rest.append(try arguments.next()) }
        throw CommandFailure(line: LineService.unknownCommand(arguments.command, arguments: rest))
    }

    /// Redis 7.0's reply to an unknown command (`processCommand`, `src/server.c`): the name cut at
    /// 128 bytes, then each argument quoted while the list is under 128 bytes, each cut to what is
    /// left of those 128. Token-shaped arguments are redacted (`ArgumentRedaction`).
    static func unknownCommand(_ name: String, arguments: [String]) -> String {
        var listed = ""
        for argument in ArgumentRedaction.redacted([name] + arguments).dropFirst() {
            let budget = 128 - listed.utf8.count
            guard budget > 0 else { break }
            listed += "'" + String(decoding: argument.utf8.prefix(budget), as: UTF8.self) + "' "
        }
        let shownName = String(decoding: name.utf8.prefix(128), as: UTF8.self)
        return "ERR unknown command '\(shownName)', with args beginning with: \(listed)"
    }

    /// Redis 7.0's reply to an unknown subcommand of a container command: the subcommand as typed,
    /// the command in capitals.
    static func unknownSubcommand(_ sub: String, of command: String) -> String {
        "ERR unknown subcommand '\(String(decoding: sub.utf8.prefix(128), as: UTF8.self))'. Try \(command) HELP."
    }

    /// The reply for an error of the façade: who may not is `NOPERM`, a database out of reach
    /// `TRYAGAIN` (Redis's prefix for "nothing was done, try again"), everything else `ERR`.
    static func reply(for error: PlacesError) -> RESPReply {
        switch error {
        case .forbidden, .invalidToken: return .error("NOPERM " + error.description)
        case .storeUnavailable: return .error("TRYAGAIN " + error.description)
        default: return .error("ERR " + error.description)
        }
    }

    /// Runs a read on the directory, mapping the façade's errors to replies.
    func read<T>(_ body: (PlaceDirectory) throws(PlacesError) -> T) throws(CommandFailure) -> T {
        do { return try directory.read(body) } catch {
            if case .error(let line) = LineService.reply(for: error) { throw CommandFailure(line: line) }
            throw .error(error.description)
        }
    }
}

extension RESPReply {
    /// A bulk string of UTF-8 text.
    static func text(_ value: String) -> RESPReply { .bulkString(value) }
}
