import Foundation
import TextMap

extension MapCommand {
    /// The size to draw at: `--width`/`--height`, else `COLUMNS`/`LINES`, else the terminal's, else
    /// 80 × 24. A size taken from the terminal keeps one line for the shell prompt and is brought
    /// into `MapRenderer`'s ranges; a size typed by hand outside them is an error.
    func screenSize() throws(CLIError) -> (width: Int, height: Int) {
        try Self.screenSize(
            width: width, height: height, environment: CLIEnvironment.current,
            terminal: Self.terminalSize())
    }

    static func screenSize(
        width: String?, height: String?, environment: [String: String], terminal: (columns: Int, lines: Int)?
    ) throws(CLIError) -> (width: Int, height: Int) {
        func typed(_ text: String, _ name: String, _ range: ClosedRange<Int>, _ unit: String) throws(CLIError) -> Int {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let value = Int(trimmed), range.contains(value) else {
                throw .usage(
                    "invalid \(name) \"\(trimmed)\": expected a whole number of \(unit) from \(range.lowerBound) to "
                        + "\(range.upperBound)")
            }
            return value
        }
        func detected(_ variable: String, _ fromTerminal: Int?, keep: Int, _ range: ClosedRange<Int>) -> Int? {
            let value = environment[variable].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? fromTerminal
            return value.map { min(max($0 - keep, range.lowerBound), range.upperBound) }
        }
        let widths = MapRenderer.widthRange
        let heights = MapRenderer.heightRange
        return (
            try width.map { text throws(CLIError) in try typed(text, "width", widths, "columns") }
                ?? detected("COLUMNS", terminal?.columns, keep: 0, widths) ?? 80,
            try height.map { text throws(CLIError) in try typed(text, "height", heights, "lines") }
                ?? detected("LINES", terminal?.lines, keep: 1, heights) ?? 24
        )
    }

    /// Columns and lines of the terminal on standard output, or nil if it is not a terminal.
    static func terminalSize() -> (columns: Int, lines: Int)? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// `--color`: always, never, or auto — colour only on a terminal, unless `NO_COLOR` is set to
    /// anything but the empty string (no-color.org) or `TERM` is `dumb`.
    func useColor() throws(CLIError) -> Bool {
        let environment = CLIEnvironment.current
        return try Self.useColor(
            color, environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1)
    }

    static func useColor(_ choice: String, environment: [String: String], isTerminal: Bool) throws(CLIError) -> Bool {
        switch choice.trimmingCharacters(in: .whitespaces).lowercased() {
        case "always": return true
        case "never": return false
        case "auto":
            return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        default:
            throw .usage(
                "invalid color \"\(choice.trimmingCharacters(in: .whitespaces))\": expected auto, always or never")
        }
    }
}
