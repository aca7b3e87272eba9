import Places

/// `CLIENT` and `MONITOR`: the live connections, as Redis 7.0 shows and closes them.
///
/// Vicinity keeps each connection to itself unless the admin token is presented: `CLIENT LIST`
/// shows other connections only to the admin, `CLIENT KILL` closes another connection only for
/// the admin, and only the admin may `MONITOR`.
extension LineService {
    func client(_ arguments: inout CommandArguments, _ session: inout Session) throws(CommandFailure) -> RESPReply {
        let typed = try arguments.next()
        switch typed.uppercased() {
        case "SETNAME":
            let name = try arguments.next()
            try Self.checkClientName(name)
            session.name = name.isEmpty ? nil : name
            return .simpleString("OK")
        case "GETNAME":
            return session.name.map { .text($0) } ?? .nullBulk
        case "ID":
            return .integer(session.id)
        case "SETINFO":
            let attribute = try arguments.next().lowercased()
            let value = try arguments.next()
            switch attribute {
            case "lib-name": session.libraryName = value
            case "lib-ver": session.libraryVersion = value
            default: throw .error("Unrecognized option '\(attribute)'")
            }
            return .simpleString("OK")
        case "INFO":
            return .verbatim(.text, .init(string: (session.record?.line(now: ClientRegistry.now()) ?? "") + "\n"))
        case "LIST":
            return try clientList(&arguments, session)
        case "KILL":
            return try clientKill(&arguments, &session)
        case "NO-EVICT":
            let mode = try arguments.next()
            switch mode.uppercased() {
            case "ON", "OFF": session.record?.state.withLock { $0.noEvict = mode.uppercased() == "ON" }
            default: throw .syntax
            }
            return .simpleString("OK")
        case "HELP":
            return LineService.help(for: "CLIENT")
        default:
            throw CommandFailure(line: LineService.unknownSubcommand(typed, of: "CLIENT"))
        }
    }

    /// `CLIENT LIST [TYPE type] [ID id …]`: one line per connection, `\n` after each.
    private func clientList(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure)
        -> RESPReply
    {
        var ids: Set<Int>?
        var normalOnly = true
        while let option = arguments.option() {
            switch option {
            case "TYPE":
                let type = try arguments.next()
                switch type.lowercased() {
                case "normal": normalOnly = true
                case "master", "replica", "slave", "pubsub": normalOnly = false
                default: throw .error("Unknown client type '\(type)'")
                }
            case "ID":
                var wanted = Set<Int>()
                while !arguments.isAtEnd {
                    let text = try arguments.next()
                    guard let id = Int(text), id > 0 else { throw .error("Invalid client ID") }
                    wanted.insert(id)
                }
                if wanted.isEmpty { throw .syntax }
                ids = wanted
            default:
                throw .syntax
            }
        }
        let now = ClientRegistry.now()
        let isAdmin = session.principal == .admin
        let lines = clients.all.filter { record in
            normalOnly && (isAdmin || record.id == session.id) && (ids?.contains(record.id) ?? true)
        }.map { $0.line(now: now) + "\n" }
        return .verbatim(.text, .init(string: lines.joined()))
    }

    /// `CLIENT KILL ip:port` (the old form: `+OK` or an error) and `CLIENT KILL <filter> <value> …`
    /// with `ID`, `ADDR`, `LADDR`, `SKIPME`, `TYPE` and `USER` (the count closed), as Redis 7.0's
    /// `clientKillCommand`. Closing one's own connection happens after the reply.
    private func clientKill(_ arguments: inout CommandArguments, _ session: inout Session) throws(CommandFailure)
        -> RESPReply
    {
        let all = clients.all
        if arguments.remaining == 1 {
            let address = try arguments.next()
            guard let target = all.first(where: { $0.endpoint.address == address }) else {
                throw .error("No such client")
            }
            try kill([target], &session)
            return .simpleString("OK")
        }
        guard arguments.remaining % 2 == 0 else { throw .syntax }
        var targets = all
        var skipMe = true
        while let filter = arguments.option() {
            let value = try arguments.next()
            switch filter {
            case "ID":
                guard let id = Int(value), id > 0 else { throw .error("client-id should be greater than 0") }
                targets = targets.filter { $0.id == id }
            case "ADDR": targets = targets.filter { $0.endpoint.address == value }
            case "LADDR": targets = targets.filter { $0.endpoint.localAddress == value }
            case "USER": targets = value == "default" ? targets : []
            case "TYPE":
                switch value.lowercased() {
                case "normal": break
                case "master", "replica", "slave", "pubsub": targets = []
                default: throw .error("Unknown client type '\(value)'")
                }
            case "SKIPME":
                switch value.lowercased() {
                case "yes": skipMe = true
                case "no": skipMe = false
                default: throw .syntax
                }
            default:
                throw .syntax
            }
        }
        if skipMe { targets = targets.filter { $0.id != session.id } }
        try kill(targets, &session)
        return .integer(targets.count)
    }

    /// Closes the connections; another client's needs the admin token, one's own closes after the reply.
    private func kill(_ targets: [ClientRegistry.Record], _ session: inout Session) throws(CommandFailure) {
        if targets.contains(where: { $0.id != session.id }) {
            try LineService.requireAdmin(session, action: "closing another client's connection needs the admin token")
        }
        for target in targets {
            if target.id == session.id { session.closing = true } else { target.endpoint.close() }
        }
    }

    /// `MONITOR` (admin only): `+OK`, then a line for every command any client runs.
    func monitor(_ session: inout Session) throws(CommandFailure) -> RESPReply {
        try LineService.requireAdmin(session, action: "monitoring every client's commands needs the admin token")
        session.startsMonitoring = true
        return .simpleString("OK")
    }

    /// Redis `clientSetName`: printable ASCII from "!" to "~" only.
    static func checkClientName(_ name: String) throws(CommandFailure) {
        guard name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .error("Client names cannot contain spaces, newlines or special characters.")
        }
    }
}
