import CDistanceKernels

/// Redis's geohash: longitude and latitude interleaved into one 52-bit integer, the score of a member
/// of a Redis GEO sorted set.
///
/// Redis splits each axis into 2^26 equal steps (`GEO_STEP_MAX 26 /* 26*2 = 52 bits */`), over
/// longitude -180...180 and latitude -85.05112878...85.05112878 (the Web Mercator limit of
/// EPSG:900913, Redis `geohash.h`). Latitude bits take the even positions, longitude bits the odd
/// ones. A cell is about 0.6 m wide at the equator; decoding returns the cell's centre, so a position
/// round-trips to within about 0.3 m east-west and 0.15 m north-south.
///
/// Everything here reproduces Redis 7.0 (`src/geohash.c`, `src/geo.c`) to the bit, including its
/// quirks: longitude 180 and latitude 85.05112878 produce 2^26 on their axis, a carry into bits 52
/// and 53 that a `Double` score cannot always hold (see `encode(longitude:latitude:)`).
///
/// ```swift
/// let score = try GeoHash.encode(longitude: 13.361389, latitude: 38.115556)  // 3479099956230698
/// let centre = GeoHash.decode(score)
/// RedisGeoText.coordinate(centre.longitude)  // "13.36138933897018433", as GEOPOS prints it
/// GeoHash.string(score: score)  // "sqc8b49rny0"
/// ```
public enum GeoHash {
    /// Bits per axis of a full hash: 26, so 52 bits in all (Redis `GEO_STEP_MAX`).
    public static let maximumStep: UInt8 = 26
    /// Largest latitude Redis can index, degrees (Redis `GEO_LAT_MAX`, from EPSG:900913).
    public static let latitudeLimit = 85.051_128_78
    /// Largest longitude, degrees (Redis `GEO_LONG_MAX`).
    public static let longitudeLimit = 180.0

    /// The longitude range Redis hashes over, degrees.
    static let longitudeRange = AxisRange(minimum: -longitudeLimit, maximum: longitudeLimit)
    /// The latitude range Redis hashes over, degrees.
    static let latitudeRange = AxisRange(minimum: -latitudeLimit, maximum: latitudeLimit)
    /// The latitude range of the standard geohash (geohash.org), used only for `string(score:)`.
    static let standardLatitudeRange = AxisRange(minimum: -90, maximum: 90)

    /// Whether Redis accepts the pair in GEOADD or FROMLONLAT: longitude in -180...180 and latitude in
    /// -85.05112878...85.05112878, bounds included. NaN is rejected here; Redis rejects it earlier,
    /// when it parses the number.
    public static func isEncodable(longitude: Double, latitude: Double) -> Bool {
        abs(longitude) <= longitudeLimit && abs(latitude) <= latitudeLimit
    }

    /// The 52-bit score GEOADD stores for a position.
    ///
    /// - Parameters:
    ///   - longitude: degrees east, -180...180.
    ///   - latitude: degrees north, -85.05112878...85.05112878.
    /// - Returns: the interleaved hash, below 2^52 except on the edges: longitude 180 sets bit 53 and
    ///   latitude 85.05112878 sets bit 52 (Redis does the same). Redis stores the score as a `Double`,
    ///   so such a value is rounded to 53 significant bits: use `Double(score)` for the stored score.
    /// - Throws: `RedisGeoError.outsideRange` outside the ranges above or for NaN; Redis's reply
    ///   text for the case is `RedisGeoMessage.invalidPair(longitude:latitude:)`.
    public static func encode(longitude: Double, latitude: Double) throws(RedisGeoError) -> UInt64 {
        guard let cell = GeoHashCell(longitude: longitude, latitude: latitude, step: maximumStep) else {
            throw .outsideRange(longitude: longitude, latitude: latitude)
        }
        return cell.bits
    }

