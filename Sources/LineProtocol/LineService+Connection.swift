import Foundation
import Places

/// The connection commands real clients send: PING, ECHO, QUIT, AUTH, HELLO, CLIENT, SELECT,
/// COMMAND, INFO, CONFIG GET/RESETSTAT, DBSIZE, and Vicinity's OUTPUT.
extension LineService {
    /// The version `HELLO` and `INFO` report.
    static let version = ProductVersion.current

    func connectionCommand(_ name: String, _ arguments: inout CommandArguments, _ session: inout Session)
        throws(CommandFailure) -> Outcome?
    {
        switch name {
        case "PING":
            guard arguments.remaining <= 1 else { throw .wrongArity(name) }
            return .reply(arguments.isAtEnd ? .simpleString("PONG") : .text(try arguments.next()))
        case "ECHO":
            guard arguments.remaining == 1 else { throw .wrongArity(name) }
            return .reply(.text(try arguments.next()))
        case "QUIT":
            session.closing = true
            return .reply(.simpleString("OK"))
        case "AUTH":
            guard (1...2).contains(arguments.remaining) else { throw .wrongArity(name) }
            if arguments.remaining == 2 { _ = try arguments.next() }  // AUTH username password: one user
            try authenticate(try arguments.next(), &session)
            return .reply(.simpleString("OK"))
        case "HELLO":
            return .reply(try hello(&arguments, &session))
        case "CLIENT":
            return .reply(try client(&arguments, &session))
        case "SELECT":
            guard arguments.remaining == 1 else { throw .wrongArity(name) }
            let index = try arguments.next()
            guard let number = Int(index) else { throw .error("value is not an integer or out of range") }
            guard number == 0 else { throw .error("DB index is out of range") }
            return .reply(.simpleString("OK"))
        case "COMMAND":
            return .reply(try commandInfo(&arguments))
        case "INFO":
            var sections: [String] = []
            while !arguments.isAtEnd { sections.append(try arguments.next().lowercased()) }
            return .reply(.text(info(sections: sections)))
        case "CONFIG":
            return .reply(try config(&arguments, session))
        case "DBSIZE":
            guard arguments.isAtEnd else { throw .wrongArity(name) }
            return .reply(.integer(try read { directory in LineService.keyCount(directory) }))
        case "OUTPUT":
            guard arguments.remaining == 1 else { throw .wrongArity(name) }
            let mode = try arguments.next()
            switch mode.lowercased() {
            case "json": session.outputJSON = true
            case "resp": session.outputJSON = false
            default: throw .error("invalid output \"\(mode)\": expected json or resp")
            }
            return .reply(.simpleString("OK"))
        default:
            return nil
        }
    }

    /// The collections a client can see: every place kind, and `user` while a public user is on
    /// a map (private users count for nothing, here as everywhere).
    static func keyCount(_ directory: PlaceDirectory) -> Int {
        directory.places.kinds.count + (directory.publicUserCount > 0 ? 1 : 0)
    }

    private func authenticate(_ token: String, _ session: inout Session) throws(CommandFailure) {
        let principal: Principal
        do {
            principal = try directory.read { directory throws(PlacesError) in try directory.principal(presenting: token)
            }
        } catch {
            // Redis's own words for a wrong password.
            throw CommandFailure(line: "WRONGPASS invalid username-password pair or user is disabled.")
        }
        session.token = token
        session.principal = principal
    }

    private func hello(_ arguments: inout CommandArguments, _ session: inout Session) throws(CommandFailure)
        -> RESPReply
    {
        var version = session.protocolVersion
        if !arguments.isAtEnd {
            let text = try arguments.next()
            guard let number = Int(text) else { throw .error("Protocol version is not an integer or out of range") }
            guard number == 2 || number == 3 else {
                throw CommandFailure(line: "NOPROTO unsupported protocol version")
            }
            version = number
        }
        var pending = session
        // Redis 7.0 `helloCommand`: an option without its arguments is a syntax error that quotes
        // the option as given.
        while !arguments.isAtEnd {
            let option = try arguments.next()
            switch option.uppercased() {
            case "AUTH" where arguments.remaining >= 2:
                _ = try arguments.next()
                try authenticate(try arguments.next(), &pending)
            case "SETNAME" where arguments.remaining >= 1:
                let name = try arguments.next()
                try Self.checkClientName(name)
                pending.name = name.isEmpty ? nil : name
            default:
                throw .error("Syntax error in HELLO option '\(option)'")
            }
        }
        pending.protocolVersion = version
        session = pending
        let fields: [(String, RESPReply)] = [
            ("server", .text("vicinity")), ("version", .text(LineService.version)), ("proto", .integer(version)),
            ("id", .integer(session.id)), ("mode", .text("standalone")), ("role", .text("master")),
            ("modules", .array([])),
        ]
        return .map(fields.map { RESPReply.MapEntry(key: .text($0.0), value: $0.1) })
    }

