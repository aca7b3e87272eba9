import Foundation
import Geo
import Testing

@testable import RedisGeo

@Suite struct GeoHashTests {
    /// Palermo from the Redis GEOADD documentation: ZSCORE 3479099956230698, GEOPOS
    /// 13.36138933897018433 38.11555639549629859, GEOHASH sqc8b49rny0.
    @Test func palermoAsInTheRedisDocumentation() throws {
        let score = try GeoHash.encode(longitude: 13.361389, latitude: 38.115556)
        #expect(score == 3_479_099_956_230_698)
        let centre = GeoHash.decode(score)
        #expect(RedisGeoText.coordinate(centre.longitude) == "13.36138933897018433")
        #expect(RedisGeoText.coordinate(centre.latitude) == "38.11555639549629859")
        #expect(GeoHash.string(score: score) == "sqc8b49rny0")
    }

    @Test(arguments: [(180.000_000_1, 0.0), (-180.000_000_1, 0.0), (0.0, 85.051_128_79), (0.0, -90.0), (.nan, 0.0)])
    func rejectsPositionsOutsideTheRedisLimits(longitude: Double, latitude: Double) {
        #expect(throws: RedisGeoError.self) { try GeoHash.encode(longitude: longitude, latitude: latitude) }
    }

    /// Regression: the upper edges carry into bits 52 and 53 in Redis (offset 2^26 on the axis), and
    /// decoding clamps the result back to the limits.
    @Test func upperEdgesCarryPastFiftyTwoBits() throws {
        let corner = try GeoHash.encode(longitude: 180, latitude: GeoHash.latitudeLimit)
        #expect(corner == 3 << 52)
        let centre = GeoHash.decode(corner)
        #expect(centre.longitude == 180)
        #expect(centre.latitude == GeoHash.latitudeLimit)
        #expect(RedisGeoText.coordinate(centre.latitude) == "85.0511287799999991")
        #expect(try GeoHash.encode(longitude: -180, latitude: -GeoHash.latitudeLimit) == 0)
    }

    /// `scoreAndCentre` is `encode` then `decode(score:)` to the bit: random positions, the
    /// edges (whose scores carry past 52 bits) and positions outside the limits.
    @Test func scoreAndCentreIsEncodeThenDecode() throws {
        var random = SplitMix64(seed: 20)
        let limit = GeoHash.latitudeLimit
        var positions: [(Double, Double)] = [
            (180, limit), (180, 0), (0, limit), (-180, -limit), (180, -limit), (-180, limit), (0, 0),
            (179.999_999_99, 85.051_128_77), (180.000_000_1, 0), (0, -90), (.nan, 0), (0, .infinity),
        ]
        for _ in 0..<20_000 {
            positions.append((random.nextUnit() * 360 - 180, random.nextUnit() * 2 * limit - limit))
        }
        for (longitude, latitude) in positions {
            try Self.expectScoreAndCentreAgree(longitude: longitude, latitude: latitude)
        }
        Self.expectBatchAgrees(positions)
    }

    /// Expects `scoresAndCentres` (the vectorised batch) to give `scoreAndCentre`'s score and
    /// centre for each position, bit for bit, and a NaN score where it answers nil; in batches
    /// of every length from 0 to 64 too (`prefixes`), so that every remainder of the vector loop
    /// is met; on every vector unit this processor has.
    static func expectBatchAgrees(_ positions: [(Double, Double)], prefixes: Bool = true) {
        let points = positions.map { (longitude: $0.0, latitude: $0.1) }
        var batches = [points[...]]
        for length in 0...64 where prefixes && length <= points.count { batches.append(points[..<length]) }
        for level in 0...VectorKernels.bestLevel { expectBatchAgrees(batches, level: level) }
    }

