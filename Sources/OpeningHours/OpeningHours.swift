/// An OpenStreetMap `opening_hours` value, parsed once and cheap to evaluate.
///
/// The module does no I/O and knows no time zones: the caller gives local wall-clock dates
/// and times (``LocalTime``) and the public holidays of the place (a set of ``CalendarDate`` or a
/// ``PublicHolidays``).
///
/// ## Supported grammar subset
///
/// Keywords, weekday and month names are case-insensitive; whitespace between tokens is
/// ignored (`mo-fr 08:00-20:00`, `Mo-Fr 8:00 - 20:00`). `–` and `—` are accepted as `-`.
///
/// ```
/// value        = rule *( separator rule )                    ; nothing after the last rule
/// separator    = ";" / "," / "||"
/// rule         = "24/7" [ modifier ] [ comment ]
///              / [ years ] [ dates ] [ weeks ] [ ":" ] [ days [ ":" ] ] [ spans ] [ modifier ] [ comment ]
///                                                            ; not empty; the first ":" only
///                                                            ; after years, dates or weeks
/// years        = year-range *( "," year-range )              ; not followed by a month (that
///                                                            ; year belongs to the date)
/// year-range   = year [ "+" / "-" year [ "/" period ] ]      ; 2026, 2026+, 2020-2030, 2020-2030/2
/// dates        = date-item *( "," date-item )
/// date-item    = [ year ] month "-" month                    ; Jan-Mar, Nov-Feb (wraps), 2026 Nov-Jan
///              / [ year ] month day-range *( "," day-range ) ; Jan 01, Dec 24-26, Dec 24,26,
///                                                            ; Dec 24-Jan 02, 2021 Mar 28-Apr 16
///              / [ year ] month                              ; Dec, 2026 Dec
/// day-range    = day [ "-" [ [ year ] month ] day ]          ; a year at the end only after one
///                                                            ; at the start: 2026 Dec 24-2027 Jan 06
/// weeks        = "week" week-range *( "," week-range )       ; week 01-10, week 02-52/2, week 1,3-4
/// week-range   = week [ "-" week [ "/" period ] ]            ; not inverted
/// days         = day-item *( "," day-item )                  ; Mo-Fr, Sa,Su, Fr-Mo (wraps), Su,PH;
///                                                            ; "," may be left out between PH and
///                                                            ; a weekday: PH Su, Su PH
/// day-item     = weekday [ "-" weekday ] / "PH"
///              / weekday "[" nth *( "," nth ) "]"            ; Su[1], Th[-1], Mo[1,3], Su[1-2]
/// nth          = occurrence [ "-" occurrence ] / "-" occurrence
/// occurrence   = "1" / "2" / "3" / "4" / "5"
/// spans        = span *( "," span )
/// span         = time "-" time [ "+" ]                       ; 08:30-12:00, 22:00-02:00, 10:00-26:00
///              / time "+"                                    ; open end
/// time         = hour ":" minute                             ; hour 0-48 (1 or 2 digits), minute
///                                                            ; 00-59; a span starts before 24:00
/// modifier     = "open" / "closed" / "off" / "unknown"
/// comment      = DQUOTE *( any but DQUOTE ) DQUOTE
/// year         = 4DIGIT                                      ; 1900-9999
/// week         = 1*2DIGIT                                    ; 1-53
/// period       = 1*4DIGIT                                    ; 1 or more
/// weekday      = "Mo" / "Tu" / "We" / "Th" / "Fr" / "Sa" / "Su"
/// month        = "Jan" / "Feb" / ... / "Dec"
/// day          = 1*2DIGIT                                    ; 1 up to the month's length (Feb 29
///                                                            ; allowed)
/// ```
///
/// ## Meaning
///
/// The meaning is that of the reference implementation, opening-hours-rs 2.1.4 (PyPI
/// `opening-hours-py`), except where "Differences" below says otherwise;
/// `scripts/opening-hours-reference.sh` compares the two on real-world values.
///
/// - Times are minutes since local midnight. A span is half-open: `08:00-12:00` is open at
///   08:00 and closed at 12:00. `24:00` as an end means midnight ending the day.
/// - A span whose end is not after its start continues past midnight: in `Fr 22:00-02:00` the
///   part 00:00-02:00 is on Saturday (and on the following month or year when Friday is the
///   last day of one). So is an end written past 24:00 (`22:00-26:00`, up to 48:00; `01:30-26:00`
///   overlaps the next day's own span).
/// - An open end `18:00+` is taken as open from 18:00 until 24:00 that day; in `10:00-18:00+` the
///   `+` is ignored.
/// - A rule without times covers its whole days (00:00-24:00); a rule without selectors covers
///   every day. Selectors narrow each other: `2026 Dec Sa` is the Saturdays of December 2026.
///   `PH` selects the dates in the caller's holiday set, and weekdays and `PH` in one rule add up
///   (`Su,PH` and `PH Su` are Sundays and holidays). A week is an ISO 8601 week (week 1 holds the
///   year's first Thursday); `Su[2]` is the second Sunday of the month, `Th[-1]` the last Thursday.
/// - Years: a year range selects the years in it (with `/n`, every n-th from the first). A year
///   before a month range limits it to that year (`2026 Nov-Jan` is January, November and
///   December 2026); a year before a day makes the date range absolute (`2021 Mar 28-Apr 16`),
///   and an end without its own year is the first such date after the start (`2026 Dec 24-Jan 06`
///   ends on 6 January 2027). Each date item has its own year or none (`2026 Dec 24,Jan 01` is
///   24 December 2026 and every 1 January).
/// - The modifier sets the state of the rule's times: `open` (the default), `closed`/`off`, or
///   `unknown`. A comment is kept and returned with the state the rule gives; it does not change
///   that state, except that a rule made of a comment alone (`"by appointment"`) is `unknown`
///   every day.
/// - A rule's times on a day are its own spans when it selects the day and the parts past
///   midnight of its spans when it selects the day before. Rules are applied in order, each day
///   on its own:
///   - a rule after `;` (or the first) that is open or unknown replaces everything earlier rules
///     said about a day it selects (`Mo-Fr 08:00-18:00; Sa 09:00-12:00`, `Mo-Fr 22:00-02:00; Sa
///     10:00-12:00` is closed on Saturday at 01:00). On a day it does not select it adds the part
///     of its spans past midnight only where earlier rules said nothing but "closed" about the day
///     (`Sa 10:00-12:00; Mo-Fr 22:00-02:00` is closed on Saturday at 01:00, `Mo-Fr 22:00-02:00;
///     Fr 10:00-12:00` open, and of two rules spilling into one day the first one counts);
///   - a rule after `;` that closes, and any rule after `,`, lays its times over what earlier rules
///     said, changing nothing else (`Mo-Fr 08:00-18:00; We 12:00-13:00 off`, `Mo-Fr 08:00-12:00,
///     We 14:00-16:00`); without times a closing rule closes its whole days (`…; PH off`);
///   - a rule after `||` (a fallback) applies to a day no earlier rule selects, or about which
///     they said nothing but "closed" (`Mo-Fr 08:00-12:00; Sa off || unknown` is unknown on
///     Saturdays; with `Sa off "stocktaking"` it is closed).
/// - An instant no rule covers is closed.
///
/// ## Differences from the reference
///
/// Listed, with every value of the comparison they concern, in
/// `Tests/OpeningHoursTests/Reference/known-differences.tsv`:
/// - a rule made of a comment alone is `unknown`, never `open` (the reference says open);
/// - whitespace is ignored, so `Tu - Su` is a weekday range and `Mo, We 10:00-12:00` one rule with
///   a weekday list (the reference refuses the first and reads `, ` after days or dates as a rule
///   separator); also accepted where the reference refuses them: `Dec 24,26` (a list of days),
///   `Mo-Fr: 08:00-20:00` (a colon after days) and `–`/`—` for `-`;
/// - ``nextChange(after:holidays:withinDays:)`` finds the change where the reference reports none
///   because the last rule is a fallback for whole days (`… || 24/7`).
///
/// ## Refused
///
/// Parsing throws ``OpeningHoursError`` with the 1-based column (in Unicode scalars) of the
/// offending token for: school holidays (`SH`), `easter`, sunrise/sunset/dawn/dusk and variable
/// times (`(sunrise+…)`), day offsets (`Sa[1] +1 day`), dates given by an nth weekday
/// (`Mar Su[-1]`), periodic selectors other than years and weeks (`/2`), full weekday or month
/// names, years outside 1900-9999, a year on the end of a date range only, a value ending with
/// `;`, and any other form not listed above.
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
    /// The rules in order, each with the separator written before it.
    let rules: [Rule]
    /// Whether any rule selects `PH` (the holiday set is consulted only then).
    let usesHolidays: Bool
    /// The minutes of the day at which the state can change, ascending.
    let boundaries: [Int]

    /// Parses a value; throws the first problem found, with its column.
    public init(parsing text: String) throws(OpeningHoursError) {
        var parser = Parser(tokens: try tokenize(text))
        rules = try parser.parse()
        source = text
        usesHolidays = rules.contains { $0.publicHolidays }
        var minutes: Set<Int> = [0]
        for rule in rules {
            for span in rule.spans {
                minutes.insert(span.start % 1440)
                minutes.insert(span.end % 1440)
            }
        }
        boundaries = minutes.sorted()
    }

    /// A day as the rules' selectors see it: its `CalendarDate.key`, weekday (0 = Monday) and
    /// whether it is a public holiday.
    typealias Day = (key: Int, weekday: Int, holiday: Bool)

    /// The index of the rule deciding minute `minute` (0–1439) of a day, or -1 when none does
    /// (closed), taking the first `count` rules.
    ///
    /// This is the day's schedule of the reference implementation (opening-hours-rs 2.1.4,
    /// `OpeningHours::schedule_at`), evaluated at one minute. A rule's times on a day are its own
    /// spans if it selects the day and the part past midnight of its spans if it selects the day
    /// before. Rules are taken in order; the schedule so far is `live` when it says anything
    /// besides "closed" somewhere in the day. A `;` rule that is open or unknown replaces the
    /// schedule when it selects the day, and otherwise only a schedule that is not live (so the
    /// previous day's spill of a later rule is lost when an earlier rule selects the day). A `,`
    /// rule, and a `;` rule that closes, lays its times over the schedule. A `||` rule replaces a
    /// schedule that is not live or whose day no earlier rule selected.
    ///
    /// Whether the schedule is live after a closing rule covered part of the day is settled only
    /// when a later rule asks (`isLive`), by evaluating the earlier rules at the day's boundaries.
    @inline(__always)
    private static func decidingRule(
        _ rules: [Rule], count: Int, boundaries: [Int], today: Day, yesterday: Day, minute: Int
    ) -> Int {
        var winner = -1
        var live = false
        // `live` may be stale: a closing rule covered part of a live day.
        var unsettled = false
        var matched = false
        let late = minute + 1440
        for index in 0..<count {
            let rule = rules[index]
            let selectsToday = rule.selects(key: today.key, weekday: today.weekday, holiday: today.holiday)
            let spills =
                rule.spillsOver
                && rule.selects(key: yesterday.key, weekday: yesterday.weekday, holiday: yesterday.holiday)
            var hit = false
            if selectsToday {
                for span in rule.spans where span.start <= minute && minute < span.end {
                    hit = true
                    break
                }
            }
            if spills && !hit {
                for span in rule.spans where span.start <= late && late < span.end {
                    hit = true
                    break
                }
            }
            let ruleLive = rule.live && (selectsToday || spills)
            switch rule.separator {
            case .normal where rule.status != .closed:
                if !selectsToday && unsettled {
                    live = isLive(rules, count: index, boundaries: boundaries, today: today, yesterday: yesterday)
                    unsettled = false
                }
                if selectsToday || !live {
                    (winner, live, unsettled) = (hit ? index : -1, ruleLive, false)
                }
                matched = matched || selectsToday
            case .normal, .additional:
                if hit { winner = index }
                if ruleLive {
                    (live, unsettled) = (true, false)
                } else if live && (selectsToday || spills) {
                    let coversDay =
                        selectsToday ? (spills ? rule.bothCoverDay : rule.ownCoversDay) : rule.spillCoversDay
                    if coversDay { (live, unsettled) = (false, false) } else { unsettled = true }
                }
                matched = matched || selectsToday
            case .fallback:
                if matched && unsettled {
                    live = isLive(rules, count: index, boundaries: boundaries, today: today, yesterday: yesterday)
                    unsettled = false
                }
                if !(matched && live) {
                    (winner, live, unsettled) = (hit ? index : -1, ruleLive, false)
                    matched = selectsToday
                }
            }
        }
        return winner
    }

    /// Whether the first `count` rules say anything besides "closed" at some minute of the day:
    /// the deciding rule is constant between two boundaries, so the boundaries are enough.
    private static func isLive(_ rules: [Rule], count: Int, boundaries: [Int], today: Day, yesterday: Day) -> Bool {
        for minute in boundaries {
            let winner = decidingRule(
                rules, count: count, boundaries: boundaries, today: today, yesterday: yesterday, minute: minute)
            if winner >= 0 && rules[winner].live { return true }
        }
        return false
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
        let todayKey = time.date.key
        let yesterdayKey = time.date.day > 1 ? todayKey &- 1 : time.date.previous.key
        let weekday = time.weekday.rawValue
        let previousWeekday = weekday == 0 ? 6 : weekday - 1
        let winner = OpeningHours.decidingRule(
            rules, count: rules.count, boundaries: boundaries, today: (todayKey, weekday, todayHoliday),
            yesterday: (yesterdayKey, previousWeekday, yesterdayHoliday), minute: time.minute)
        guard winner >= 0 else { return State(.closed) }
        return State(rules[winner].status, comment: rules[winner].comment)
    }

    /// The first instant after `time` (within `days` days, 8 by default; a negative `days` is 0)
    /// at which the state (the status or its comment) differs from the state at `time`, walking
    /// day by day; nil when it does not change. A change of comment alone counts, as in the
    /// reference implementation: in `Mo 12:00-14:00 "women", Mo 14:00-16:00 "men"` it is 14:00.
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
        let now = state(at: time, today: today, yesterday: yesterday)
        var day = time.at(minute: 0)
        for offset in 0...max(days, 0) {
            for minute in boundaries where offset > 0 || minute > time.minute {
                let candidate = state(at: day.at(minute: minute), today: today, yesterday: yesterday)
                if candidate != now { return Change(at: day.at(minute: minute), state: candidate) }
            }
            day = day.nextMidnight
            (yesterday, today) = (today, usesHolidays ? isHoliday(day.date) : false)
        }
        return nil
    }
}
