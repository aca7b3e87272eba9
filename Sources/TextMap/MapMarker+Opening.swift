extension MapMarker {
    /// Whether a place is open at the map's moment, and when that changes.
    ///
    /// The times are short local-time labels the caller chooses (`"19:30"`, `"Mon 08:30"`); the
    /// map prints them as given, after `until` or `opens`, and does no time arithmetic.
    ///
    /// ```swift
    /// marker.opening = .open(until: "Thu 19:30")
    /// marker.opening = .open(until: "Fri 08:30", onDuty: true)
    /// marker.opening = .closed(opensAt: "Mon 08:30")
    /// marker.opening = .unknown
    /// ```
    public enum Opening: Sendable, Hashable {
        /// Open; `until` is when it closes (nil: not within the caller's horizon, or unknown).
        /// `onDuty`: open because of a duty rota (a pharmacy on night or holiday duty), which the
        /// list says.
        case open(until: String?, onDuty: Bool = false)
        /// Closed; `opensAt` is when it opens next (nil: not within the caller's horizon).
        case closed(opensAt: String?)
        /// No hours, hours that could not be read, or a rule that says "unknown": never drawn or
        /// listed as open.
        case unknown

        /// Whether the place is open.
        public var isOpen: Bool {
            if case .open = self { return true }
            return false
        }

        /// How the list states it: "open until 19:30", "on duty until 08:30", "closed, opens Mon
        /// 08:30", "hours unknown"; "open", "on duty" and "closed" without a time.
        public var listText: String {
            switch self {
            case .open(let until, let onDuty):
                let state = onDuty ? "on duty" : "open"
                return until.map { "\(state) until \(TerminalText.printable($0))" } ?? state
            case .closed(let opensAt):
                return opensAt.map { "closed, opens \(TerminalText.printable($0))" } ?? "closed"
            case .unknown:
                return "hours unknown"
            }
        }
    }

    /// The state the map shows the place with: nil on a map without opening states
    /// (`showsOpening` false), else the marker's state, or `.unknown` when it has none.
    func shownOpening(_ showsOpening: Bool) -> Opening? {
        showsOpening ? (opening ?? .unknown) : nil
    }

    /// Whether the map gives the place a number: always without opening states, else only when
    /// open — closed places and those with hours unknown show their own symbols.
    func isNumbered(_ showsOpening: Bool) -> Bool {
        shownOpening(showsOpening)?.isOpen ?? true
    }
}
