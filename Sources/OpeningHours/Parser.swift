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
        case .word("sunrise"), .word("sunset"), .word("dawn"), .word("dusk"):
            return OpeningHoursError("times relative to the sun are not supported", column: column)
        case .word("sh"): return OpeningHoursError("school holidays (SH) are not supported", column: column)
        case .word("easter"): return OpeningHoursError("easter dates are not supported", column: column)
        case .number(_, let digits) where digits == 4:
            return OpeningHoursError("unexpected year, expected \(expecting)", column: column)
        case .other("("): return OpeningHoursError("variable times are not supported", column: column)
        case .other("/"): return OpeningHoursError("periodic (/n) selectors are not supported", column: column)
        case .end: return OpeningHoursError("unexpected end of value, expected \(expecting)", column: column)
        case .word(let w): return OpeningHoursError("unexpected '\(w)', expected \(expecting)", column: column)
        case .comment: return OpeningHoursError("unexpected comment, expected \(expecting)", column: column)
        default: return OpeningHoursError("unexpected character, expected \(expecting)", column: column)
        }
    }

    mutating func parse() throws(OpeningHoursError) -> [Rule] {
        var rules: [Rule] = []
        var separator = RuleOperator.normal
        while true {
            var rule = try parseRule()
            rule.separator = separator
            rules.append(rule)
            switch current.kind {
            case .end: return rules
            case .semicolon: separator = .normal
            case .comma: separator = .additional
            case .fallback: separator = .fallback
            default: throw unexpected(current, expecting: "';', ',', '||' or the end")
            }
            advance()
            // Refused as the reference implementation (opening-hours-rs) refuses it: an empty rule.
            if current.kind == .end, tokens[position - 1].kind == .semicolon {
                throw OpeningHoursError("a value may not end with ';'", column: tokens[position - 1].column)
            }
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
            var years: [SteppedRange] = []
            var dates: [DateRange] = []
            var weeks: [SteppedRange] = []
            var nth: [UInt16] = []
            if case .number(_, 4) = current.kind, !isDatedMonth(at: position) { years = try parseYears() }
            if Parser.month(current.kind) != nil || isDatedMonth(at: position) { dates = try parseDates() }
            if current.kind == .word("week") { weeks = try parseWeeks() }
            // A colon for readability after the years, dates and weeks (`2026: Mo`), or after the days.
            if current.kind == .colon, !dates.isEmpty || !years.isEmpty || !weeks.isEmpty { advance() }
            if Parser.isDaySelector(current.kind) {
                try parseDays(into: &rule, nth: &nth)
                if current.kind == .colon { advance() }
            }
            if !years.isEmpty || !dates.isEmpty || !weeks.isEmpty || !nth.isEmpty {
                rule.byDate = DateSelectors(years: years, dates: dates, weeks: weeks, nth: nth)
            }
            if Parser.isTime(current.kind) { rule.spans = try parseSpans() }
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
            throw unexpected(current, expecting: "a weekday, month, year, time span, '24/7', a modifier or a comment")
        }
        if rule.spans.isEmpty || wholeDay { rule.spans = [Span(start: 0, end: 1440)] }
        rule.spillsOver = rule.spans.contains { $0.end > 1440 }
        let own = rule.spans.map { ($0.start, min($0.end, 1440)) }
        let spill = rule.spans.filter { $0.end > 1440 }.map { (0, $0.end - 1440) }
        rule.ownCoversDay = Parser.coverWholeDay(own)
        rule.spillCoversDay = Parser.coverWholeDay(spill)
        rule.bothCoverDay = Parser.coverWholeDay(own + spill)
        rule.live = rule.status != .closed || rule.comment != nil
        return rule
    }

    /// Whether half-open minute intervals together cover 00:00-24:00.
    static func coverWholeDay(_ intervals: [(Int, Int)]) -> Bool {
        var reached = 0
        for (start, end) in intervals.sorted(by: { $0.0 < $1.0 }) where start <= reached { reached = max(reached, end) }
        return reached >= 1440
    }

    /// The year of a four-digit number token, checked against the range the grammar allows.
    func year(_ token: Token) throws(OpeningHoursError) -> Int? {
        guard case .number(let year, 4) = token.kind else { return nil }
        guard (1900...9999).contains(year) else {
            throw OpeningHoursError("a year must be 1900–9999", column: token.column)
        }
        return year
    }

    /// `2026`, `2020-2030`, `2020-2030/2`, `2026+`, separated by `,`.
    mutating func parseYears() throws(OpeningHoursError) -> [SteppedRange] {
        var ranges: [SteppedRange] = []
        while true {
            guard let from = try year(current) else { throw unexpected(current, expecting: "a year") }
            advance()
            var range = SteppedRange(from: from, to: from)
            if current.kind == .plus {
                advance()
                range.to = Int.max
            } else if current.kind == .dash, let to = try year(peek()) {
                advance()
                guard to >= from else {
                    throw OpeningHoursError("the end year is before the start year", column: current.column)
                }
                advance()
                range.to = to
                if let step = try period() { range.step = step }
            }
            ranges.append(range)
            guard current.kind == .comma, case .number(_, 4) = peek().kind else { return ranges }
            advance()
        }
    }

    /// A period after a range (`/2`), read when one follows; nil when none does.
    mutating func period() throws(OpeningHoursError) -> Int? {
        guard current.kind == .other("/"), case .number(let step, let digits) = peek().kind, digits <= 4 else {
            return nil
        }
        guard step >= 1 else { throw OpeningHoursError("a period must be 1 or more", column: peek().column) }
        advance()
        advance()
        return step
    }

    /// `week 01-10`, `week 02-52/2`, `week 1,3-4`: ISO week numbers 1–53, a range not inverted.
    mutating func parseWeeks() throws(OpeningHoursError) -> [SteppedRange] {
        advance()
        var ranges: [SteppedRange] = []
        while true {
            let from = try weekNumber()
            var range = SteppedRange(from: from, to: from)
            if current.kind == .dash {
                advance()
                let column = current.column
                range.to = try weekNumber()
                guard range.to >= from else {
                    let message = "an inverted week range is ambiguous: write \(range.to)-\(from)"
                    throw OpeningHoursError(message, column: column)
                }
                if let step = try period() { range.step = step }
            }
            ranges.append(range)
            guard current.kind == .comma, case .number(_, let digits) = peek().kind, digits <= 2 else { return ranges }
            advance()
        }
    }

    /// A week number 1–53 (one or two digits).
    mutating func weekNumber() throws(OpeningHoursError) -> Int {
        guard case .number(let week, let digits) = current.kind, digits <= 2 else {
            throw unexpected(current, expecting: "a week number")
        }
        guard (1...53).contains(week) else { throw OpeningHoursError("a week must be 01–53", column: current.column) }
        advance()
        return week
    }

    /// `[1]`, `[-1]`, `[1,3]`, `[1-2]` after a weekday: the occurrences in the month, as bits of
    /// ``DateSelectors/nth``.
    mutating func parseOccurrences() throws(OpeningHoursError) -> UInt16 {
        advance()
        var bits: UInt16 = 0
        while true {
            let fromEnd = current.kind == .dash
            if fromEnd { advance() }
            let first = try occurrence()
            var last = first
            if !fromEnd, current.kind == .dash {
                advance()
                last = try occurrence()
                guard last >= first else { throw unexpected(current, expecting: "a later occurrence") }
            }
            for n in first...last { bits |= 1 << UInt16(fromEnd ? 4 + n : n - 1) }
            if current.kind == .comma {
                advance()
                continue
            }
            guard current.kind == .other("]") else { throw unexpected(current, expecting: "',' or ']'") }
            advance()
            return bits
        }
    }

    /// An occurrence number 1–5.
    mutating func occurrence() throws(OpeningHoursError) -> Int {
        guard case .number(let n, 1) = current.kind, (1...5).contains(n) else {
            throw unexpected(current, expecting: "an occurrence 1–5")
        }
        advance()
        return n
    }

    /// `Mo-Fr`, `Sa,Su`, `Fr-Mo`, `PH`, `Su,PH`; the holidays and the weekdays may also follow each
    /// other without a comma (`PH Su`, `Su PH`), as in the reference implementation.
    mutating func parseDays(into rule: inout Rule, nth: inout [UInt16]) throws(OpeningHoursError) {
        // The weekdays selected without `[n]`: every occurrence of them, once any has `[n]`.
        var plain: UInt8 = 0
        while true {
            let holiday = current.kind == .word("ph")
            if holiday {
                rule.publicHolidays = true
                advance()
            } else if let first = Parser.weekday(current.kind) {
                advance()
                if current.kind == .other("[") {
                    let bits = try parseOccurrences()
                    if current.kind == .plus || current.kind == .dash, case .number = peek().kind {
                        throw OpeningHoursError("day offsets are not supported", column: current.column)
                    }
                    if nth.isEmpty { nth = Array(repeating: 0, count: 7) }
                    rule.weekdays |= 1 << UInt8(first)
                    nth[first] |= bits
                } else {
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
                        plain |= 1 << UInt8(day)
                        if day == last { break }
                        day = (day + 1) % 7
                    }
                    if current.kind == .other("[") {
                        throw OpeningHoursError("write [n] after a single weekday (Su[1])", column: current.column)
                    }
                }
            } else {
                throw unexpected(current, expecting: "a weekday or PH")
            }
            if holiday ? Parser.weekday(current.kind) != nil : current.kind == .word("ph") { continue }
            guard current.kind == .comma, Parser.isDaySelector(peek().kind) else { break }
            advance()
        }
        rule.weekdays |= plain
        if !nth.isEmpty {
            for day in 0..<7 where plain & (1 << UInt8(day)) != 0 { nth[day] = DateSelectors.everyOccurrence }
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

    /// `Jan 01`, `Dec 24-26`, `Dec 24-Jan 02`, `Dec 24,26`, `Jan-Mar`, `Dec`, each optionally after a
    /// year (`2021 Mar 28-Apr 16`, `2026 Dec 24-2027 Jan 06`, `2026 Dec`), separated by `,`.
    mutating func parseDates() throws(OpeningHoursError) -> [DateRange] {
        var ranges: [DateRange] = []
        while true {
            let year = try self.year(current)
            if year != nil { advance() }
            guard let month = Parser.month(current.kind) else { throw unexpected(current, expecting: "a month") }
            advance()
            if let day = try dayNumber(in: month) {
                var from = day
                while true {
                    var endYear: Int?
                    var end = (month: month, day: from)
                    if current.kind == .dash {
                        advance()
                        if let toYear = try self.year(current), Parser.month(peek().kind) != nil {
                            guard year != nil else {
                                throw OpeningHoursError(
                                    "a year at the end of a date range needs one at its start", column: current.column)
                            }
                            endYear = toYear
                            advance()
                        }
                        if let endMonth = Parser.month(current.kind) {
                            advance()
                            guard let endDay = try dayNumber(in: endMonth) else {
                                throw unexpected(current, expecting: "a day of the month")
                            }
                            end = (endMonth, endDay)
                        } else {
                            guard let endDay = try dayNumber(in: month) else {
                                throw unexpected(current, expecting: "a day of the month or a month")
                            }
                            end = (month, endDay)
                        }
                    }
                    let fromKey = month * 100 + from
                    let toKey = end.month * 100 + end.day
                    if let year {
                        // Without its own year the end is the first such date on or after the start
                        // (`2026 Dec 24-Jan 06` ends in 2027), as in the reference implementation.
                        let toYear = endYear ?? (toKey < fromKey ? year + 1 : year)
                        ranges.append(
                            DateRange(from: year * 10_000 + fromKey, to: toYear * 10_000 + toKey, absolute: true))
                    } else {
                        ranges.append(DateRange(from: fromKey, to: toKey))
                    }
                    guard current.kind == .comma, case .number(_, let digits) = peek().kind, digits <= 2 else { break }
                    advance()
                    guard let next = try dayNumber(in: month) else { break }
                    from = next
                }
            } else if current.kind == .dash {
                // Jan-Mar; with a year, the months of that year (`2026 Nov-Jan`: Jan, Nov and Dec 2026).
                advance()
                guard let endMonth = Parser.month(current.kind) else { throw unexpected(current, expecting: "a month") }
                advance()
                if case .number(_, let digits) = current.kind, digits <= 2 {
                    throw OpeningHoursError("write a date range as 'Jan 01-Mar 15'", column: current.column)
                }
                ranges.append(DateRange(from: month * 100 + 1, to: endMonth * 100 + 31, year: year ?? 0))
            } else {
                ranges.append(DateRange(from: month * 100 + 1, to: month * 100 + 31, year: year ?? 0))
            }
            guard current.kind == .comma, Parser.month(peek().kind) != nil || isDatedMonth(at: position + 1) else {
                return ranges
            }
            advance()
        }
    }

    /// Whether the token at `index` is a year followed by a month: a date with its year.
    func isDatedMonth(at index: Int) -> Bool {
        guard index + 1 < tokens.count, case .number(_, 4) = tokens[index].kind else { return false }
        return Parser.month(tokens[index + 1].kind) != nil
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
                advance()
                // `10:00-18:00+`: the reference implementation reads it as 10:00-18:00, and so do we.
                if current.kind == .plus { advance() }
                // An end not after the start is on the next day; an end written past 24:00 is too
                // (`01:30-26:00` lasts 24 h 30 min and overlaps the next day's own span).
                if end <= start { end += 1440 }
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
