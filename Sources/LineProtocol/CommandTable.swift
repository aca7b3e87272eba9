/// Every command's metadata for `COMMAND`, `COMMAND INFO/DOCS/LIST/GETKEYS` and the central arity
/// check in `LineService.execute`.
///
/// Redis's commands carry Redis 7.0's facts: arity, flags, key positions, key specs, ACL
/// categories, tips, summary, since, group and complexity from `src/commands/*.json` (7.0.15),
/// arguments in `CommandArgument`'s usage syntax. Vicinity's own commands (NEARBY, NEAREST, DIST,
/// MAP, PLACE.*, USER.*, OUTPUT, POSITION, WAITPOS) are in group `geo` (OUTPUT, POSITION and
/// WAITPOS `connection`) and give as `since` the Vicinity version this table was written for. Entries for commands the service does not run yet
/// (MULTI, ZRANGE, …) are allowed: `COMMAND` lists only the names `LineService` runs.
enum CommandTable {
    /// The version Vicinity's own commands report as `since`.
    static let vicinitySince = "0.5.0"

    /// The entries by upper-case name.
    static let byName: [String: CommandDescription] = Dictionary(
        uniqueKeysWithValues: (redis + vicinity).map { ($0.name.uppercased(), $0) })

    /// The entry of a command or subcommand by its name in any case (`client|kill`).
    static func entry(_ name: String) -> CommandDescription? {
        let parts = name.uppercased().split(separator: "|", maxSplits: 1).map(String.init)
        guard let container = byName[parts[0]] else { return nil }
        guard parts.count == 2 else { return container }
        return container.subcommands.first { $0.name.uppercased() == name.uppercased() }
    }

    // MARK: - Building entries

    /// Redis's ACL categories in the order `COMMAND INFO` prints them (`ACLCommandCategories`).
    private static let categoryOrder = [
        "@keyspace", "@read", "@write", "@set", "@sortedset", "@list", "@hash", "@string", "@bitmap",
        "@hyperloglog", "@geo", "@stream", "@pubsub", "@admin", "@fast", "@slow", "@blocking", "@dangerous",
        "@connection", "@transaction", "@scripting",
    ]

    /// An entry; the ACL categories Redis derives from the flags (`setImplicitACLCategories`) are
    /// added to `acl`.
    static func command(
        _ name: String, arity: Int, flags: String, keys: (Int, Int, Int) = (0, 0, 0), acl: String = "",
        tips: String = "", specs: [CommandDescription.KeySpec] = [], since: String, group: String,
        complexity: String = "O(1)", summary: String, syntax: String = "", subcommands: [CommandDescription] = []
    ) -> CommandDescription {
        let flagList = flags.split(separator: " ").map(String.init)
        var categories = Set(acl.split(separator: " ").map(String.init))
        if flagList.contains("write") { categories.insert("@write") }
        if flagList.contains("readonly") { categories.insert("@read") }
        if flagList.contains("admin") { categories.formUnion(["@admin", "@dangerous"]) }
        categories.insert(flagList.contains("fast") ? "@fast" : "@slow")
        let containerName = name.lowercased()
        let named = subcommands.map { sub in
            CommandDescription(
                name: containerName + "|" + sub.name, arity: sub.arity, flags: sub.flags, firstKey: sub.firstKey,
                lastKey: sub.lastKey, keyStep: sub.keyStep, categories: sub.categories, tips: sub.tips,
                keySpecs: sub.keySpecs, summary: sub.summary, since: sub.since, group: group,
                complexity: sub.complexity, arguments: sub.arguments, subcommands: [])
        }
        return CommandDescription(
            name: containerName, arity: arity, flags: flagList, firstKey: keys.0, lastKey: keys.1, keyStep: keys.2,
            categories: categoryOrder.filter(categories.contains), tips: tips.split(separator: " ").map(String.init),
            keySpecs: specs, summary: summary, since: since, group: group, complexity: complexity,
            arguments: CommandArgument.parse(syntax), subcommands: named)
    }

    /// A subcommand's entry (its container's name is added by `command`).
    static func sub(
        _ name: String, arity: Int, flags: String, keys: (Int, Int, Int) = (0, 0, 0), acl: String = "",
        tips: String = "", specs: [CommandDescription.KeySpec] = [], since: String, complexity: String = "O(1)",
        summary: String, syntax: String = ""
    ) -> CommandDescription {
        command(
            name, arity: arity, flags: flags, keys: keys, acl: acl, tips: tips, specs: specs, since: since, group: "",
            complexity: complexity, summary: summary, syntax: syntax)
    }

    /// A key spec at argument `index` covering `last` more keys (-1: to the end).
    static func spec(_ flags: String, at index: Int, last: Int = 0) -> CommandDescription.KeySpec {
        .init(flags: keySpecFlags(flags), begin: .index(index), lastKey: last, keyStep: 1)
    }

    /// Key-spec flags as Redis 7.0 names them in replies (`src/server.c`,
    /// `addReplyFlagsForKeyArgs`): the access kinds RO, RW, OW and RM in capitals, the others
    /// (access, update, insert, delete, …) in lower case.
    static func keySpecFlags(_ flags: String) -> [String] {
        flags.split(separator: " ").map { flag in
            ["RO", "RW", "OW", "RM"].contains(flag.uppercased()) ? flag.uppercased() : flag.lowercased()
        }
    }

    static func spec(_ flags: String, after keyword: String, from start: Int) -> CommandDescription.KeySpec {
        .init(
            flags: keySpecFlags(flags), begin: .keyword(keyword, startFrom: start),
            lastKey: 0, keyStep: 1)
    }

    static let help = "Show helpful text about the different subcommands"
    static let depends = "Depends on subcommand."
}
