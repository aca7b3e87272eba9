/// How many terminal columns text takes, and how to cut it to a number of columns.
///
/// A simplified East Asian Width (Unicode UAX #11) table: a character whose first scalar is in one
/// of `wideRanges` — CJK ideographs, kana, Hangul, fullwidth forms and the emoji blocks U+1F300–U+1FAFF — takes 2
/// columns, every other character 1 (combining marks belong to the character before them, as
/// Swift's `Character` groups them). Rarer wide characters (CJK compatibility ideographs, some
/// symbols) count 1, so a line holding them can run a column or two long; the names in the
/// shipped data have none.
enum TerminalColumns {
    /// Scalars drawn 2 columns wide, from UAX #11 (`W` and `F` classes) in the blocks names use.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK Compatibility Ideographs
        0xFF00...0xFF60,  // Fullwidth forms
        0xFFE0...0xFFE6,  // Fullwidth signs
        0x1F300...0x1FAFF,  // Emoji: Miscellaneous Symbols and Pictographs to Symbols and Pictographs Extended-A
        0x20000...0x3FFFD,  // CJK Unified Ideographs Extensions B and later
    ]

    /// Columns one character takes: 1 or 2.
    static func width(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first?.value else { return 0 }
        return wideRanges.contains { $0.contains(first) } ? 2 : 1
    }

    /// Columns `text` takes.
    static func width<Text: StringProtocol>(_ text: Text) -> Int {
        text.reduce(0) { $0 + width($1) }
    }

    /// `text` if it fits in `columns`, else as much of it as fits with `ellipsis` after it; at
    /// most `columns` columns either way (empty for 0 or less).
    static func cut(_ text: String, to columns: Int, ellipsis: String) -> String {
        if width(text) <= columns { return text }
        let room = columns - width(ellipsis)
        guard room >= 0 else { return String(prefix(ellipsis, columns)) }
        return String(prefix(text, room)) + ellipsis
    }

    /// `words` joined by spaces if they fit in `columns`, else as many whole words as fit with
    /// " " and `ellipsis` after them; a first word that does not fit alone is cut with `ellipsis`.
    static func cut(words: [String], to columns: Int, ellipsis: String) -> String {
        let whole = words.joined(separator: " ")
        if width(whole) <= columns { return whole }
        var kept = ""
        for word in words {
            let longer = kept.isEmpty ? word : kept + " " + word
            if width(longer) + 1 + width(ellipsis) > columns { break }
            kept = longer
        }
        return kept.isEmpty ? cut(words.first ?? "", to: columns, ellipsis: ellipsis) : kept + " " + ellipsis
    }

    /// The longest start of `text` that fits in `columns`.
    static func prefix(_ text: String, _ columns: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            used += width(text[index])
            if used > columns { break }
            end = text.index(after: index)
        }
        return text[..<end]
    }

    /// `text` broken into lines of at most `columns` columns at spaces; a word longer than a line
    /// is cut with `ellipsis`. Never empty.
    static func wrap(_ text: String, to columns: Int, ellipsis: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if width(candidate) <= columns {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = cut(String(word), to: columns, ellipsis: ellipsis)
        }
        lines.append(current)
        return lines
    }
}
