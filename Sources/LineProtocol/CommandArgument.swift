/// One argument of a command as `COMMAND DOCS` describes it (Redis 7.0's argument model,
/// `src/commands/*.json`): a value, a pure token, a choice (`oneof`) or a group (`block`).
///
/// The table writes arguments in a short usage syntax that `parse(_:)` reads:
///
/// - `name` or `name:type` is a value (`string` unless named `key`); `name:key#1` a key that
///   belongs to key spec 1;
/// - `WORD` (capitals) is a pure token; `WORD=name:type` a value after its token (`COUNT=count:integer`);
/// - `[ … ]` is optional, `( … )` groups, `|` separates choices, `...` after an item repeats it;
///   `@name` right after `[` or `(` names the group (else its members' names, joined by `-`).
///
/// ```swift
/// CommandArgument.parse("key [@count COUNT=count:integer [ANY]] (@data lon:double lat:double member) ...")
/// ```
struct CommandArgument: Sendable, Equatable {
    /// Redis 7.0's argument types, as `COMMAND DOCS` names them.
    enum Kind: String, Sendable {
        case string, integer, double, key, pattern
        case unixTime = "unix-time"
        case pureToken = "pure-token"
        case oneOf = "oneof"
        case block
    }

    var name: String
    var kind: Kind
    var token: String?
    var optional = false
    var multiple = false
    /// The key spec (0-based, in `CommandDescription.keySpecs`) a key argument belongs to.
    var keySpecIndex: Int?
    /// The choices of a `oneof`, the members of a `block`.
    var arguments: [CommandArgument] = []

    /// Reads the usage syntax described above; a malformed text is a programming error in the
    /// table, which `CommandTableTests` would catch, so it is parsed as far as it goes.
    static func parse(_ syntax: String) -> [CommandArgument] {
        var reader = SyntaxReader(tokens: SyntaxReader.tokens(syntax))
        return reader.sequence()
    }

    /// The `COMMAND DOCS` map of this argument: name, type, key spec, token, flags, members.
    var docsReply: RESPReply {
        var fields: [(String, RESPReply)] = [("name", .text(name)), ("type", .text(kind.rawValue))]
        if kind != .pureToken, kind != .oneOf, kind != .block { fields.append(("display_text", .text(name))) }
        if let keySpecIndex { fields.append(("key_spec_index", .integer(keySpecIndex))) }
        if let token { fields.append(("token", .text(token))) }
        var flags: [RESPReply] = []
        if optional { flags.append(.simpleString("optional")) }
        if multiple { flags.append(.simpleString("multiple")) }
        if !flags.isEmpty { fields.append(("flags", .array(flags))) }
        if kind == .oneOf || kind == .block { fields.append(("arguments", .array(arguments.map(\.docsReply)))) }
        return .map(fields.map { RESPReply.MapEntry(key: .text($0.0), value: $0.1) })
    }

    /// The fewest words the argument takes (0 when optional).
    var minimumWords: Int {
        if optional { return 0 }
        switch kind {
        case .oneOf: return arguments.map(\.minimumWords).min() ?? 0
        case .block: return arguments.reduce(0) { $0 + $1.minimumWords } + (token == nil ? 0 : 1)
        default: return token == nil || kind == .pureToken ? 1 : 2
        }
    }
}

/// The recursive-descent reader behind `CommandArgument.parse(_:)`.
private struct SyntaxReader {
    var tokens: [String]
    var position = 0

    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            if character == " " || "[]()|".contains(character) {
                if !word.isEmpty { tokens.append(word) }
                word = ""
                if character != " " { tokens.append(String(character)) }
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    var peek: String? { position < tokens.count ? tokens[position] : nil }

    /// Items until `]`, `)`, `|` or the end.
    mutating func sequence() -> [CommandArgument] {
        var items: [CommandArgument] = []
        while let token = peek, token != "]", token != ")", token != "|" {
            position += 1
            var item: CommandArgument
            switch token {
            case "[":
                item = group(closing: "]")
                item.optional = true
            case "(":
                item = group(closing: ")")
            case "...":
                if !items.isEmpty { items[items.count - 1].multiple = true }
                continue
            default:
                item = Self.word(token)
            }
            if peek == "..." {
                position += 1
                item.multiple = true
            }
            items.append(item)
        }
        return items
    }

    /// A bracketed group: one item, a block of several, or a `oneof` of alternatives.
    mutating func group(closing: String) -> CommandArgument {
        var name: String?
        if let first = peek, first.hasPrefix("@") {
            name = String(first.dropFirst())
            position += 1
        }
        var alternatives = [sequence()]
        while peek == "|" {
            position += 1
            alternatives.append(sequence())
        }
        if peek == closing { position += 1 }
        let members = alternatives.map { items -> CommandArgument in
            items.count == 1
                ? items[0]
                : CommandArgument(
                    name: items.first?.name ?? "block", kind: .block, token: nil, arguments: items)
        }
        if members.count == 1 {
            var single = members[0]
            if let name { single.name = name }
            return single
        }
        return CommandArgument(
            name: name ?? members.map(\.name).joined(separator: "-"), kind: .oneOf, token: nil, arguments: members)
    }

    /// `WORD`, `WORD=name:type`, `name`, `name:type` or `name:key#n`.
    static func word(_ word: String) -> CommandArgument {
        if let equals = word.firstIndex(of: "=") {
            var value = Self.word(String(word[word.index(after: equals)...]))
            value.token = String(word[..<equals])
            return value
        }
        let isToken = word.contains { $0.isUppercase } && !word.contains { $0.isLowercase || $0 == ":" }
        if isToken { return CommandArgument(name: word.lowercased(), kind: .pureToken, token: word) }
        let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
        var typeText = parts.count > 1 ? parts[1] : (parts[0] == "key" ? "key" : "string")
        var keySpec: Int?
        if let hash = typeText.firstIndex(of: "#") {
            keySpec = Int(typeText[typeText.index(after: hash)...])
            typeText = String(typeText[..<hash])
        }
        let kind = CommandArgument.Kind(rawValue: typeText) ?? .string
        return CommandArgument(
            name: parts[0], kind: kind, token: nil, keySpecIndex: kind == .key ? (keySpec ?? 0) : nil)
    }
}
