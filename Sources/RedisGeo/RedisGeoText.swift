/// Numbers in GEO replies, printed exactly as Redis 7.0 prints them.
public enum RedisGeoText {
    /// A distance as GEODIST and WITHDIST print it: the distance in the unit with four decimals,
    /// as Redis 7.0's `addReplyDoubleDistance` writes it with `fixedpoint_d2string`: the value
    /// times 10,000 as a double, rounded to an integer by `llrint` (ties to even), then written
    /// with its last four digits after the point. This differs from `printf("%.4f")`, which
    /// rounds the exact value of the quotient, when the product lands on a half.
    ///
    /// - Parameters:
    ///   - meters: the distance in meters, as `RedisGeo.distance` returns it.
    ///   - unit: the unit of the command; Redis divides by its `metersPerUnit`.
    public static func distance(meters: Double, unit: RedisGeoUnit) -> String {
        let scaled = (meters / unit.metersPerUnit * 10_000).rounded(.toNearestOrEven)
        guard scaled.isFinite, abs(scaled) < 9e18 else {
            return FixedDecimal.format(meters / unit.metersPerUnit, fractionDigits: 4)
        }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        var fraction = String(magnitude % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        return (units < 0 ? "-" : "") + String(magnitude / 10_000) + "." + fraction
    }

    /// Writes `distance(meters:unit:)` of a distance known to within `errorMeters` to `out`
    /// (room for 40 bytes) and returns the number of bytes written, when every distance within
    /// the error prints the same; nil, writing nothing, when one might print otherwise (the
    /// distance is within the error of a rounding edge of the fourth decimal), or is negative,
    /// not finite or 1e11 units or more: then print the exact distance with
    /// `distance(meters:unit:)`.
    ///
    /// - Parameters:
    ///   - meters: Redis's distance, or an estimate of it (`RedisGeoHit.distanceError`).
    ///   - errorMeters: 0 for Redis's distance itself, else the most the estimate may be off.
    @inlinable @inline(__always)
    public static func writeDistance(
        meters: Double, errorMeters: Double, unit: RedisGeoUnit, to out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        writeDistance(meters: meters, errorMeters: errorMeters, metersPerUnit: unit.metersPerUnit, to: out)
    }

    /// `writeDistance(meters:errorMeters:unit:to:)` with the unit given by its meters, for a
    /// caller writing many distances in one unit: `metersPerUnit` is a `RedisGeoUnit`'s
    /// `metersPerUnit` (any other value prints what no unit would; 0, a negative or NaN: nil).
    @inlinable @inline(__always)
    public static func writeDistance(
        meters: Double, errorMeters: Double, metersPerUnit: Double, to out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        // A division by 1 is exact: meters need none (the same value, one long dependency less).
        let isMeters = metersPerUnit == 1
        let value = isMeters ? meters : meters / metersPerUnit
        guard value >= 0, value < 1e11 else { return nil }
        // The value in units of the fourth decimal: Redis rounds this product to the nearest of
        // these integers (`distance(meters:unit:)`). Every distance within the error, divided and
        // scaled with their roundings, lies within `margin` of `scaled`.
        let scaled = value * 10_000
        // Below 1e15 the integer part converts exactly: no call to a rounding function, and
        // through `Int64`, whose conversions are one instruction each way (`UInt64`'s are not).
        let whole = UInt64(Int64(scaled))
        let part = scaled - Double(Int64(whole))
        // The roundings of the division and of the product move the result by at most an ulp
        // of `value` (times 10,000) and two of `scaled`: each ulp is at most 2^-52 of its
        // (non-negative) number, so 2^-49 of `scaled` bounds them all, plus a floor for
        // subnormal values.
        let error = isMeters ? errorMeters : errorMeters / metersPerUnit
        let margin = error * 10_000 + scaled * 0x1p-49 + 0x1p-1000
        guard abs(part - 0.5) > margin else { return nil }
        let digits = whole + (part > 0.5 ? 1 : 0)
        guard digits < 100_000_000 else { return writeLongDistance(digits, to: out) }
        // Below 10,000 units, at most four digits before the point: all eight digits in one
        // word, first digit in its lowest byte (`FixedDecimal.eightDigits`), stored from the
        // first that counts.
        let length =
            5 + (digits >= 100_000 ? 1 : 0) + (digits >= 1_000_000 ? 1 : 0) + (digits >= 10_000_000 ? 1 : 0)
        let word = FixedDecimal.eightDigits(UInt32(truncatingIfNeeded: digits))
        let raw = UnsafeMutableRawPointer(out)
        let integer = UInt32(truncatingIfNeeded: word >> (UInt64(8 &- length) &* 8))
        raw.storeBytes(of: integer.littleEndian, as: UInt32.self)
        out[length &- 4] = UInt8(ascii: ".")
        let fraction = UInt32(truncatingIfNeeded: word >> 32)
        raw.storeBytes(of: fraction.littleEndian, toByteOffset: length &- 3, as: UInt32.self)
        return length &+ 1
    }

    /// Writes a distance of 10,000 units or more given in units of its fourth decimal (`digits`:
    /// 10^8 to 10^15, a distance below 10^11 units) to `out`, as `writeDistance` does, and returns
    /// the number of bytes written (at most 17).
    @usableFromInline
    static func writeLongDistance(_ digits: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let length = FixedDecimal.writeDecimal(digits / 10_000, to: out)
        out[length] = UInt8(ascii: ".")
        // The four decimals as two pairs, each pair's two digits apart: no chain of divisions.
        let fraction = digits % 10_000
        let high = fraction / 100
        let low = fraction % 100
        let zero = UInt8(ascii: "0")
        out[length + 1] = zero &+ UInt8(truncatingIfNeeded: high / 10)
        out[length + 2] = zero &+ UInt8(truncatingIfNeeded: high % 10)
        out[length + 3] = zero &+ UInt8(truncatingIfNeeded: low / 10)
        out[length + 4] = zero &+ UInt8(truncatingIfNeeded: low % 10)
        return length + 5
    }

    /// Writes `coordinate(_:)` of a finite value to `out` (room for
    /// `FixedDecimal.maximumSmallLength` bytes) and returns the number of bytes written; nil,
    /// writing nothing, for a value it does not print this way (use `coordinate(_:)`).
    public static func writeCoordinate(_ degrees: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        FixedDecimal.write(degrees, fractionDigits: 17, trimmingZeros: true, to: out)
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
