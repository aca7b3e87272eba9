import OpeningHours
import Places

/// Short labels for the local times of `OpeningState` (`openUntil`, `opensAt`).
public enum OpeningLabel {
    /// `2026-11-26T19:30+01:00` → `Thu 19:30`: the weekday and the local time (the offset is the
    /// place's own, so the label is its wall clock). Text of another form is returned unchanged.
    public static func short(_ text: String) -> String {
        guard let time = DutyRota.localTime(String(text.prefix(16))) else { return text }
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return names[time.weekday.rawValue] + " " + String(text.dropFirst(11).prefix(5))
    }
}