    /// The unit a server's kernels run on is one this processor has: AVX2 instead of AVX-512 on
    /// Intel, else the widest.
    @Test func preferredVectorUnitIsOneThisProcessorHas() {
        let best = VectorKernels.bestLevel
        #expect((0...best).contains(VectorKernels.preferredLevel))
        if best < 2 { #expect(VectorKernels.preferredLevel == best) }
        if best == 2 { #expect(VectorKernels.preferredLevel >= 1) }
    }

    /// `expectBatchAgrees` for each batch, on one vector unit.
    private static func expectBatchAgrees(
        _ batches: [ArraySlice<(longitude: Double, latitude: Double)>], level: Int
    ) {
        for batch in batches {
            let batch = Array(batch)
            var scores = [Double](repeating: 0, count: batch.count)
            var centres = [(longitude: Double, latitude: Double)](repeating: (0, 0), count: batch.count)
            let missing = batch.withUnsafeBufferPointer { batch in
                scores.withUnsafeMutableBufferPointer { scores in
                    centres.withUnsafeMutableBufferPointer { centres in
                        GeoHash.scoresAndCentres(
                            batch, scores: scores.baseAddress!, centres: centres.baseAddress!, level: level)
                    }
                }
            }
            var refused = 0
            for (index, point) in batch.enumerated() {
                guard let one = GeoHash.scoreAndCentre(longitude: point.longitude, latitude: point.latitude) else {
                    #expect(scores[index].isNaN, "\(point)")
                    refused += 1
                    continue
                }
                #expect(scores[index].bitPattern == one.score.bitPattern, "\(point)")
                #expect(centres[index].longitude.bitPattern == one.longitude.bitPattern, "\(point)")
                #expect(centres[index].latitude.bitPattern == one.latitude.bitPattern, "\(point)")
            }
            #expect(missing == refused)
        }
    }

    /// Expects `scoreAndCentre` to give `encode`'s score and `decode`'s centre, bit for bit, or nil
    /// where `encode` refuses the position; answers whether the position was encodable.
    @discardableResult
    static func expectScoreAndCentreAgree(longitude: Double, latitude: Double) throws -> Bool {
        let fused = GeoHash.scoreAndCentre(longitude: longitude, latitude: latitude)
        guard let bits = try? GeoHash.encode(longitude: longitude, latitude: latitude) else {
            #expect(fused == nil)
            return false
        }
        let score = Double(bits)
        let centre = GeoHash.decode(score: score)
        let found = try #require(fused)
        #expect(found.score.bitPattern == score.bitPattern)
        #expect(found.longitude.bitPattern == centre.longitude.bitPattern)
        #expect(found.latitude.bitPattern == centre.latitude.bitPattern)
        return true
    }

    /// `scoreAndCentre` multiplies where `encode` divides: positions on and around cell edges
    /// (a few ulps either side of 5,000 random edges on each axis), where the two
    /// offsets may truncate differently, still give `encode`'s score and `decode`'s centre.
    @Test func scoreAndCentreMatchesOnCellEdges() throws {
        var random = SplitMix64(seed: 21)
        let limit = GeoHash.latitudeLimit
        let cells = Double(UInt64(1) << GeoHash.maximumStep)
        func nudged(_ value: Double) -> [Double] {
            var values = [value]
            var up = value
            var down = value
            for _ in 0..<4 {
                up = up.nextUp
                down = down.nextDown
                values += [up, down]
            }
            return values
        }
        var checked = 0
        var disagreements = 0
        for _ in 0..<5_000 {
            let edge = Double(random.next() % (UInt64(1) << GeoHash.maximumStep))
            let longitudes = nudged(edge / cells * 360 - 180) + nudged(-180 + edge * (360 / cells))
            let latitudes = nudged(edge / cells * (2 * limit) - limit)
            let otherLongitude = random.nextUnit() * 360 - 180
            let otherLatitude = random.nextUnit() * 2 * limit - limit
            // One axis on its upper or lower edge, the other in a cell's inside.
            let edges = [
                (180, otherLatitude), (-180, otherLatitude), (otherLongitude, limit), (otherLongitude, -limit),
            ]
            let positions =
                longitudes.map { ($0, otherLatitude) } + latitudes.map { (otherLongitude, $0) }
                + zip(longitudes, latitudes).map { ($0, $1) } + edges
            Self.expectBatchAgrees(positions, prefixes: false)
            for (longitude, latitude) in positions {
                // Where a plain multiplication would put the longitude in another cell than the
                // division does: the cases the fallback is there for.
                let offset = longitude + 180
                if offset >= 0, offset < 360, UInt32(offset * (cells / 360)) != UInt32(offset / 360 * cells) {
                    disagreements += 1
                }
                if try Self.expectScoreAndCentreAgree(longitude: longitude, latitude: latitude) { checked += 1 }
            }
        }
        #expect(checked > 150_000)
        #expect(disagreements > 0)
    }

    @Test func interleavingRoundTrips() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let even = UInt32(truncatingIfNeeded: random.next())
            let odd = UInt32(truncatingIfNeeded: random.next())
            let bits = GeoHash.interleave(even: even, odd: odd)
            #expect(GeoHash.deinterleave(bits) == (even, odd))
        }
        #expect(GeoHash.interleave(even: 1, odd: 0) == 1)
        #expect(GeoHash.interleave(even: 0, odd: 1) == 2)
    }

