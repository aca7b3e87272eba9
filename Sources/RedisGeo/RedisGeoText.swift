/// Numbers in GEO replies, printed exactly as Redis 7.0 prints them.
public enum RedisGeoText {
    /// A distance as GEODIST and WITHDIST print it: the distance in the unit with four decimals,
    /// `printf("%.4f", meters / metersPerUnit)` (Redis `addReplyDoubleDistance`).
    ///
    /// - Parameters:
    ///   - meters: the distance in meters, as `RedisGeo.distance` returns it.
    ///   - unit: the unit of the command; Redis divides by its `metersPerUnit`.
    public static func distance(meters: Double, unit: RedisGeoUnit) -> String {
        FixedDecimal.format(meters / unit.metersPerUnit, fractionDigits: 4)
    }

    /// A coordinate as GEOPOS and WITHCOORD print it (Redis `addReplyHumanLongDouble`): the exact
    /// value rounded to 17 decimals, then trailing zeros and a trailing point removed, and "-0"
    /// printed as "0". For example "13.36138933897018433", "180", "-0.00000126736058093".
    ///
    /// - Parameter degrees: a longitude or latitude; finite values print as above, infinities as
    ///   "inf"/"-inf".
    public static func coordinate(_ degrees: Double) -> String {
        guard degrees.isFinite else { return FixedDecimal.format(degrees, fractionDigits: 0) }
        return FixedDecimal.trimmed(degrees, fractionDigits: 17)
    }

    /// A score as WITHHASH prints it: the integer `(long long)score` (Redis `addReplyLongLong`),
    /// truncated toward zero; like x86-64's `cvttsd2si`, values that do not fit print as
    /// -9223372036854775808.
    public static func hash(score: Double) -> String { String(hashInteger(score: score)) }

    /// The integer `hash(score:)` prints.
    public static func hashInteger(score: Double) -> Int64 {
        let limit = 9_223_372_036_854_775_808.0  // 2^63
        guard score > -limit, score < limit else { return Int64.min }
        return Int64(score)
    }

    /// C's `%f`: six decimals, as in Redis's "invalid longitude,latitude pair" error.
    public static func printfF(_ value: Double) -> String {
        FixedDecimal.format(value, fractionDigits: 6)
    }
}
