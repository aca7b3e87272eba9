/// An OpenStreetMap `opening_hours` value, parsed once and cheap to evaluate.
///
/// The module does no I/O and knows no time zones: the caller gives local wall-clock dates
/// and times (``LocalTime``) and the public holidays of the place (a set of ``CalendarDate``).
///
/// ## Supported grammar subset
///
/// Keywords, weekday and month names are case-insensitive; whitespace between tokens is
/// ignored (`mo-fr 08:00-20:00`, `Mo-Fr 8:00 - 20:00`). `–` and `—` are accepted as `-`.
///
/// ```
/// value        = sequence *( "||" sequence )
/// sequence     = rule *( ( ";" / "," ) rule ) [ ";" ]
/// rule         = "24/7" [ modifier ] [ comment ]
///              / [ dates ] [ days [ ":" ] ] [ spans ] [ modifier ] [ comment ]   ; not empty
/// dates        = date-item *( "," date-item )
/// date-item    = month "-" month                    ; Jan-Mar, Nov-Feb (wraps)
///              / month day [ "-" [ month ] day ] *( "," day [ "-" day ] )
///                                                   ; Jan 01, Dec 24-26, Dec 24-Jan 02, Dec 24,26
///              / month                              ; Dec
/// days         = day-item *( "," day-item )
/// day-item     = weekday [ "-" weekday ] / "PH"     ; Mo-Fr, Sa,Su, Fr-Mo (wraps), Su,PH
/// spans        = span *( "," span )
/// span         = time "-" time                      ; 08:30-12:00, 22:00-02:00, 10:00-24:00
///              / time "+"                           ; open end
/// time         = hour ":" minute                    ; hour 0-48 (1 or 2 digits), minute 00-59
/// modifier     = "open" / "closed" / "off" / "unknown"
/// comment      = DQUOTE *( any but DQUOTE ) DQUOTE
/// weekday      = "Mo" / "Tu" / "We" / "Th" / "Fr" / "Sa" / "Su"
/// month        = "Jan" / "Feb" / ... / "Dec"
/// day          = 1*2DIGIT                           ; 1 up to the month's length (Feb 29 allowed)
/// ```
///
/// ## Meaning
///
/// - Times are minutes since local midnight. A span is half-open: `08:00-12:00` is open at
///   08:00 and closed at 12:00. `24:00` as an end means midnight ending the day.
/// - A span whose end is not after its start continues past midnight: in `Fr 22:00-02:00` the
///   part 00:00-02:00 is on Saturday (and on the following month or year when Friday is the
///   last day of one). So is an end written past 24:00 (`22:00-26:00`). A span lasts at most
///   24 hours.
/// - An open end `18:00+` is taken as open from 18:00 until 24:00 that day.
/// - A rule without times covers its whole days (00:00-24:00); a rule without day or date
///   selectors covers every day; a rule with both dates and days covers the selected weekdays
///   (or public holidays) inside the dates. `PH` selects the dates in the caller's holiday set.
/// - The modifier sets the state of the rule's times: `open` (the default), `closed`/`off`, or
///   `unknown`. A comment is kept and returned with the state the rule gives; it does not change
///   that state, except that a rule made of a comment alone (`"by appointment"`) is `unknown`
///   every day.
/// - Rules are applied in order for each day. A rule after `;` (or the first) that selects a
///   day replaces everything earlier rules said about that day (`Mo-Fr 08:00-18:00; We off`,
///   `…; PH off`); a rule after `,` only adds its times, overwriting earlier rules where they
///   overlap (`Mo-Fr 08:00-18:00, We 12:00-13:00 off`).
/// - The part of a span past midnight belongs to the day it was written for, and ends at
///   midnight when a later rule names the following day (`Mo-Fr 22:00-02:00; Sa off` is closed
///   on Saturday at 01:00), as in the reference implementation (opening-hours-rs). Rules in
///   other orders (a rule for the following day written before the spilling one, two spilling
///   rules for one day) are not yet settled against it.
/// - An `off`/`closed` rule with written times closes only those times
///   (`24/7; Mo 12:00-13:00 off`); without times it closes its whole days.
/// - After `||`, a fallback sequence applies to the days no earlier sequence selects.
/// - An instant no rule covers is closed.
///
/// ## Refused
///
/// Parsing throws ``OpeningHoursError`` with the 1-based column (in Unicode scalars) of the
/// offending token for: years (`2024`), week numbers (`week 01-10`), nth weekdays (`Su[1]`),
/// school holidays (`SH`), `easter`, sunrise/sunset/dawn/dusk and variable times (`(sunrise+…)`),
/// periodic selectors (`/2`), day offsets, `10:00-18:00+`, full weekday or month names, and any
/// other form not listed above.
public struct OpeningHours: Sendable {
    /// The state of a place at an instant.
    public enum Status: Int, Sendable, Hashable {
        case closed = 1, unknown = 2, open = 3
    }

    /// The state at an instant, with the comment of the rule that decided it, if any.
    public struct State: Sendable, Hashable {
        public var status: Status
        public var comment: String?

        public init(_ status: Status, comment: String? = nil) {
            self.status = status
            self.comment = comment
        }
    }

    /// A change of state: the first instant with the new state.
    public struct Change: Sendable, Hashable {
        public var at: LocalTime
        public var state: State
    }

    /// The value as given.
    public let source: String
    /// Sequences separated by `||`, each a list of rules.
    let sequences: [[Rule]]
    /// Whether any rule selects `PH` (the holiday set is consulted only then).
    let usesHolidays: Bool
    /// The minutes of the day at which the state can change, ascending.
    let boundaries: [Int]