    /// The position GEOPOS reports for a score: the centre of its 52-bit cell, clamped to the Redis
    /// ranges (Redis `geohashDecodeToLongLatWGS84`). Any 64-bit value decodes; bits above 52 only
    /// ever come from the edge cases of `encode(longitude:latitude:)` and end up clamped.
    ///
    /// - Parameter score: the hash, as stored.
    /// - Returns: degrees, longitude in -180...180 and latitude in -85.05112878...85.05112878.
    public static func decode(_ score: UInt64) -> (longitude: Double, latitude: Double) {
        centre(of: GeoHashCell(bits: score, step: maximumStep).bounds)
    }

    /// The centre of a member's cell, clamped to the Redis ranges (the end of `decode(_:)`).
    @inline(__always)
    static func centre(of bounds: GeoHashCell.Bounds) -> (longitude: Double, latitude: Double) {
        let longitude = (bounds.minimumLongitude + bounds.maximumLongitude) / 2
        let latitude = (bounds.minimumLatitude + bounds.maximumLatitude) / 2
        return (
            min(max(longitude, -longitudeLimit), longitudeLimit),
            min(max(latitude, -latitudeLimit), latitudeLimit)
        )
    }

    /// The position of a sorted-set score, as Redis decodes it: the `Double` is first converted to an
    /// integer the way C's `(uint64_t)` cast does on x86-64, which only matters for scores that
    /// GEOADD cannot produce (negative, fractional or infinite ones written by ZADD).
    public static func decode(score: Double) -> (longitude: Double, latitude: Double) {
        decode(bits(ofScore: score))
    }

    /// The integer C's `(uint64_t)score` yields on x86-64 (gcc's `cvttsd2si` sequence): truncation
    /// toward zero for 0..<2^64, two's complement for negative values down to -2^63, and
    /// 0x8000000000000000 for NaN and for values that do not fit.
    public static func bits(ofScore score: Double) -> UInt64 {
        let twoTo63 = 9_223_372_036_854_775_808.0
        if !(score >= twoTo63) {
            guard score > -twoTo63 - 1, score.isFinite else { return 1 << 63 }
            return UInt64(bitPattern: Int64(score))
        }
        let reduced = score - twoTo63
        guard reduced < twoTo63 else { return 0 }
        return UInt64(bitPattern: Int64(reduced)) ^ (1 << 63)
    }

    /// The 11-character base-32 string GEOHASH returns for a score.
    ///
    /// Redis decodes the score to the cell centre, re-encodes it over the standard latitude range
    /// -90...90, prints the top 50 bits as ten characters of the alphabet
    /// `0123456789bcdefghjkmnpqrstuvwxyz` and appends "0" for the missing 55th bit. Bit 53 of a
    /// longitude of exactly 180 is dropped, so such a point prints as if at -180.
    public static func string(score: UInt64) -> String {
        let centre = decode(score)
        let bits =
            GeoHashCell(
                longitude: centre.longitude, latitude: centre.latitude, step: maximumStep,
                longitudeRange: longitudeRange, latitudeRange: standardLatitudeRange)?.bits ?? 0
        let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)
        var characters: [UInt8] = (0..<10).map { index in alphabet[Int((bits >> (52 - (index + 1) * 5)) & 0x1f)] }
        characters.append(UInt8(ascii: "0"))
        return String(decoding: characters, as: UTF8.self)
    }

    /// The GEOHASH string of a sorted-set score as Redis stores it (a `Double`), converted to an
    /// integer as `decode(score:)` does.
    public static func string(score: Double) -> String {
        string(score: bits(ofScore: score))
    }

    /// Interleaves two 32-bit values: `even` into the even bit positions, `odd` into the odd ones.
    @inline(__always)
    static func interleave(even: UInt32, odd: UInt32) -> UInt64 {
        spread(UInt64(even)) | (spread(UInt64(odd)) << 1)
    }

    /// The values in the even and in the odd bit positions of `bits`.
    static func deinterleave(_ bits: UInt64) -> (even: UInt32, odd: UInt32) {
        (compact(bits), compact(bits >> 1))
    }

    /// Moves bit i of a 32-bit value to bit 2i.
    @inline(__always)
    private static func spread(_ value: UInt64) -> UInt64 {
        var x = value & 0xFFFF_FFFF
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333_3333_3333
        x = (x | (x << 1)) & 0x5555_5555_5555_5555
        return x
    }

    /// Moves bit 2i of a value to bit i, dropping the odd bits.
    private static func compact(_ value: UInt64) -> UInt32 {
        var x = value & 0x5555_5555_5555_5555
        x = (x | (x >> 1)) & 0x3333_3333_3333_3333
        x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF
        x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF
        return UInt32(x)
    }
}

