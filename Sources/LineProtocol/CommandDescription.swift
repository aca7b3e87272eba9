/// What `COMMAND INFO` and `COMMAND DOCS` say about one command or subcommand, in Redis 7.0's
/// shapes (`src/commands/*.json` and `commandCommand`/`addReplyCommandInfo`/`addReplyCommandDocs`
/// in `src/server.c`). The entries are in `CommandTable`.
struct CommandDescription: Sendable {
    /// Lower case; a subcommand is `container|sub` (`client|kill`), as Redis names it.
    let name: String
    /// The number of words, the command's name included; negative: at least that many.
    let arity: Int
    /// Redis's command flags (`readonly`, `write`, `fast`, `admin`, …).
    let flags: [String]
    /// The legacy key positions: first key, last key (negative counts from the end), step; all 0
    /// for a command without keys.
    let firstKey: Int
    let lastKey: Int
    let keyStep: Int
    /// ACL categories, `@` included: those given plus those Redis derives from the flags.
    let categories: [String]
    /// Redis's command tips (`nondeterministic_output`, `request_policy:…`).
    let tips: [String]
    let keySpecs: [KeySpec]
    let summary: String
    /// The version (Redis's, or Vicinity's for its own commands) that introduced the command.
    let since: String
    /// Redis's command group (`geo`, `sortedset`, `connection`, `server`, …).
    let group: String
    let complexity: String
    let arguments: [CommandArgument]
    let subcommands: [CommandDescription]

    /// One key spec: where the keys begin and how many follow.
    struct KeySpec: Sendable {
        enum Begin: Sendable {
            /// The key is argument `index` (the command's name is 0).
            case index(Int)
            /// The keys follow `keyword`, searched for from argument `startFrom` (negative: from the end).
            case keyword(String, startFrom: Int)
        }

        let flags: [String]
        let begin: Begin
        /// `range`: the last key relative to the first (-1 the last argument), step, limit.
        let lastKey: Int
        let keyStep: Int

        var reply: RESPReply {
            let beginSearch: RESPReply
            switch begin {
            case .index(let index):
                beginSearch = Self.map([("type", .text("index")), ("spec", Self.map([("index", .integer(index))]))])
            case .keyword(let keyword, let startFrom):
                beginSearch = Self.map([
                    ("type", .text("keyword")),
                    ("spec", Self.map([("keyword", .text(keyword)), ("startfrom", .integer(startFrom))])),
                ])
            }
            let spec = Self.map([
                ("lastkey", .integer(lastKey)), ("keystep", .integer(keyStep)), ("limit", .integer(0)),
            ])
            return Self.map([
                ("flags", .array(flags.map { .simpleString($0) })), ("begin_search", beginSearch),
                ("find_keys", Self.map([("type", .text("range")), ("spec", spec)])),
            ])
        }

        static func map(_ pairs: [(String, RESPReply)]) -> RESPReply {
            .map(pairs.map { RESPReply.MapEntry(key: .text($0.0), value: $0.1) })
        }
    }

    /// `COMMAND INFO`'s ten fields: name, arity, flags, first key, last key, step, ACL categories,
    /// tips, key specs, subcommands (each in the same shape).
    var infoReply: RESPReply {
        .array([
            .text(name), .integer(arity), .array(flags.map { .simpleString($0) }), .integer(firstKey),
            .integer(lastKey), .integer(keyStep), .array(categories.map { .simpleString($0) }),
            .array(tips.map { .text($0) }), .array(keySpecs.map(\.reply)), .array(subcommands.map(\.infoReply)),
        ])
    }

    /// `COMMAND DOCS`' map for this command: summary, since, group, complexity, arguments, and the
    /// subcommands' maps by name.
    var docsReply: RESPReply {
        var fields: [(String, RESPReply)] = [
            ("summary", .text(summary)), ("since", .text(since)), ("group", .text(group)),
            ("complexity", .text(complexity)),
        ]
        if !arguments.isEmpty { fields.append(("arguments", .array(arguments.map(\.docsReply)))) }
        if !subcommands.isEmpty {
            fields.append(
                ("subcommands", .map(subcommands.map { RESPReply.MapEntry(key: .text($0.name), value: $0.docsReply) })))
        }
        return KeySpec.map(fields)
    }

    /// The positions of the keys among `argv` (the command's name first) by the legacy triple, as
    /// `COMMAND GETKEYS` reports them.
    func keys(in argv: [String]) -> [String] {
        guard firstKey > 0, argv.count > firstKey else { return [] }
        let last = lastKey < 0 ? argv.count + lastKey : min(lastKey, argv.count - 1)
        return stride(from: firstKey, through: last, by: max(keyStep, 1)).map { argv[$0] }
    }

    /// Whether `count` words (the name included) satisfy the arity.
    func accepts(wordCount count: Int) -> Bool { arity >= 0 ? count == arity : count >= -arity }
}
