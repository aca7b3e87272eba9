import Places

/// The operator's commands: CLIENT, COMMAND, MONITOR, SLOWLOG, INFO, CONFIG, SCAN, KEYS and
/// MEMORY, in Redis 7.0's reply shapes and wording.
extension LineService {
    func introspectionCommand(_ name: String, _ arguments: inout CommandArguments, _ session: inout Session)
        throws(CommandFailure) -> Outcome?
    {
        switch name {
        case "CLIENT": return .reply(try client(&arguments, &session))
        case "COMMAND": return .reply(try commandInfo(&arguments))
        case "MONITOR": return .reply(try monitor(&session))
        case "SLOWLOG": return .reply(try slowLogCommand(&arguments, session))
        case "INFO":
            var sections: [String] = []
            while !arguments.isAtEnd { sections.append(try arguments.next().lowercased()) }
            return .reply(.text(info(sections: sections, admin: session.principal == .admin)))
        case "CONFIG": return .reply(try config(&arguments, session))
        case "SCAN": return .reply(try scan(&arguments, session))
        case "KEYS":
            let pattern = KeyPattern(try arguments.next())
            return .reply(.array(try visibleKeys().filter(pattern.matches).map { .text($0) }))
        case "MEMORY": return .reply(try memory(&arguments, session))
        default: return nil
        }
    }

    /// `COMMAND [COUNT | INFO | DOCS | LIST | GETKEYS | HELP]` from `CommandTable`, over the commands
    /// this service runs.
    private func commandInfo(_ arguments: inout CommandArguments) throws(CommandFailure) -> RESPReply {
        let runnable = LineService.commandNames.compactMap { CommandTable.byName[$0] }
        if arguments.isAtEnd { return .array(runnable.map(\.infoReply)) }
        let typed = try arguments.next()
        var names: [String] = []
        switch typed.uppercased() {
        case "COUNT":
            return .integer(runnable.count)
        case "INFO":
            while !arguments.isAtEnd { names.append(try arguments.next()) }
            if names.isEmpty { return .array(runnable.map(\.infoReply)) }
            return .array(names.map { LineService.runnableEntry($0)?.infoReply ?? .nullArray })
        case "DOCS":
            while !arguments.isAtEnd { names.append(try arguments.next()) }
            let shown = names.isEmpty ? runnable : names.compactMap(LineService.runnableEntry)
            return .map(shown.map { RESPReply.MapEntry(key: .text($0.name), value: $0.docsReply) })
        case "LIST":
            var listed = runnable
            if !arguments.isAtEnd {
                guard arguments.take("FILTERBY"), arguments.remaining == 2, let filter = arguments.option() else {
                    throw .syntax
                }
                let value = try arguments.next()
                switch filter {
                case "MODULE": listed = []
                case "ACLCAT": listed = listed.filter { $0.categories.contains("@" + value.lowercased()) }
                case "PATTERN":
                    let pattern = KeyPattern(value.lowercased())
                    listed = listed.filter { pattern.matches($0.name) }
                default: throw .syntax
                }
            }
            return .array(listed.map { .text($0.name) })
        case "GETKEYS":
            var argv: [String] = []
            while !arguments.isAtEnd { argv.append(try arguments.next()) }
            guard let entry = LineService.runnableEntry(argv[0]) else { throw .error("Invalid command specified") }
            guard entry.accepts(wordCount: argv.count) else {
                throw .error("Invalid number of arguments specified for command")
            }
            var keys = entry.keys(in: argv)
            if entry.flags.contains("movablekeys") {
                // GEORADIUS … STORE/STOREDIST key: the key after the last such option.
                for index in argv.indices.dropFirst(6).dropLast()
                where ["STORE", "STOREDIST"].contains(argv[index].uppercased()) {
                    keys.append(argv[index + 1])
                }
            }
            guard !keys.isEmpty else { throw .error("The command has no key arguments") }
            return .array(keys.map { .text($0) })
        case "HELP":
            return LineService.help(for: "COMMAND")
        default:
            throw CommandFailure(line: LineService.unknownSubcommand(typed, of: "COMMAND"))
        }
    }

    /// A command this service runs, by name in any case.
    private static func runnableEntry(_ name: String) -> CommandDescription? {
        runnable[name.uppercased()]
    }

    /// `SLOWLOG GET [count] | LEN | RESET | HELP`; GET and RESET need the admin token, since the
    /// entries show other clients' arguments.
    private func slowLogCommand(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure)
        -> RESPReply
    {
        let typed = try arguments.next()
        switch typed.uppercased() {
        case "GET":
            try LineService.requireAdmin(session, action: "reading the slow log needs the admin token")
            var count: Int? = 10
            if !arguments.isAtEnd {
                let text = try arguments.next()
                guard let number = Int(text) else { throw .error("value is not an integer or out of range") }
                guard number >= -1 else { throw .error("count should be greater than or equal to -1") }
                count = number == -1 ? nil : number
            }
            return .array(slowLog.newest(count).map(\.reply))
        case "LEN":
            return .integer(slowLog.count)
        case "RESET":
            try LineService.requireAdmin(session, action: "clearing the slow log needs the admin token")
            slowLog.reset()
            return .simpleString("OK")
        case "HELP":
            return LineService.help(for: "SLOWLOG")
        default:
            throw CommandFailure(line: LineService.unknownSubcommand(typed, of: "SLOWLOG"))
        }
    }

    /// A container command's `HELP`, from `CommandTable`, in Redis's layout (`addReplyHelp`): a
    /// header, each subcommand's usage and an indented summary, then `HELP` itself.
    static func help(for command: String) -> RESPReply {
        guard let entry = CommandTable.byName[command] else { return .array([]) }
        var lines = ["\(command) <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"]
        for sub in entry.subcommands where !sub.name.hasSuffix("|help") {
            let name = sub.name.split(separator: "|").last.map { $0.uppercased() } ?? sub.name
            let usage = sub.arguments.map(\.synopsis).joined(separator: " ")
            lines.append(usage.isEmpty ? name : name + " " + usage)
            lines.append("    " + sub.summary)
        }
        lines += ["HELP", "    Print this help."]
        return .array(lines.map { .simpleString($0) })
    }
}

extension CommandArgument {
    /// The argument as a usage line writes it: `[COUNT <count> [ANY]]`, `ON|OFF`, `<key> [<key> ...]`.
    var synopsis: String {
        var text: String
        switch kind {
        case .pureToken: text = token ?? name.uppercased()
        case .oneOf: text = arguments.map(\.synopsis).joined(separator: "|")
        case .block: text = ((token.map { [$0] } ?? []) + arguments.map(\.synopsis)).joined(separator: " ")
        default: text = (token.map { $0 + " " } ?? "") + "<\(name)>"
        }
        if multiple { text += " [\(text) ...]" }
        return optional ? "[\(text)]" : text
    }
}