/// One axis of a hash grid: the closed interval of degrees its 2^step cells divide.
struct AxisRange: Sendable, Hashable {
    var minimum: Double
    var maximum: Double
}

extension GeoHash {
    /// The score GEOADD stores for a position and the position GEOPOS reports for it, at once:
    /// `Double(encode(longitude:latitude:))` and `decode(score:)` of that score, to the bit,
    /// without interleaving bits only to take them apart again. For a search's candidates.
    ///
    /// The cell indices come from one multiplication per axis by the cells per degree instead of
    /// `encode`'s division by the axis's span: the two offsets are less than 2^-25 cells apart
    /// (see `cellMargin`), so wherever the multiplied offset lies farther than `cellMargin` from
    /// a whole number both truncate to the same index; nearer (about one position in 250,000),
    /// and on the upper edges, `encode`'s own arithmetic decides.
    ///
    /// - Parameters:
    ///   - longitude: degrees east, -180...180.
    ///   - latitude: degrees north, -85.05112878...85.05112878.
    /// - Returns: nil where `encode(longitude:latitude:)` throws (outside the ranges, NaN).
    @inline(__always)
    public static func scoreAndCentre(longitude: Double, latitude: Double)
        -> (score: Double, longitude: Double, latitude: Double)?
    {
        guard isEncodable(longitude: longitude, latitude: latitude) else { return nil }
        // Both at least 0 (the position is encodable) and at most 2^26 plus rounding.
        let latitudeOffset = (latitude - -latitudeLimit) * latitudeCellsPerDegree
        let longitudeOffset = (longitude - -longitudeLimit) * longitudeCellsPerDegree
        let latitudeIndex = UInt32(latitudeOffset)
        let longitudeIndex = UInt32(longitudeOffset)
        let latitudePart = latitudeOffset - Double(latitudeIndex)
        let longitudePart = longitudeOffset - Double(longitudeIndex)
        let maximumIndex = UInt32(1) << maximumStep
        guard latitudePart > cellMargin, latitudePart < 1 - cellMargin, longitudePart > cellMargin,
            longitudePart < 1 - cellMargin, latitudeIndex < maximumIndex, longitudeIndex < maximumIndex
        else { return exactScoreAndCentre(longitude: longitude, latitude: latitude) }
        // Below 2^52 the score is exact, and converts through `Int64` in one instruction.
        let bits = interleave(even: latitudeIndex, odd: longitudeIndex)
        let score = Double(Int64(bitPattern: bits))
        // The score deinterleaves to these indices: `decode(score:)`.
        let centre = centre(
            of: GeoHashCell.bounds(latitudeIndex: latitudeIndex, longitudeIndex: longitudeIndex, step: maximumStep))
        return (score, centre.longitude, centre.latitude)
    }

