/// Recursive-descent parser over the tokens; produces the rule sequences split at `||`.
struct Parser {
    var tokens: [Token]
    var position = 0

    var current: Token { tokens[position] }
    func peek(_ offset: Int = 1) -> Token { tokens[min(position + offset, tokens.count - 1)] }
    mutating func advance() { position += 1 }

    static func weekday(_ kind: Token.Kind) -> Int? {
        if case .word(let w) = kind { return weekdayNames.firstIndex(of: w) }
        return nil
    }
    static func month(_ kind: Token.Kind) -> Int? {
        if case .word(let w) = kind, let index = monthNames.firstIndex(of: w) { return index + 1 }
        return nil
    }
    static func isDaySelector(_ kind: Token.Kind) -> Bool { weekday(kind) != nil || kind == .word("ph") }
    static func isTime(_ kind: Token.Kind) -> Bool {
        if case .time = kind { return true }
        return false
    }
    static func modifier(_ kind: Token.Kind) -> OpeningHours.Status? {
        switch kind {
        case .word("open"): return .open
        case .word("closed"), .word("off"): return .closed
        case .word("unknown"): return .unknown
        default: return nil
        }
    }

    /// The error for a token nothing in the supported grammar accepts here.
    func unexpected(_ token: Token, expecting: String) -> OpeningHoursError {
        let column = token.column
        switch token.kind {
        case .word("week"): return OpeningHoursError("week selectors are not supported", column: column)
        case .word("sunrise"), .word("sunset"), .word("dawn"), .word("dusk"):
            return OpeningHoursError("times relative to the sun are not supported", column: column)
        case .word("sh"): return OpeningHoursError("school holidays (SH) are not supported", column: column)
        case .word("easter"): return OpeningHoursError("easter dates are not supported", column: column)
        case .number(_, let digits) where digits == 4:
            return OpeningHoursError("year selectors are not supported", column: column)
        case .other("["): return OpeningHoursError("nth-weekday selectors ([n]) are not supported", column: column)
        case .other("("): return OpeningHoursError("variable times are not supported", column: column)
        case .other("/"): return OpeningHoursError("periodic (/n) selectors are not supported", column: column)
        case .end: return OpeningHoursError("unexpected end of value, expected \(expecting)", column: column)
        case .word(let w): return OpeningHoursError("unexpected '\(w)', expected \(expecting)", column: column)
        case .comment: return OpeningHoursError("unexpected comment, expected \(expecting)", column: column)
        default: return OpeningHoursError("unexpected character, expected \(expecting)", column: column)
        }
    }

    mutating func parse() throws(OpeningHoursError) -> [[Rule]] {
        var sequences: [[Rule]] = [[]]
        var additive = false
        while true {
            var rule = try parseRule()
            rule.additive = additive
            sequences[sequences.count - 1].append(rule)
            switch current.kind {
            case .end: return sequences
            case .semicolon: additive = false
            case .comma: additive = true
            case .fallback:
                additive = false
                sequences.append([])
            default: throw unexpected(current, expecting: "';', ',', '||' or the end")
            }
            advance()
            // A trailing ';' is common in the wild and harmless.
            if current.kind == .end, tokens[position - 1].kind == .semicolon { return sequences }
        }
    }

    mutating func parseRule() throws(OpeningHoursError) -> Rule {
        var rule = Rule()
        let start = position
        var wholeDay = false
        if current.kind == .always {
            advance()
            wholeDay = true
        } else {
            if Parser.month(current.kind) != nil { rule.dates = try parseDates() }
            if Parser.isDaySelector(current.kind) { try parseDays(into: &rule) }
            if current.kind == .colon, rule.weekdays != 0 || rule.publicHolidays || !rule.dates.isEmpty { advance() }
            if Parser.isTime(current.kind) {
                rule.spans = try parseSpans()
                rule.explicitTimes = true
            }
        }
        if let status = Parser.modifier(current.kind) {
            rule.status = status
            advance()
        }
        if case .comment(let text) = current.kind {
            rule.comment = text
            advance()
            if position == start + 1 { rule.status = .unknown }  // A comment alone: state unknown.
        }
        guard position > start else {
            throw unexpected(current, expecting: "a weekday, month, time span, '24/7', a modifier or a comment")
        }
        if rule.spans.isEmpty || wholeDay { rule.spans = [Span(start: 0, end: 1440)] }
        rule.spillsOver = rule.spans.contains { $0.end > 1440 }
        return rule
    }

