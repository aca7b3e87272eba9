/// A token of an `opening_hours` value, with the 1-based column (in Unicode scalars) it starts at.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        /// A run of letters, lowercased.
        case word(String)
        /// A run of digits; `digits` is how many were written.
        case number(Int, digits: Int)
        /// `H:MM` or `HH:MM`, as minutes since midnight (up to 48:00).
        case time(Int)
        /// `24/7`.
        case always
        /// A double-quoted comment, without its quotes.
        case comment(String)
        case dash, comma, semicolon, fallback, plus, colon
        /// Any other single character.
        case other(Character)
        case end
    }

    var kind: Kind
    var column: Int
}

/// Splits a value into tokens; whitespace only separates them.
func tokenize(_ text: String) throws(OpeningHoursError) -> [Token] {
    let scalars = Array(text.unicodeScalars)
    var tokens: [Token] = []
    var i = 0

    func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
    func digitRun(from start: Int) -> (value: Int, end: Int) {
        var j = start
        var value = 0
        while j < scalars.count, isDigit(scalars[j]) {
            value = min(value * 10 + Int(scalars[j].value - 48), 1_000_000)
            j += 1
        }
        return (value, j)
    }

    while i < scalars.count {
        let s = scalars[i]
        let column = i + 1
        if s.properties.isWhitespace {
            i += 1
            continue
        }
        if isLetter(s) {
            var j = i
            var word = ""
            while j < scalars.count, isLetter(scalars[j]) {
                word.unicodeScalars.append(scalars[j])
                j += 1
            }
            tokens.append(Token(kind: .word(word.lowercased()), column: column))
            i = j
            continue
        }
        if isDigit(s) {
            let (value, j) = digitRun(from: i)
            // 24/7
            if value == 24, j - i == 2, j + 1 < scalars.count, scalars[j] == "/", scalars[j + 1] == "7",
                !(j + 2 < scalars.count && isDigit(scalars[j + 2]))
            {
                tokens.append(Token(kind: .always, column: column))
                i = j + 2
                continue
            }
            // H:MM or HH:MM
            if j - i <= 2, j < scalars.count, scalars[j] == ":", j + 1 < scalars.count, isDigit(scalars[j + 1]) {
                let (minutes, k) = digitRun(from: j + 1)
                guard k - (j + 1) == 2 else {
                    throw OpeningHoursError("minutes must have two digits", column: j + 2)
                }
                guard minutes < 60 else { throw OpeningHoursError("minutes must be 00–59", column: j + 2) }
                guard value * 60 + minutes <= 2_880 else {
                    throw OpeningHoursError("time must be 00:00–48:00", column: column)
                }
                tokens.append(Token(kind: .time(value * 60 + minutes), column: column))
                i = k
                continue
            }
            tokens.append(Token(kind: .number(value, digits: j - i), column: column))
            i = j
            continue
        }
        switch s {
        case "\"":
            var j = i + 1
            var comment = ""
            while j < scalars.count, scalars[j] != "\"" {
                comment.unicodeScalars.append(scalars[j])
                j += 1
            }
            guard j < scalars.count else { throw OpeningHoursError("unterminated comment", column: column) }
            tokens.append(Token(kind: .comment(comment), column: column))
            i = j + 1
            continue
        case "|":
            guard i + 1 < scalars.count, scalars[i + 1] == "|" else {
                throw OpeningHoursError("'|' must be doubled: '||' separates a fallback rule", column: column)
            }
            tokens.append(Token(kind: .fallback, column: column))
            i += 2
            continue
        // Dashes as typed in the wild: hyphen-minus, en dash, em dash.
        case "-", "\u{2013}", "\u{2014}": tokens.append(Token(kind: .dash, column: column))
        case ",": tokens.append(Token(kind: .comma, column: column))
        case ";": tokens.append(Token(kind: .semicolon, column: column))
        case "+": tokens.append(Token(kind: .plus, column: column))
        case ":": tokens.append(Token(kind: .colon, column: column))
        default: tokens.append(Token(kind: .other(Character(s)), column: column))
        }
        i += 1
    }
    tokens.append(Token(kind: .end, column: scalars.count + 1))
    return tokens
}