    /// Parses a value; throws the first problem found, with its column.
    public init(parsing text: String) throws(OpeningHoursError) {
        var parser = Parser(tokens: try tokenize(text))
        sequences = try parser.parse()
        source = text
        usesHolidays = sequences.contains { $0.contains { $0.publicHolidays } }
        var minutes: Set<Int> = [0]
        for rule in sequences.joined() {
            for span in rule.spans {
                minutes.insert(span.start % 1440)
                minutes.insert(span.end % 1440)
            }
        }
        boundaries = minutes.sorted()
    }

    /// The rule of one sequence deciding minute `minute` (0–1439) of a day, or -1 when none does;
    /// and whether any rule of the sequence selects the day at all (then no fallback applies).
    ///
    /// Rules are applied in order, as the day's own schedule and the previous day's part past
    /// midnight. A rule that selects a day replaces what earlier rules said about it (its part
    /// past midnight included), except an `off`/`closed` rule with written times, which closes
    /// only those, and a rule after `,`, which adds. Of the two schedules, the rule applied later
    /// decides: a later rule naming the day ends the previous day's spans at midnight.
    @inline(__always)
    private static func decidingRule(
        _ rules: [Rule], today: (key: Int, weekday: Int, holiday: Bool),
        yesterday: (key: Int, weekday: Int, holiday: Bool), minute: Int
    ) -> (rule: Int, covers: Bool) {
        var own = -1
        var spill = -1
        var covers = false
        let late = minute + 1440
        for index in rules.indices {
            let rule = rules[index]
            let replaces = !rule.additive && !(rule.status == .closed && rule.explicitTimes)
            if rule.selects(key: today.key, weekday: today.weekday, holiday: today.holiday) {
                covers = true
                if replaces { (own, spill) = (-1, -1) }
                for span in rule.spans where span.start <= minute && minute < span.end {
                    own = index
                    break
                }
            }
            if rule.selects(key: yesterday.key, weekday: yesterday.weekday, holiday: yesterday.holiday) {
                if replaces { spill = -1 }
                guard rule.spillsOver else { continue }
                for span in rule.spans where span.start <= late && late < span.end {
                    spill = index
                    break
                }
            }
        }
        return (max(own, spill), covers)
    }

    /// Whether any rule selects `PH`; when not, the holidays given never matter.
    public var usesPublicHolidays: Bool { usesHolidays }

    /// The state at a local instant, given the place's public holidays.
    public func state(at time: LocalTime, holidays: Set<CalendarDate> = []) -> State {
        guard usesHolidays, !holidays.isEmpty else { return state(at: time, today: false, yesterday: false) }
        return state(at: time, today: holidays.contains(time.date), yesterday: holidays.contains(time.date.previous))
    }

    /// The state at a local instant, given the place's public holidays as a ``PublicHolidays``
    /// (faster to consult than a `Set`).
    public func state(at time: LocalTime, holidays: PublicHolidays) -> State {
        guard usesHolidays, !holidays.isEmpty else { return state(at: time, today: false, yesterday: false) }
        return state(at: time, today: holidays.contains(time.date), yesterday: holidays.contains(time.date.previous))
    }

    /// The state at a local instant whose day and previous day are public holidays or not.
    public func state(at time: LocalTime, today todayHoliday: Bool, yesterday yesterdayHoliday: Bool) -> State {
        let todayKey = time.date.monthDayKey
        let yesterdayKey = time.date.day > 1 ? todayKey - 1 : time.date.previous.monthDayKey
        let weekday = time.weekday.rawValue
        let previousWeekday = weekday == 0 ? 6 : weekday - 1
        for rules in sequences {
            let (winner, covers) = OpeningHours.decidingRule(
                rules, today: (todayKey, weekday, todayHoliday),
                yesterday: (yesterdayKey, previousWeekday, yesterdayHoliday), minute: time.minute)
            if winner >= 0 { return State(rules[winner].status, comment: rules[winner].comment) }
            // A fallback (`||`) is for the days the sequences before it say nothing about.
            if covers { return State(.closed) }
        }
        return State(.closed)
    }

    /// The first instant after `time` (within `days` days, 8 by default) at which the status
    /// differs from the status at `time`, walking day by day; nil when it does not change.
    ///
    /// Use it for "open until" (when open now) and "opens at" (when closed now).
    public func nextChange(
        after time: LocalTime, holidays: Set<CalendarDate> = [], withinDays days: Int = 8
    ) -> Change? {
        nextChange(after: time, withinDays: days) { holidays.contains($0) }
    }

    /// ``nextChange(after:holidays:withinDays:)`` with the holidays as a ``PublicHolidays``.
    public func nextChange(after time: LocalTime, holidays: PublicHolidays, withinDays days: Int = 8) -> Change? {
        nextChange(after: time, withinDays: days) { holidays.contains($0) }
    }

    private func nextChange(
        after time: LocalTime, withinDays days: Int, isHoliday: (CalendarDate) -> Bool
    ) -> Change? {
        func flags(_ date: CalendarDate) -> (Bool, Bool) {
            usesHolidays ? (isHoliday(date), isHoliday(date.previous)) : (false, false)
        }
        var (today, yesterday) = flags(time.date)
        let now = state(at: time, today: today, yesterday: yesterday).status
        var day = time.at(minute: 0)
        for offset in 0...days {
            for minute in boundaries where offset > 0 || minute > time.minute {
                let candidate = state(at: day.at(minute: minute), today: today, yesterday: yesterday)
                if candidate.status != now { return Change(at: day.at(minute: minute), state: candidate) }
            }
            day = day.nextMidnight
            (yesterday, today) = (today, usesHolidays ? isHoliday(day.date) : false)
        }
        return nil
    }
}