    mutating func parseDays(into rule: inout Rule) throws(OpeningHoursError) {
        while true {
            if current.kind == .word("ph") {
                rule.publicHolidays = true
                advance()
            } else if let first = Parser.weekday(current.kind) {
                advance()
                if case .other("[") = current.kind { throw unexpected(current, expecting: "") }
                var last = first
                if current.kind == .dash {
                    advance()
                    guard let end = Parser.weekday(current.kind) else {
                        throw unexpected(current, expecting: "a weekday")
                    }
                    last = end
                    advance()
                }
                var day = first
                while true {
                    rule.weekdays |= 1 << UInt8(day)
                    if day == last { break }
                    day = (day + 1) % 7
                }
            } else {
                throw unexpected(current, expecting: "a weekday or PH")
            }
            if case .other("[") = current.kind { throw unexpected(current, expecting: "") }
            guard current.kind == .comma, Parser.isDaySelector(peek().kind) else { return }
            advance()
        }
    }

    /// A day-of-month number for `month`, or nil when the current token is not one.
    mutating func dayNumber(in month: Int) throws(OpeningHoursError) -> Int? {
        guard case .number(let day, let digits) = current.kind, digits <= 2 else { return nil }
        guard day >= 1, day <= maximumDays[month - 1] else {
            throw OpeningHoursError("day \(day) does not exist in \(monthLabels[month - 1])", column: current.column)
        }
        advance()
        return day
    }

    mutating func parseDates() throws(OpeningHoursError) -> [DateRange] {
        var ranges: [DateRange] = []
        while true {
            guard let month = Parser.month(current.kind) else { throw unexpected(current, expecting: "a month") }
            advance()
            if let day = try dayNumber(in: month) {
                // Jan 01 | Dec 24-26 | Dec 24-Jan 02 | Dec 24,26
                var from = day
                while true {
                    if current.kind == .dash {
                        advance()
                        if let endMonth = Parser.month(current.kind) {
                            advance()
                            guard let endDay = try dayNumber(in: endMonth) else {
                                throw unexpected(current, expecting: "a day of the month")
                            }
                            ranges.append(DateRange(from: month * 100 + from, to: endMonth * 100 + endDay))
                        } else {
                            guard let endDay = try dayNumber(in: month) else {
                                throw unexpected(current, expecting: "a day of the month or a month")
                            }
                            ranges.append(DateRange(from: month * 100 + from, to: month * 100 + endDay))
                        }
                    } else {
                        ranges.append(DateRange(from: month * 100 + from, to: month * 100 + from))
                    }
                    guard current.kind == .comma, case .number(_, let digits) = peek().kind, digits <= 2 else { break }
                    advance()
                    from = try dayNumber(in: month)!
                }
            } else if current.kind == .dash {
                // Jan-Mar
                advance()
                guard let endMonth = Parser.month(current.kind) else { throw unexpected(current, expecting: "a month") }
                advance()
                if case .number(_, let digits) = current.kind, digits <= 2 {
                    throw OpeningHoursError("write a date range as 'Jan 01-Mar 15'", column: current.column)
                }
                ranges.append(DateRange(from: month * 100 + 1, to: endMonth * 100 + 31))
            } else {
                ranges.append(DateRange(from: month * 100 + 1, to: month * 100 + 31))
            }
            guard current.kind == .comma, Parser.month(peek().kind) != nil else { return ranges }
            advance()
        }
    }

    mutating func parseSpans() throws(OpeningHoursError) -> [Span] {
        var spans: [Span] = []
        while true {
            guard case .time(let start) = current.kind else { throw unexpected(current, expecting: "a time") }
            let startColumn = current.column
            guard start < 1440 else { throw OpeningHoursError("a span must start before 24:00", column: startColumn) }
            advance()
            if current.kind == .plus {
                // Open end: open until midnight.
                advance()
                spans.append(Span(start: start, end: 1440))
            } else {
                guard current.kind == .dash else { throw unexpected(current, expecting: "'-' or '+' after a time") }
                advance()
                guard case .time(var end) = current.kind else { throw unexpected(current, expecting: "an end time") }
                let endColumn = current.column
                advance()
                if current.kind == .plus {
                    throw OpeningHoursError("open end after a closing time is not supported", column: current.column)
                }
                if end <= start { end += 1440 }
                guard end - start <= 1440 else {
                    throw OpeningHoursError("a span may not be longer than 24 hours", column: endColumn)
                }
                spans.append(Span(start: start, end: end))
            }
            guard current.kind == .comma, Parser.isTime(peek().kind) else { return spans }
            advance()
        }
    }
}

private let weekdayNames = ["mo", "tu", "we", "th", "fr", "sa", "su"]
private let monthLabels = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
private let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
private let maximumDays = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