    /// C's `(uint64_t)` cast of a double on x86-64, as recorded from Redis with ZADD scores.
    @Test func scoreConversionFollowsTheX86Cast() {
        #expect(GeoHash.bits(ofScore: 3.0) == 3)
        #expect(GeoHash.bits(ofScore: -0.9) == 0)
        #expect(GeoHash.bits(ofScore: -5) == UInt64(bitPattern: -5))
        #expect(GeoHash.bits(ofScore: 1e20) == 0)
        #expect(GeoHash.bits(ofScore: .infinity) == 0)
        #expect(GeoHash.bits(ofScore: -.infinity) == 1 << 63)
        #expect(GeoHash.bits(ofScore: .nan) == 1 << 63)
    }

    @Test func neighboursWrapAroundTheAntimeridianAndThePoles() throws {
        let east = try #require(GeoHashCell(longitude: 179.9, latitude: 0, step: 4))
        let wrapped = east.movedEastWest(1).bounds
        #expect(wrapped.minimumLongitude == -180)
        let north = try #require(GeoHashCell(longitude: 0, latitude: 85, step: 4))
        #expect(north.movedNorthSouth(1).bounds.minimumLatitude == -GeoHash.latitudeLimit)
        let cell = try #require(GeoHashCell(longitude: 10, latitude: 10, step: 10))
        #expect(cell.movedEastWest(1).movedEastWest(-1) == cell)
        #expect(cell.movedNorthSouth(-1).movedNorthSouth(1) == cell)
        let bounds = cell.bounds
        #expect(cell.movedEastWest(1).bounds.minimumLongitude == bounds.maximumLongitude)
        #expect(cell.movedNorthSouth(1).bounds.minimumLatitude == bounds.maximumLatitude)
    }

    @Test func cellScoreRangeHoldsItsMembers() throws {
        let score = try GeoHash.encode(longitude: 2.35, latitude: 48.85)
        for step in UInt8(1)...26 {
            let cell = try #require(GeoHashCell(longitude: 2.35, latitude: 48.85, step: step))
            let range = cell.scoreRange
            #expect(range.lowerBound <= score && score < range.upperBound)
        }
    }

    // MARK: - Against redis-server 7.0.15

    @Test func pointsMatchRedis() throws {
        let reference = try #require(RedisGeoReference.shared)
        #expect(reference.redis_version == "7.0.15")
        #expect(reference.points.count >= 2000)
        var differences: [String] = []
        for point in reference.points {
            let longitude = try #require(Double(point.longitude))
            let latitude = try #require(Double(point.latitude))
            let score = Double(try GeoHash.encode(longitude: longitude, latitude: latitude))
            let centre = GeoHash.decode(score: score)
            let zscore = RESP.bulk(String(UInt64(score)))
            let geopos =
                RESP.array(1) + RESP.array(2) + RESP.bulk(RedisGeoText.coordinate(centre.longitude))
                + RESP.bulk(RedisGeoText.coordinate(centre.latitude))
            let geohash = RESP.array(1) + RESP.bulk(GeoHash.string(score: score))
            for (name, mine, redis) in [
                ("ZSCORE", zscore, point.zscore), ("GEOPOS", geopos, point.geopos), ("GEOHASH", geohash, point.geohash),
            ] where mine != redis {
                differences.append(
                    "\(name) \(point.longitude),\(point.latitude): \(mine.debugDescription) != \(redis.debugDescription)"
                )
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(5))")
    }

    @Test func scoresWrittenByZAddDecodeAsInRedis() throws {
        let reference = try #require(RedisGeoReference.shared)
        for entry in reference.zadd {
            let score = try #require(Double(entry.score))
            let centre = GeoHash.decode(score: score)
            let geopos =
                RESP.array(1) + RESP.array(2) + RESP.bulk(RedisGeoText.coordinate(centre.longitude))
                + RESP.bulk(RedisGeoText.coordinate(centre.latitude))
            #expect(geopos == entry.geopos, "score \(entry.score)")
            #expect(RESP.array(1) + RESP.bulk(GeoHash.string(score: score)) == entry.geohash, "score \(entry.score)")
        }
    }

    @Test func invalidPairsFailWithRedisText() throws {
        let reference = try #require(RedisGeoReference.shared)
        for entry in reference.invalid {
            let longitude = try #require(Double(entry.longitude))
            let latitude = try #require(Double(entry.latitude))
            #expect(throws: RedisGeoError.outsideRange(longitude: longitude, latitude: latitude)) {
                try GeoHash.encode(longitude: longitude, latitude: latitude)
            }
            #expect(RESP.error(RedisGeoMessage.invalidPair(longitude: longitude, latitude: latitude)) == entry.reply)
        }
    }
}
