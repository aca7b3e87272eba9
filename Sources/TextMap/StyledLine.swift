/// One output line as runs of text with a role each, so colour can be added or left out at the
/// end. `width` counts terminal columns (`TerminalColumns`): a name in CJK or with emoji takes
/// 2 columns for each of those characters.
struct StyledLine: Sendable, Hashable {
    private(set) var runs: [(text: String, role: MapRole)] = []
    /// Terminal columns taken.
    private(set) var width = 0

    init() {}

    init(_ text: String, _ role: MapRole = .plain) { append(text, role) }

    static func == (left: StyledLine, right: StyledLine) -> Bool {
        left.runs.elementsEqual(right.runs) { $0.text == $1.text && $0.role == $1.role }
    }

    func hash(into hasher: inout Hasher) {
        for run in runs {
            hasher.combine(run.text)
            hasher.combine(run.role)
        }
    }

    mutating func append(_ text: String, _ role: MapRole = .plain) {
        guard !text.isEmpty else { return }
        width += TerminalColumns.width(text)
        if let last = runs.last, last.role == role {
            runs[runs.count - 1].text += text
        } else {
            runs.append((text, role))
        }
    }

    mutating func append(_ line: StyledLine) {
        for run in line.runs { append(run.text, run.role) }
    }

    /// The line cut to at most `columns` columns, ending in `ellipsis` if anything was cut.
    func truncated(to columns: Int, ellipsis: String) -> StyledLine {
        guard width > columns else { return self }
        let room = max(0, columns - TerminalColumns.width(ellipsis))
        var cut = StyledLine()
        for run in runs {
            let left = room - cut.width
            if TerminalColumns.width(run.text) <= left {
                cut.append(run.text, run.role)
                continue
            }
            cut.append(String(TerminalColumns.prefix(run.text, left)), run.role)
            cut.append(ellipsis, run.role)
            break
        }
        return cut
    }

    /// Pads with spaces to `columns`.
    mutating func pad(to columns: Int) {
        if width < columns { append(String(repeating: " ", count: columns - width)) }
    }

    /// The text with trailing spaces removed, wrapped in ANSI SGR sequences if `palette` is given.
    func rendered(_ palette: MapPalette?) -> String {
        var trimmed = runs
        while let last = trimmed.last {
            let kept = String(last.text.reversed().drop(while: { $0 == " " }).reversed())
            if kept.isEmpty {
                trimmed.removeLast()
            } else {
                trimmed[trimmed.count - 1].text = kept
                break
            }
        }
        guard let palette else { return trimmed.map(\.text).joined() }
        return trimmed.map { run in
            guard let code = palette.code(for: run.role), run.text.contains(where: { $0 != " " }) else {
                return run.text
            }
            return "\u{1B}[\(code)m\(run.text)\u{1B}[0m"
        }.joined()
    }
}
