import OpeningHours

/// Whether a place is open at a moment, and until when (or from when).
public struct OpeningState: Sendable, Hashable {
    /// `open`, `closed`, or `unknown`: no hours, hours that do not parse, no zone, or a rule that
    /// says so. Unknown is never taken for open.
    public enum Status: String, Sendable, Hashable {
        case open, closed, unknown
    }

    public var status: Status
    /// Open because of a duty-rota spell.
    public var onDuty: Bool
    /// The first instant (seconds since 1970) with another status, within 8 days; nil when none
    /// or when the status is unknown.
    public var nextChange: Int64?
    /// The status from `nextChange` on.
    public var nextStatus: Status?
    /// The place's offset from UTC at `nextChange`, in seconds, for writing it in local time.
    public var nextChangeOffsetSeconds: Int
    /// How far `nextChange` is from the moment asked about, seconds (a label names the date as
    /// well as the weekday when it is a week away).
    public var nextChangeAheadSeconds: Int64?
    /// While on duty: when the current duty spell ends (seconds since 1970). The place may stay
    /// open past it by its hours: `nextChange` is when it closes.
    public var dutyEnds: Int64?
    /// The comment of the rule that decided (`"by appointment"`), if any.
    public var comment: String?

    public init(
        status: Status, onDuty: Bool = false, nextChange: Int64? = nil, nextStatus: Status? = nil,
        nextChangeOffsetSeconds: Int = 0, comment: String? = nil
    ) {
        self.status = status
        self.onDuty = onDuty
        self.nextChange = nextChange
        self.nextStatus = nextStatus
        self.nextChangeOffsetSeconds = nextChangeOffsetSeconds
        self.comment = comment
    }

    /// Hours unknown.
    public static let unknown = OpeningState(status: .unknown)

    /// When an open place closes (or turns unknown): `nextChange` in the place's local time with
    /// its offset, `2026-11-26T20:00+01:00`; nil unless open.
    public var openUntil: String? { status == .open ? nextChangeText : nil }

    /// When a closed place opens: nil unless closed and opening within 8 days.
    public var opensAt: String? { status == .closed && nextStatus == .open ? nextChangeText : nil }

    /// `nextChange` as an RFC 3339 local date-time with offset, minutes precision.
    public var nextChangeText: String? {
        guard let nextChange else { return nil }
        let local = CivilTime.local(nextChange, offsetSeconds: nextChangeOffsetSeconds)
        let offset = abs(nextChangeOffsetSeconds) / 60
        let sign = nextChangeOffsetSeconds < 0 ? "-" : "+"
        let hours = offset / 60
        let minutes = offset % 60
        return DutyRota.text(local) + sign + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "")
            + "\(minutes)"
    }
}