    /// Redis `clientSetName`: printable ASCII from "!" to "~" only.
    private static func checkClientName(_ name: String) throws(CommandFailure) {
        guard name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .error("Client names cannot contain spaces, newlines or special characters.")
        }
    }

    private func client(_ arguments: inout CommandArguments, _ session: inout Session) throws(CommandFailure)
        -> RESPReply
    {
        let sub = try arguments.next().uppercased()
        switch sub {
        case "SETNAME":
            guard arguments.remaining == 1 else { throw .wrongArity("client|setname") }
            let name = try arguments.next()
            try Self.checkClientName(name)
            session.name = name.isEmpty ? nil : name
            return .simpleString("OK")
        case "GETNAME":
            return session.name.map { .text($0) } ?? .nullBulk
        case "ID":
            return .integer(session.id)
        case "SETINFO":
            guard arguments.remaining == 2 else { throw .wrongArity("client|setinfo") }
            let attribute = try arguments.next().lowercased()
            let value = try arguments.next()
            switch attribute {
            case "lib-name": session.libraryName = value
            case "lib-ver": session.libraryVersion = value
            default: throw .error("Unrecognized option '\(attribute)'")
            }
            return .simpleString("OK")
        default:
            throw .error("unknown subcommand '\(sub.lowercased())'. Try CLIENT HELP.")
        }
    }

    /// `COMMAND`, `COMMAND COUNT`, `COMMAND DOCS` — enough for redis-cli's hints.
    private func commandInfo(_ arguments: inout CommandArguments) throws(CommandFailure) -> RESPReply {
        guard let sub = arguments.option() else {
            return .array(LineService.commandNames.map { name in .array([.text(name.lowercased()), .integer(-1)]) })
        }
        switch sub {
        case "COUNT": return .integer(LineService.commandNames.count)
        case "DOCS", "INFO", "LIST": return .array([])
        default: throw .error("unknown subcommand '\(sub.lowercased())'. Try COMMAND HELP.")
        }
    }

    static let commandNames = [
        "PING", "ECHO", "QUIT", "AUTH", "HELLO", "CLIENT", "SELECT", "COMMAND", "INFO", "CONFIG", "DBSIZE",
        "OUTPUT", "NEARBY", "NEAREST", "DIST", "PLACE.SET", "PLACE.GET", "PLACE.DEL", "USER.ADD", "USER.MOVE",
        "USER.VISIBILITY", "USER.GET", "USER.DEL", "USER.TOKEN", "MAP", "GEOADD", "GEOSEARCH", "GEORADIUS",
        "GEORADIUS_RO",
        "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO", "GEODIST", "GEOPOS", "GEOHASH", "ZREM", "ZCARD", "DEL", "EXISTS",
        "TYPE",
    ]

    /// `INFO [section …]` as Redis 7.0 answers it: no section (or `default`) gives server, clients,
    /// stats and keyspace; `commandstats` the per-command counters; `all` and `everything` every
    /// section; names are case-insensitive, unknown ones give nothing, sections are separated by an
    /// empty line.
    private func info(sections asked: [String]) -> String {
        let all = ["server", "clients", "stats", "keyspace", "commandstats"]
        var wanted = Set<String>()
        for name in asked.isEmpty ? ["default"] : asked {
            switch name {
            case "default": wanted.formUnion(all.dropLast())
            case "all", "everything": wanted.formUnion(all)
            default: wanted.insert(name)
            }
        }
        var text: [[String]] = []
        for section in all where wanted.contains(section) {
            switch section {
            case "server":
                text.append([
                    "# Server", "vicinity_version:\(LineService.version)", "redis_version:7.0.15",
                    "uptime_in_seconds:\(Int(Date().timeIntervalSince(started)))",
                ])
            case "clients":
                text.append(["# Clients", "connected_clients:\(connectedClients)"])
            case "stats":
                let store = directory.statistics
                text.append([
                    "# Stats", "total_commands_processed:\(commandsProcessed)", "commits:\(store.commits)",
                    "committed_changes:\(store.changes)",
                ])
            case "keyspace":
                let (places, kinds, publicUsers) = directory.read {
                    ($0.places.count, $0.places.kinds.count, $0.publicUserCount)
                }
                text.append(["# Keyspace", "places:\(places)", "place_kinds:\(kinds)", "public_users:\(publicUsers)"])
            default:
                text.append(["# Commandstats"] + statistics.infoLines)
            }
        }
        return text.map { $0.joined(separator: "\r\n") + "\r\n" }.joined(separator: "\r\n")
    }

    /// `CONFIG GET pattern…` (an empty list: no Redis parameter applies here) and `CONFIG RESETSTAT`
    /// (admin only: it clears what `INFO` reports for everybody).
    private func config(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        guard let sub = arguments.option() else { throw .wrongArity("config") }
        switch sub {
        case "GET":
            guard !arguments.isAtEnd else { throw .wrongArity("config|get") }
            return .array([])
        case "RESETSTAT":
            guard arguments.isAtEnd else { throw .wrongArity("config|resetstat") }
            try LineService.requireAdmin(session, action: "resetting the statistics needs the admin token")
            resetStatistics()
            return .simpleString("OK")
        default:
            throw .error("unknown subcommand '\(sub.lowercased())'. Try CONFIG HELP.")
        }
    }
}
