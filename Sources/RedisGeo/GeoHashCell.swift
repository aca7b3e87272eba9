/// A cell of Redis's geohash grid at some precision: `step` bits per axis, `2 * step` bits in `bits`.
///
/// GEO searches scan the members of nine such cells (see `RedisGeoSearch`); a cell's members are the
/// scores in `scoreRange`. Mirrors Redis 7.0 `GeoHashBits` and the functions of `src/geohash.c`.
public struct GeoHashCell: Sendable, Hashable, CustomStringConvertible {
    /// The interleaved hash, `2 * step` bits: latitude in the even positions, longitude in the odd.
    public var bits: UInt64
    /// Bits per axis, 1...32 (26 for a member's own cell).
    public var step: UInt8

    /// The edges of a cell, degrees.
    public struct Bounds: Sendable, Hashable {
        public var minimumLongitude: Double
        public var maximumLongitude: Double
        public var minimumLatitude: Double
        public var maximumLatitude: Double
    }

    public init(bits: UInt64, step: UInt8) {
        self.bits = bits
        self.step = step
    }

    /// The cell that holds a position (Redis `geohashEncode` over the Redis ranges).
    ///
    /// - Parameters:
    ///   - longitude: degrees, -180...180.
    ///   - latitude: degrees, -85.05112878...85.05112878.
    ///   - step: bits per axis, 1...32.
    /// - Returns: nil where Redis's encoder fails: outside the ranges, NaN, or a step outside 1...32.
    public init?(longitude: Double, latitude: Double, step: UInt8) {
        self.init(
            longitude: longitude, latitude: latitude, step: step,
            longitudeRange: GeoHash.longitudeRange, latitudeRange: GeoHash.latitudeRange)
    }

    /// Redis `geohashEncode` over any ranges. The Redis limits are checked whatever the ranges.
    init?(longitude: Double, latitude: Double, step: UInt8, longitudeRange: AxisRange, latitudeRange: AxisRange) {
        guard (1...32).contains(step), GeoHash.isEncodable(longitude: longitude, latitude: latitude),
            latitude >= latitudeRange.minimum, latitude <= latitudeRange.maximum,
            longitude >= longitudeRange.minimum, longitude <= longitudeRange.maximum
        else { return nil }
        let cells = Double(UInt64(1) << step)
        let latitudeOffset =
            (latitude - latitudeRange.minimum) / (latitudeRange.maximum - latitudeRange.minimum) * cells
        let longitudeOffset =
            (longitude - longitudeRange.minimum) / (longitudeRange.maximum - longitudeRange.minimum) * cells
        // C converts the offsets with a truncating `(uint32_t)` cast; an offset of exactly 2^step (a
        // point on the upper edge) is kept and carries into the next bit pair, as in Redis.
        bits = GeoHash.interleave(even: UInt32(latitudeOffset), odd: UInt32(longitudeOffset))
        self.step = step
    }

    /// Redis's empty cell (`GZERO`): a pruned neighbour that searches skip.
    var isEmpty: Bool { bits == 0 && step == 0 }

    /// The cell's edges over the Redis ranges (Redis `geohashDecode`), degrees. Bits above `2 * step`
    /// are not masked: they push the edges past the ranges, as in Redis.
    public var bounds: Bounds {
        let (latitudeIndex, longitudeIndex) = GeoHash.deinterleave(bits)
        return Self.bounds(latitudeIndex: latitudeIndex, longitudeIndex: longitudeIndex, step: step)
    }

    /// The edges of the cell at these indices on each axis (Redis `geohashDecode` after its
    /// deinterleave), degrees.
    @inline(__always)
    static func bounds(latitudeIndex: UInt32, longitudeIndex: UInt32, step: UInt8) -> Bounds {
        let cells = Double(UInt64(1) << step)
        let latitudeScale = GeoHash.latitudeLimit - -GeoHash.latitudeLimit
        let longitudeScale = GeoHash.longitudeLimit - -GeoHash.longitudeLimit
        let longitudeMinimum = -GeoHash.longitudeLimit
        let latitudeMinimum = -GeoHash.latitudeLimit
        // `ilato + 1` is 32-bit arithmetic in C and wraps for an all-ones index.
        return Bounds(
            minimumLongitude: longitudeMinimum + (Double(longitudeIndex) / cells) * longitudeScale,
            maximumLongitude: longitudeMinimum + (Double(longitudeIndex &+ 1) / cells) * longitudeScale,
            minimumLatitude: latitudeMinimum + (Double(latitudeIndex) / cells) * latitudeScale,
            maximumLatitude: latitudeMinimum + (Double(latitudeIndex &+ 1) / cells) * latitudeScale
        )
    }

    /// The sorted-set scores of the cell's members: `lowerBound` included, `upperBound` excluded
    /// (Redis `scoresOfGeoHashBox`, the hash and its successor shifted to 52 bits). A tuple rather
    /// than a `Range` because a malformed cell may give `upperBound <= lowerBound`: then it has no
    /// members, as in Redis.
    public var scoreRange: (lowerBound: UInt64, upperBound: UInt64) {
        let shift = 52 - 2 * Int(step)
        return (bits << shift, (bits &+ 1) << shift)
    }

    /// The cell one step east (`+1`) or west (`-1`); wraps around at ±180 (Redis `geohash_move_x`).
    func movedEastWest(_ direction: Int) -> GeoHashCell {
        moved(direction, axisMask: 0xAAAA_AAAA_AAAA_AAAA)
    }

    /// The cell one step north (`+1`) or south (`-1`); wraps from the top row to the bottom row
    /// (Redis `geohash_move_y`).
    func movedNorthSouth(_ direction: Int) -> GeoHashCell {
        moved(direction, axisMask: 0x5555_5555_5555_5555)
    }

    /// Adds or subtracts one on the axis whose bits `axisMask` selects, letting the carry ripple
    /// through the other axis's positions by filling them with ones first.
    private func moved(_ direction: Int, axisMask: UInt64) -> GeoHashCell {
        guard direction != 0 else { return self }
        let otherMask = ~axisMask
        let shift = 64 - 2 * Int(step)
        var axis = bits & axisMask
        let other = bits & otherMask
        let filler = otherMask >> shift
        if direction > 0 {
            axis = axis &+ (filler &+ 1)
        } else {
            axis = (axis | filler) &- (filler &+ 1)
        }
        axis &= axisMask >> shift
        return GeoHashCell(bits: axis | other, step: step)
    }

    public var description: String { "GeoHashCell(bits: \(bits), step: \(step))" }
}
