import Foundation
import Synchronization

/// The live connections, for `CLIENT LIST/INFO/KILL`, `MONITOR` and the slow log's client
/// fields: who is connected from where, since when, what each ran last, and how to close one
/// or send it a line from another connection's thread.
///
/// Thread-safe: the table of connections has one mutex (taken when a connection opens or closes and
/// by `CLIENT LIST`), each connection's record its own; the monitor count is an atomic, so a command
/// costs nothing extra while nobody monitors.
final class ClientRegistry: Sendable {
    /// How to reach a connection from any thread; made by `CommandHandler` from its channel.
    struct Endpoint: Sendable {
        /// `ip:port` of the peer and of the server's side.
        var address: String
        var localAddress: String
        /// Closes the connection (its queued replies are dropped).
        var close: @Sendable () -> Void
        /// Writes raw protocol bytes to the connection and flushes them (`MONITOR`'s lines).
        var send: @Sendable (String) -> Void

        /// An endpoint that goes nowhere, for sessions that have no socket (tests, the bench).
        static let detached = Endpoint(address: "", localAddress: "", close: {}, send: { _ in })
    }

    /// One connection as `CLIENT LIST` shows it. Its session holds it too and updates it after each
    /// command under its own lock, so connections never wait for each other.
    final class Record: Sendable {
        let id: Int
        let endpoint: Endpoint
        /// `DispatchTime` uptime nanoseconds when it connected.
        let connectedAt: UInt64
        let state: Mutex<State>

        struct State: Sendable {
            /// Uptime nanoseconds of the last command.
            var lastActiveAt: UInt64
            /// The last command's name in lower case (`client|list` for a subcommand); `NULL` before one.
            var lastCommand = "NULL"
            var name: String?
            var libraryName: String?
            var libraryVersion: String?
            var protocolVersion = 2
            var monitoring = false
            var noEvict = false
        }

        init(id: Int, endpoint: Endpoint, now: UInt64) {
            self.id = id
            self.endpoint = endpoint
            connectedAt = now
            state = Mutex(State(lastActiveAt: now))
        }

        /// Records that the client runs `command` now (`CLIENT LIST` run by it shows itself).
        func begin(_ command: String) {
            let now = ClientRegistry.now()
            state.withLock { state in
                state.lastActiveAt = now
                state.lastCommand = command
            }
        }

        /// Records what its session says after a command (name, library, protocol).
        func update(_ session: Session) {
            state.withLock { state in
                state.name = session.name
                state.libraryName = session.libraryName
                state.libraryVersion = session.libraryVersion
                state.protocolVersion = session.protocolVersion
            }
        }

        var name: String? { state.withLock { $0.name } }

        /// Redis 7.2's `CLIENT LIST` line (`catClientInfoString`, `src/networking.c`) without the
        /// descriptor, buffer and memory fields Vicinity does not track; `now` in uptime nanoseconds.
        func line(now: UInt64) -> String {
            let state = state.withLock { $0 }
            let age = (now &- connectedAt) / 1_000_000_000
            let idle = (now &- state.lastActiveAt) / 1_000_000_000
            var flags = state.monitoring ? "O" : ""
            if state.noEvict { flags += "e" }
            if flags.isEmpty { flags = "N" }
            return "id=\(id) addr=\(endpoint.address) laddr=\(endpoint.localAddress) name=\(state.name ?? "") "
                + "age=\(age) idle=\(idle) flags=\(flags) db=0 sub=0 psub=0 ssub=0 multi=-1 cmd=\(state.lastCommand) "
                + "user=default redir=-1 resp=\(state.protocolVersion) lib-name=\(state.libraryName ?? "") "
                + "lib-ver=\(state.libraryVersion ?? "")"
        }
    }

    private let clients = Mutex<[Int: Record]>([:])
    private let monitors = Atomic<Int>(0)
    /// Connections accepted since the start (`INFO`'s `total_connections_received`).
    private let accepted = Atomic<Int>(0)

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Registers a new connection; the record goes into its session.
    func add(id: Int, endpoint: Endpoint) -> Record {
        accepted.add(1, ordering: .relaxed)
        let record = Record(id: id, endpoint: endpoint, now: Self.now())
        clients.withLock { $0[id] = record }
        return record
    }

    func remove(id: Int) {
        guard let removed = clients.withLock({ $0.removeValue(forKey: id) }) else { return }
        if removed.state.withLock({ $0.monitoring }) { monitors.subtract(1, ordering: .relaxed) }
    }

    /// Makes the client receive every later command (`MONITOR`).
    func startMonitoring(id: Int) {
        guard let record = client(id: id) else { return }
        let started = record.state.withLock { state -> Bool in
            defer { state.monitoring = true }
            return !state.monitoring
        }
        if started { monitors.add(1, ordering: .relaxed) }
    }

    /// Whether any client monitors: a command's line is only made then.
    var isMonitored: Bool { monitors.load(ordering: .relaxed) > 0 }

    /// Sends `line` (a whole RESP line, `\r\n` included) to every monitoring client.
    func feedMonitors(_ line: String) {
        for record in all where record.state.withLock({ $0.monitoring }) { record.endpoint.send(line) }
    }

    var totalAccepted: Int { accepted.load(ordering: .relaxed) }

    /// The clients by id, oldest first.
    var all: [Record] { clients.withLock { $0.values.sorted { $0.id < $1.id } } }

    func client(id: Int) -> Record? { clients.withLock { $0[id] } }
}
