import Foundation
import Geo
import Testing

@testable import RedisGeo

/// The radius search's choice of candidates (`RedisGeoSearch.collectInRadius`, the
/// `vicinity_collect_in_radius` kernel) against the same choice made one candidate at a time.
@Suite struct RedisGeoCollectTests {
    /// On every vector unit this processor has, over blocks of candidates and their edges (0, 1,
    /// 255, 256, 257 and more), candidates outside every scanned cell, beyond the series' reach
    /// (NaN estimates) and on the radius itself: the hits kept on the estimate, in candidate order,
    /// then those decided exactly, each with its cell, exactly as one-by-one decisions give them.
    @Test func keptCandidatesEqualOneByOneDecisions() throws {
        var random = SplitMix64(seed: 20_261_128)
        let bound = RedisGeo.DistanceFrom.estimateRelativeError
        var kept = 0
        var exact = 0
        var outside = 0
        var unestimated = 0
        for round in 0..<600 {
            let centre = RedisGeoEstimateTests.centre(&random)
            var radius = [50.0, 500, 5_000, 300_000][Int(random.next() % 4)]
            let sizes = [0, 1, 255, 256, 257, 700, Int(random.next() % 600)]
            var scores: [Double] = []
            for _ in 0..<sizes[round % sizes.count] {
                let spread = [radius / 50_000, radius / 20_000, 3][Int(random.next() % 3)]
                let point = RedisGeoEstimateTests.point(near: centre, spread: spread, &random)
                guard let score = try? GeoHash.encode(longitude: point.longitude, latitude: point.latitude) else {
                    continue
                }
                scores.append(Double(score))
            }
            let centres = scores.map { GeoHash.decode(score: $0) }
            // Some radii pass through a candidate exactly: its estimate cannot decide it.
            if let chosen = centres.randomElement(using: &random), round % 3 == 0 {
                radius = RedisGeo.DistanceFrom(longitude: centre.longitude, latitude: centre.latitude)
                    .distance(longitude: chosen.longitude, latitude: chosen.latitude)
            }
            let limit = radius
            let search = try RedisGeoSearch(
                longitude: centre.longitude, latitude: centre.latitude, shape: .radius(radius, unit: .meters))
            let ranges = search.scannedRanges
            // The function's precondition: the scanned cells do not overlap (else `collect` takes
            // another path).
            let disjoint = ranges.indices.allSatisfy { first in
                ranges.indices.allSatisfy { second in
                    first == second || ranges[first].maximum <= ranges[second].minimum
                        || ranges[second].maximum <= ranges[first].minimum
                }
            }
            guard disjoint else { continue }
            var expected: [RedisGeoHit] = []
            var expectedCells: [Int] = []
            var undecided: [(Int, Int)] = []
            for (position, score) in scores.enumerated() {
                guard let cell = ranges.firstIndex(where: { score >= $0.minimum && score < $0.maximum }) else {
                    outside += 1
                    continue
                }
                let point = centres[position]
                guard let estimate = search.centre.estimate(longitude: point.longitude, latitude: point.latitude)
                else {
                    unestimated += 1
                    undecided.append((position, cell))
                    continue
                }
                let error = estimate * bound
                if estimate - error > limit { continue }
                guard estimate + error <= limit else {
                    undecided.append((position, cell))
                    continue
                }
                expected.append(
                    RedisGeoHit(
                        position: position, score: score, longitude: point.longitude, latitude: point.latitude,
                        distanceMeters: estimate, distanceError: error))
                expectedCells.append(cell)
            }
            kept += expected.count
            for (position, cell) in undecided {
                let point = centres[position]
                guard
                    let distance = search.distanceIfInside(longitude: point.longitude, latitude: point.latitude)
                else { continue }
                exact += 1
                expected.append(
                    RedisGeoHit(
                        position: position, score: scores[position], longitude: point.longitude,
                        latitude: point.latitude, distanceMeters: distance))
                expectedCells.append(cell)
            }
            for level in 0...VectorKernels.bestLevel {
                let (found, cells) = search.collectInRadius(
                    scores, centres: centres, ranges: ranges, limit: limit, level: level)
                #expect(found == expected, "round \(round), level \(level): \(scores.count) candidates")
                #expect(cells == expectedCells, "round \(round), level \(level)")
            }
        }
        // Each kind of candidate came up often.
        #expect(kept > 10_000)
        #expect(exact > 100)
        #expect(outside > 1_000)
        #expect(unestimated > 100)
    }
}
