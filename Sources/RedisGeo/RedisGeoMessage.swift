/// The error texts of Redis 7.0's GEO commands (`src/geo.c`), exactly as sent after the "-" of a
/// RESP error and before its CRLF.
public enum RedisGeoMessage {
    /// GEOADD, GEORADIUS and GEOSEARCH FROMLONLAT outside the Redis limits, with both values printed
    /// by C's `%f`: `ERR invalid longitude,latitude pair 200.000000,100.000000`.
    public static func invalidPair(longitude: Double, latitude: Double) -> String {
        "ERR invalid longitude,latitude pair \(RedisGeoText.printfF(longitude)),\(RedisGeoText.printfF(latitude))"
    }

    /// A unit other than m, km, ft, mi in any case.
    public static let unsupportedUnit = "ERR unsupported unit provided. please use M, KM, FT, MI"
    /// A negative radius (BYRADIUS, GEORADIUS).
    public static let negativeRadius = "ERR radius cannot be negative"
    /// A negative width or height (BYBOX).
    public static let negativeBox = "ERR height or width cannot be negative"
    /// A radius that is not a number.
    public static let radiusNotNumeric = "ERR need numeric radius"
    /// A box width that is not a number.
    public static let widthNotNumeric = "ERR need numeric width"
    /// A box height that is not a number.
    public static let heightNotNumeric = "ERR need numeric height"
    /// COUNT 0 or a negative COUNT.
    public static let countNotPositive = "ERR COUNT must be > 0"
    /// ANY without COUNT.
    public static let anyWithoutCount = "ERR the ANY argument requires COUNT argument"
    /// FROMMEMBER or GEORADIUSBYMEMBER naming a member that the key does not hold.
    public static let memberNotFound = "ERR could not decode requested zset member"

    /// GEOSEARCH without FROMMEMBER or FROMLONLAT; `command` is the command name exactly as the
    /// client typed it (Redis prints `argv[0]`, so "geosearch" stays lower case).
    public static func missingFrom(command: String) -> String {
        "ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for \(command)"
    }

    /// GEOSEARCH without BYRADIUS or BYBOX; `command` as typed, see `missingFrom(command:)`.
    public static func missingBy(command: String) -> String {
        "ERR exactly one of BYRADIUS and BYBOX can be specified for \(command)"
    }
}
