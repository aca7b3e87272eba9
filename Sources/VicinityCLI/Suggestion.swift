import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand or option: the nearest valid name by edit
/// distance, offered only when it is close enough to be what was meant.
enum Suggestion {
    /// An argument parser's error about `arguments` with a suggestion, or nil when the error is
    /// not about a name, already suggests one, or nothing valid is close.
    ///
    /// - Parameter message: the parser's error, first letter lowercased
    ///   (`3 unexpected arguments: 'nera', '41', '29'`, `unknown option '--radus'`).
    /// - Returns: `unknown command 'nera'. Did you mean 'near'?` for a word where a subcommand
    ///   was expected; the parser's message plus `. Did you mean '--radius'?` for an option.
    static func forParserError(_ message: String, root: any ParsableCommand.Type, arguments: [String]) -> String? {
        guard !message.lowercased().contains("did you mean") else { return nil }
        let (command, depth) = deepestCommand(root, arguments)
        if let typed = quoted(after: "unknown option", in: message) {
            let help = root.helpMessage(for: command, columns: 1000)
            guard let best = closest(to: typed, among: optionNames(in: help)) else { return nil }
            return "\(message). Did you mean '\(best)'?"
        }
        if message.contains("unexpected argument"), depth < arguments.count, !arguments[depth].hasPrefix("-") {
            let typed = arguments[depth]
            let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
            guard let best = closest(to: typed, among: names) else { return nil }
            return "unknown command '\(typed)'. Did you mean '\(best)'?"
        }
        return nil
    }

    /// The nearest of `candidates` to `typed`, when at most 1 edit away for names of up to 4
    /// characters and at most 2 for longer ones (so `nera` finds `near`, `--radus` `--radius`, and
    /// `xyz` finds nothing); ties go to the first candidate.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let plain = Array(typed.drop { $0 == "-" }.lowercased())
        let allowed = plain.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = editDistance(plain, Array(candidate.drop { $0 == "-" }.lowercased()))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters (`nera` → `near` is one edit) each count 1.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }

    /// The subcommand the leading arguments name (`user add …` → `user add`), else the root, and
    /// how many arguments name it.
    static func deepestCommand(_ root: any ParsableCommand.Type, _ arguments: [String])
        -> (command: any ParsableCommand.Type, depth: Int)
    {
        var command = root
        var depth = 0
        for argument in arguments {
            guard
                let next = command.configuration.subcommands.first(where: {
                    $0.configuration.commandName == argument
                })
            else { break }
            command = next
            depth += 1
        }
        return (command, depth)
    }

    /// Every `--long-option` a help text names.
    static func optionNames(in help: String) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        let characters = Array(help)
        var index = 0
        while index + 2 < characters.count {
            let startsOption =
                characters[index] == "-" && characters[index + 1] == "-" && characters[index + 2].isLetter
                && (index == 0 || !(characters[index - 1].isLetter || characters[index - 1] == "-"))
            guard startsOption else {
                index += 1
                continue
            }
            var end = index + 2
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "-"
            {
                end += 1
            }
            let name = String(characters[index..<end])
            if seen.insert(name).inserted { names.append(name) }
            index = end
        }
        return names
    }

    /// The first 'quoted' name after `phrase` (`unknown option '--radus'` → `--radus`).
    private static func quoted(after phrase: String, in message: String) -> String? {
        guard let start = message.range(of: phrase),
            let open = message[start.upperBound...].firstIndex(of: "'")
        else { return nil }
        let rest = message[message.index(after: open)...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }
}