    /// `scoreAndCentre` of each of `positions`, written position for position to `scores` and
    /// `centres` (room for as many): the same values to the bit; a NaN score (and an undefined
    /// centre) where `scoreAndCentre` answers nil. Returns how many scores are NaN.
    ///
    /// The positions are coded in one loop compiled for the processor's vector unit
    /// (`vicinity_scores_and_centres`), several in each instruction; the few near a cell's edge
    /// are then finished one by one with `exactScoreAndCentre`. `level` chooses the vector unit
    /// (`VectorKernels`; -1, the default: `VectorKernels.preferredLevel`), for tests.
    public static func scoresAndCentres(
        _ positions: UnsafeBufferPointer<(longitude: Double, latitude: Double)>, scores: UnsafeMutablePointer<Double>,
        centres: UnsafeMutablePointer<(longitude: Double, latitude: Double)>, level: Int = -1
    ) -> Int {
        guard let base = UnsafeRawPointer(positions.baseAddress), !positions.isEmpty else { return 0 }
        var grid = vicinity_geohash_grid(
            longitudeLimit: longitudeLimit, latitudeLimit: latitudeLimit, cells: cellsPerAxis,
            inverseCells: 1 / cellsPerAxis, longitudeCellsPerDegree: longitudeCellsPerDegree,
            latitudeCellsPerDegree: latitudeCellsPerDegree, cellMargin: cellMargin)
        // A tuple of two `Double`s is laid out as two consecutive `Double`s.
        let unfinished = withUnsafePointer(to: &grid) { grid in
            vicinity_scores_and_centres(
                Int32(level), grid, base.assumingMemoryBound(to: Double.self), positions.count, scores,
                UnsafeMutableRawPointer(centres).assumingMemoryBound(to: Double.self))
        }
        guard unfinished > 0 else { return 0 }
        var missing = 0
        for index in positions.indices where scores[index].isNaN {
            let position = positions[index]
            if let exact = exactScoreAndCentre(longitude: position.longitude, latitude: position.latitude) {
                scores[index] = exact.score
                centres[index] = (exact.longitude, exact.latitude)
            } else {
                missing += 1
            }
        }
        return missing
    }

    /// Cells per axis at `maximumStep` (2^26).
    @inline(__always) static var cellsPerAxis: Double { Double(UInt64(1) << maximumStep) }

    /// Cells per degree of latitude and of longitude, each rounded once: what `scoreAndCentre`
    /// and its batch (`scoresAndCentres`, through the C kernel) multiply offsets by (constants
    /// folded when compiled).
    @inline(__always) static var latitudeCellsPerDegree: Double { cellsPerAxis / (latitudeLimit - -latitudeLimit) }
    @inline(__always) static var longitudeCellsPerDegree: Double {
        cellsPerAxis / (longitudeLimit - -longitudeLimit)
    }

    /// How near a whole number of cells `scoreAndCentre`'s offsets may come before `encode`'s
    /// division decides the index: 2^-20 cells. For the same a = fl(position − minimum) ≤ span s,
    /// `encode` computes 2^26 × fl(a / s), within u (u = 2^-53) relative of r = a × 2^26 / s ≤
    /// 2^26, and `scoreAndCentre` fl(a × fl(2^26 / s)), within 2u + u² of it; so they are less
    /// than 4u × 2^26 = 2^-25 cells apart, 32 times below this margin.
    static let cellMargin = 0x1p-20

    /// `scoreAndCentre` by `encode`'s arithmetic, operation for operation: for the offsets within
    /// `cellMargin` of a cell edge, and the upper edges.
    static func exactScoreAndCentre(longitude: Double, latitude: Double)
        -> (score: Double, longitude: Double, latitude: Double)?
    {
        guard isEncodable(longitude: longitude, latitude: latitude) else { return nil }
        // `GeoHashCell(longitude:latitude:step:)`'s arithmetic, operation for operation.
        let cells = Double(UInt64(1) << maximumStep)
        let latitudeOffset = (latitude - -latitudeLimit) / (latitudeLimit - -latitudeLimit) * cells
        let longitudeOffset = (longitude - -longitudeLimit) / (longitudeLimit - -longitudeLimit) * cells
        let latitudeIndex = UInt32(latitudeOffset)
        let longitudeIndex = UInt32(longitudeOffset)
        let score = Double(interleave(even: latitudeIndex, odd: longitudeIndex))
        let maximumIndex = UInt32(1) << maximumStep
        guard latitudeIndex < maximumIndex, longitudeIndex < maximumIndex else {
            // An upper edge carries past 52 bits, and the stored score may be rounded: decode it as
            // stored.
            let centre = decode(score: score)
            return (score, centre.longitude, centre.latitude)
        }
        // Below 2^52 the score is exact and deinterleaves to these indices: `decode(score:)`.
        let centre = centre(
            of: GeoHashCell.bounds(latitudeIndex: latitudeIndex, longitudeIndex: longitudeIndex, step: maximumStep))
        return (score, centre.longitude, centre.latitude)
    }
}
