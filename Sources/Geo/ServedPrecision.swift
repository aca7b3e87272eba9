/// How precisely answers serve distances, coordinates and bearings, and the rounding that gets them
/// there: one place for the contract openapi.yaml states (`PlaceHit`, `DistanceResult`).
///
/// - Distances: meters to 3 decimals (1 mm). The model's own value (exact geodesic, haversine or
///   projected, see `DistanceModel`) rounded; the index finds it within a micrometre.
/// - Coordinates of hits: degrees to 7 decimals (1e-7° is at most 1.1 cm on the ground).
/// - Bearings: degrees to 2 decimals (0.01°), in [0, 360): a bearing that rounds to 360 is 0. The
///   bearing computed (`BearingFrame`) is within 0.005° — half a step — of GeographicLib's
///   azimuth for every pair of points (`ServedBearingTests`), so the digits served are the
///   geodesic's own but for a tie. A place served at distance 0 (under half a millimetre away)
///   has bearing 0: below that the direction is the coordinates' last bits.
///
/// Rounding is `RoundedDecimal`'s: the binary value to the nearest step, an exact tie to even, as
/// C's `printf("%.3f")`. The value kept is the `Double` nearest to the rounded decimal, so every
/// encoder prints the same digits with trailing zeros trimmed (`131.876`, `2.5`, `0`), and a
/// hand-written writer (`RoundedDecimal.write`) prints them without searching for the shortest form.
public enum ServedPrecision {
    /// Decimals of a distance in meters.
    @inlinable public static var distanceDecimals: Int { 3 }
    /// Decimals of a latitude or longitude in degrees.
    @inlinable public static var coordinateDecimals: Int { 7 }
    /// Decimals of a bearing in degrees.
    @inlinable public static var bearingDecimals: Int { 2 }

    /// `meters` as served (unchanged if not finite).
    @inlinable @inline(__always)
    public static func distance(_ meters: Double) -> Double { rounded(meters, decimals: distanceDecimals) }

    /// `degrees` of latitude or longitude as served (unchanged if not finite).
    @inlinable @inline(__always)
    public static func degrees(_ degrees: Double) -> Double { rounded(degrees, decimals: coordinateDecimals) }

    /// A coordinate as served: both degrees rounded; the rounding keeps them in range.
    @inline(__always)
    public static func coordinate(_ coordinate: Coordinate) -> Coordinate {
        Coordinate(unchecked: degrees(coordinate.latitude), degrees(coordinate.longitude))
    }

    /// A bearing in degrees, [0, 360), as served: 359.996° is 0°, not 360°.
    @inlinable @inline(__always)
    public static func bearing(_ degrees: Double) -> Double {
        let value = rounded(degrees, decimals: bearingDecimals)
        return value >= 360 ? 0 : value
    }

    /// `value` rounded to `decimals` as the `Double` nearest to the decimal; +0 for any zero.
    @inlinable @inline(__always)
    public static func rounded(_ value: Double, decimals: Int) -> Double {
        RoundedDecimal(value, decimals: decimals)?.doubleValue ?? value
    }
}
