import Geo

/// Every error the `RedisGeo` module throws.
///
/// The line protocol checks a command's arguments before it calls this module and answers a bad
/// one with Redis's own reply (`RedisGeoMessage`), so these errors reach a client only through a
/// caller that skipped that check. Each case carries the offending value, and its description
/// names the valid range.
public enum RedisGeoError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A position outside what Redis's geohash can encode: longitude beyond -180...180 or latitude
    /// beyond -85.05112878...85.05112878 (degrees), or NaN. Redis's own reply for the case is
    /// `RedisGeoMessage.invalidPair(longitude:latitude:)`.
    case outsideRange(longitude: Double, latitude: Double)
    /// A search radius, width or height that is negative or NaN, in the search's unit (Redis's
    /// replies: `RedisGeoMessage.negativeRadius`, `RedisGeoMessage.negativeBox`).
    case negativeSize(Double)
    /// A COUNT below 1 (Redis's reply: `RedisGeoMessage.countNotPositive`).
    case invalidCount(Int)

    public var description: String {
        switch self {
        case .outsideRange(let longitude, let latitude):
            return "invalid longitude,latitude pair \(Self.format(longitude)),\(Self.format(latitude)): "
                + "expected a longitude from -180 to 180 and a latitude from -85.05112878 to 85.05112878"
        case .negativeSize(let value):
            return "invalid search size \(Self.format(value)): expected a radius, width or height of 0 or more"
        case .invalidCount(let value):
            return "invalid count \(value): expected a whole number, 1 or more"
        }
    }

    static func format(_ value: Double) -> String { NumberText.plain(value) }
}
