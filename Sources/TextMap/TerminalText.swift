/// Words and names for a terminal, shared by the map and the command line's lists.
public enum TerminalText {
    /// Text safe to print on a terminal: control characters (Cc: line breaks, escape sequences from
    /// a hostile data file), format characters (Cf: U+202E RIGHT-TO-LEFT OVERRIDE, U+200E/U+200F,
    /// the U+2066–U+2069 isolates, which could flip the rest of a line) and line and paragraph
    /// separators (Zl, Zp) become U+FFFD, so a name stays on its line, reads left to right and
    /// cannot drive the terminal.
    public static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.properties.generalCategory {
                    case .control, .format, .lineSeparator, .paragraphSeparator: return "\u{FFFD}"
                    default: return scalar
                    }
                }))
    }

    /// "pharmacy" → "pharmacies", "user" → "users", "bus" → "bus" (left alone), one → singular.
    public static func plural(_ kind: String, _ count: Int) -> String {
        if count == 1 { return kind }
        if kind.hasSuffix("y"), let last = kind.dropLast().last, !"aeiou".contains(last) {
            return kind.dropLast() + "ies"
        }
        return kind.hasSuffix("s") ? kind : kind + "s"
    }
}
