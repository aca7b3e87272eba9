/// A distance unit of the Redis GEO commands, with Redis 7.0's conversion factors (`src/geo.c`
/// `extractUnitOrReply`).
public enum RedisGeoUnit: String, Sendable, Hashable, CaseIterable {
    /// Meters: "m".
    case meters = "m"
    /// Kilometers: "km".
    case kilometers = "km"
    /// International feet: "ft", 0.3048 m.
    case feet = "ft"
    /// Miles: "mi", 1609.34 m as Redis has it (the statute mile is 1609.344 m).
    case miles = "mi"

    /// Meters in one unit: Redis multiplies a radius by this and divides a distance by it.
    public var metersPerUnit: Double {
        switch self {
        case .meters: return 1
        case .kilometers: return 1000
        case .feet: return 0.3048
        case .miles: return 1609.34
        }
    }

    /// Parses a unit argument as Redis does: ASCII case-insensitive (`strcasecmp`), so "KM" and "Km"
    /// are kilometers. Like `strcasecmp`, the comparison stops at a NUL byte.
    ///
    /// - Returns: nil for anything else; Redis then replies `RedisGeoMessage.unsupportedUnit`.
    public init?(argument: some Collection<UInt8>) {
        let lowered = argument.prefix { $0 != 0 }.map { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
        guard let unit = RedisGeoUnit(rawValue: String(decoding: lowered, as: UTF8.self)) else { return nil }
        self = unit
    }

    /// Parses a unit argument given as a string; see `init?(argument:)` for bytes.
    public init?(argument: String) {
        self.init(argument: argument.utf8)
    }
}
