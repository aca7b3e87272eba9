/// One output line as runs of text with a role each, so colour can be added or left out at the
/// end. Every character the map uses is one terminal column wide, so `width` counts characters.
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
        width += text.count
        if let last = runs.last, last.role == role {
            runs[runs.count - 1].text += text
        } else {
            runs.append((text, role))
        }
    }

    mutating func append(_ line: StyledLine) {
        for run in line.runs { append(run.text, run.role) }
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
