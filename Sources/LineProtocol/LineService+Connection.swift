import Foundation
import Places

/// The connection commands real clients send: PING, ECHO, QUIT, AUTH, HELLO, SELECT, DBSIZE, and
/// Vicinity's OUTPUT (the operator's commands are in `LineService+Introspection.swift`).
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
        case "SELECT":
            guard arguments.remaining == 1 else { throw .wrongArity(name) }
            let index = try arguments.next()
            guard let number = Int(index) else { throw .error("value is not an integer or out of range") }
            guard number == 0 else { throw .error("DB index is out of range") }
            return .reply(.simpleString("OK"))
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

    static let commandNames = [
        "PING", "ECHO", "QUIT", "AUTH", "HELLO", "CLIENT", "SELECT", "COMMAND", "INFO", "CONFIG", "DBSIZE",
        "OUTPUT", "NEARBY", "NEAREST", "DIST", "PLACE.SET", "PLACE.GET", "PLACE.DEL", "USER.ADD", "USER.MOVE",
        "USER.VISIBILITY", "USER.PRECISION", "USER.GET", "USER.DEL", "USER.TOKEN", "MAP", "GEOADD", "GEOSEARCH",
        "GEORADIUS", "GEORADIUS_RO", "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO", "GEODIST", "GEOPOS", "GEOHASH",
        "ZREM", "ZCARD", "DEL", "EXISTS", "TYPE", "MONITOR", "SLOWLOG", "SCAN", "KEYS", "MEMORY", "MULTI", "EXEC",
        "DISCARD", "WATCH", "UNWATCH",
        "ZRANGE", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZREVRANGE", "ZSCORE", "ZRANK", "ZREVRANK", "ZCOUNT",
        "GEOSEARCHSTORE", "POSITION", "WAITPOS", "NODE.STATE", "SUBSCRIBE", "UNSUBSCRIBE",
    ]
}
