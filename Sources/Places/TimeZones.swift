import Foundation

/// The time zones places name in their `tz` attribute, each given a small integer id once, so
/// that a query converts its instant into each zone's local time once rather than per place.
///
/// Zones come from the system's time-zone database (`/usr/share/zoneinfo`, Debian's `tzdata`)
/// through Foundation, which applies its daylight-saving rules.
public enum TimeZones {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var ids: [String: Int] = [:]
        var zones: [TimeZone] = []
    }

    private static let registry = Registry()

    /// The zone an IANA name (`Europe/Rome`, `Europe/Istanbul`, `UTC`) denotes, with its id; nil
    /// for a name the system's database does not know (names are case-sensitive).
    public static func zone(named name: String) -> (id: Int, zone: TimeZone)? {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        if let id = registry.ids[name] { return (id, registry.zones[id]) }
        guard !name.isEmpty, name.utf8.count <= 64, let zone = TimeZone(identifier: name) else { return nil }
        let id = registry.zones.count
        registry.ids[name] = id
        registry.zones.append(zone)
        return (id, zone)
    }

    /// How many zones have ids: every id is below this.
    static var count: Int {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return registry.zones.count
    }

    /// What a `tz` value must be, for messages.
    public static let expected = "an IANA time-zone name of the system's database, such as Europe/Rome or UTC"
}
