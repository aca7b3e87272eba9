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

    public init(directory: DurableDirectory) {
        self.directory = directory
    }

    /// A new connection's session; nil when `maximumClients` are connected already.
    public func connect(maximumClients: Int) -> Session? {
        counters.withLock { counters in
            guard counters.connected < maximumClients else { return nil }
            counters.connected += 1
            defer { counters.nextClientID += 1 }
            return Session(id: counters.nextClientID)
        }
    }

    public func disconnect() { counters.withLock { $0.connected -= 1 } }

    var connectedClients: Int { counters.withLock { $0.connected } }
    var commandsProcessed: Int { commands.load(ordering: .relaxed) }

    /// Runs one command. `completion` runs exactly once, with the reply and the session as the
    /// command left it: at once for reads, on the writer thread after the commit for writes.
    public func execute(
        _ arguments: [String], session: Session, completion: @escaping @Sendable (RESPReply, Session) -> Void
    ) {
        commands.add(1, ordering: .relaxed)
        guard let name = arguments.first else {
            completion(.error("ERR empty command"), session)
            return
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let upperName = name.uppercased()
        let counters = statistics.counters(for: upperName)
        let statistics = self.statistics
        func record(failure: String?) {
            guard let counters else { return }
            let elapsed = DispatchTime.now().uptimeNanoseconds &- started
            statistics.record(counters, nanoseconds: Int(clamping: elapsed), failure: failure)
        }
        var session = session
        let arguments = CommandArguments(command: name, values: Array(arguments.dropFirst()))
        do throws(CommandFailure) {
            switch try command(upperName, arguments, &session) {
            case .reply(let reply):
                if case .error(let line) = reply { record(failure: line) } else { record(failure: nil) }
                completion(reply, session)
            case .write(let request, let reply):
                record(failure: nil)
                let final = session
                directory.submit(request, presenting: session.token) { result in
                    switch result {
                    case .success(let token): completion(reply(token), final)
                    case .failure(let error):
                        if let counters { statistics.recordFailedWrite(counters) }
                        completion(LineService.reply(for: error), final)
                    }
                }
            case .writes(let requests, let reply):
                record(failure: nil)
                let final = session
                submitAll(requests, presenting: session.token) { results in completion(reply(results), final) }
            }
        } catch {
            record(failure: error.line)
            completion(.error(error.line), session)
        }
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
    }

    private func command(_ name: String, _ arguments: CommandArguments, _ session: inout Session) throws(CommandFailure)
        -> Outcome
    {
        var arguments = arguments
        if let outcome = try connectionCommand(name, &arguments, &session) { return outcome }
        if let outcome = try vicinityCommand(name, &arguments, session) { return outcome }
        if let outcome = try userTokenCommand(name, &arguments) { return outcome }
        if let outcome = try redisGeoCommand(name, &arguments, session) { return outcome }
        let shown = arguments.command.count > 128 ? String(arguments.command.prefix(128)) : arguments.command
        throw .error("unknown command '\(shown)', with args beginning with: ")
    }

    /// The reply for an error of the façade: who may not is `NOPERM`, everything else `ERR`.
    static func reply(for error: PlacesError) -> RESPReply {
        switch error {
        case .forbidden, .invalidToken: return .error("NOPERM " + error.description)
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
