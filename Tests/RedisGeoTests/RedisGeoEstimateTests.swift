import Foundation
import Geo
import Testing

@testable import RedisGeo

/// The estimated distances of `RedisGeoSearch.hits(…, estimating: true)`: within their bound of
/// Redis's own, and never changing a member, an order or a printed digit.
@Suite struct RedisGeoEstimateTests {
    /// A random search centre inside Redis's limits.
    static func centre(_ random: inout SplitMix64) -> (longitude: Double, latitude: Double) {
        ((random.nextUnit() * 2 - 1) * 180, (random.nextUnit() * 2 - 1) * GeoHash.latitudeLimit)
    }

    /// A member's decoded position near a centre: up to `spread` degrees away on each axis
    /// (scaled by a random power of ten, down to a few cells), sometimes on the centre's
    /// meridian or parallel, clamped into Redis's limits.
    static func point(
        near centre: (longitude: Double, latitude: Double), spread: Double, _ random: inout SplitMix64
    ) -> (longitude: Double, latitude: Double) {
        let scale = spread * pow(10, -Double(random.next() % 6))
        var longitude = centre.longitude + (random.nextUnit() * 2 - 1) * scale
        var latitude = centre.latitude + (random.nextUnit() * 2 - 1) * scale
        switch random.next() % 8 {
        case 0: longitude = centre.longitude
        case 1: latitude = centre.latitude
        default: break
        }
        longitude = min(max(longitude, -180), 180)
        latitude = min(max(latitude, -GeoHash.latitudeLimit), GeoHash.latitudeLimit)
        guard let score = try? GeoHash.encode(longitude: longitude, latitude: latitude) else { return centre }
        return random.next() % 4 == 0 ? (longitude, latitude) : GeoHash.decode(score)
    }

    @Test func estimateStaysWithinItsBound() {
        var random = SplitMix64(seed: 20_261_126)
        let bound = RedisGeo.DistanceFrom.estimateRelativeError
        var largest = 0.0
        var estimated = 0
        for _ in 0..<200_000 {
            let centre = Self.centre(&random)
            let from = RedisGeo.DistanceFrom(longitude: centre.longitude, latitude: centre.latitude)
            let point = Self.point(near: centre, spread: 1.2, &random)
            let exact = from.distance(longitude: point.longitude, latitude: point.latitude)
            if let estimate = from.estimate(longitude: point.longitude, latitude: point.latitude) {
                estimated += 1
                #expect(abs(estimate - exact) <= estimate * bound, "\(centre) to \(point)")
                if exact > 0 { largest = max(largest, abs(estimate - exact) / exact) }
            }
            let along = RedisGeo.distance(
                longitude1: point.longitude, latitude1: point.latitude, longitude2: centre.longitude,
                latitude2: point.latitude)
            if let estimate = from.estimateAlongParallel(longitude: point.longitude, latitude: point.latitude) {
                #expect(abs(estimate - along) <= estimate * bound, "along the parallel of \(point) from \(centre)")
                if along > 0 { largest = max(largest, abs(estimate - along) / along) }
            }
        }
        // Most pairs are near enough to estimate, and the bound is far above what rounding gives.
        #expect(estimated > 150_000)
        #expect(largest < bound / 64, "largest relative difference \(largest)")
    }

    /// The batches of a search's candidates give each point's `estimate` and
    /// `estimateAlongParallel` to the bit (NaN for nil), near and far, on the centre's meridian
    /// and parallel, on each vector unit this processor has.
    @Test func batchEstimatesEqualOneByOne() {
        var random = SplitMix64(seed: 20_261_127)
        for _ in 0..<2_000 {
            let centre = Self.centre(&random)
            let from = RedisGeo.DistanceFrom(longitude: centre.longitude, latitude: centre.latitude)
            let points = (0..<Int(random.next() % 200)).map { _ in
                Self.point(near: centre, spread: [0.01, 1.2, 3][Int(random.next() % 3)], &random)
            }
            let level = Int(random.next() % UInt64(VectorKernels.bestLevel + 1))
            let batch = from.batch(points) { from.estimates($0, into: $1, level: level) }
            let alongBatch = from.batch(points) { from.estimatesAlongParallel($0, into: $1, level: level) }
            for (index, point) in points.enumerated() {
                let one = from.estimate(longitude: point.longitude, latitude: point.latitude)
                let estimate = batch[index]
                #expect(one?.bitPattern == (estimate.isNaN ? nil : estimate.bitPattern), "\(centre) to \(point)")
                let along = from.estimateAlongParallel(longitude: point.longitude, latitude: point.latitude)
                let alongEstimate = alongBatch[index]
                #expect(along?.bitPattern == (alongEstimate.isNaN ? nil : alongEstimate.bitPattern), "\(point)")
            }
        }
    }

    @Test func estimatesAreExactOnTheMeridian() {
        let from = RedisGeo.DistanceFrom(longitude: 28.9, latitude: 41.3)
        #expect(from.estimate(longitude: 28.9, latitude: 41.31) == from.distance(longitude: 28.9, latitude: 41.31))
        #expect(from.estimate(longitude: 28.9, latitude: 41.3) == 0)
        #expect(from.estimateAlongParallel(longitude: 28.9, latitude: 45) == 0)
        // Too far for the series: the caller computes exactly.
        #expect(from.estimate(longitude: 30.5, latitude: 41.3) == nil)
    }

    /// Candidates the estimates cannot decide (farther than the series reach, or on the radius
    /// itself) are decided exactly: with the centres given, as the server gives them, the search
    /// reports the exact search's members in its order, over orders and counts.
    @Test func undecidedCandidatesAreDecidedExactly() throws {
        var random = SplitMix64(seed: 2_711)
        var onTheEdge = 0
        for round in 0..<300 {
            let centre = Self.centre(&random)
            let candidates = (0..<Int(random.next() % 200 + 2)).compactMap { _ -> Double? in
                let point = Self.point(near: centre, spread: [0.02, 2.5][Int(random.next() % 2)], &random)
                return (try? GeoHash.encode(longitude: point.longitude, latitude: point.latitude)).map(Double.init)
            }
            let chosen = candidates[Int(random.next() % UInt64(candidates.count))]
            let from = RedisGeo.DistanceFrom(longitude: centre.longitude, latitude: centre.latitude)
            let decoded = GeoHash.decode(score: chosen)
            // A radius through one candidate exactly, or past the series' reach.
            let radius =
                round % 2 == 0 ? from.distance(longitude: decoded.longitude, latitude: decoded.latitude) : 300_000
            let search = try RedisGeoSearch(
                longitude: centre.longitude, latitude: centre.latitude, shape: .radius(radius, unit: .meters))
            let order = [RedisGeoSearch.Order.unsorted, .ascending, .descending][Int(random.next() % 3)]
            let limit = Int(random.next() % 40) + 1
            let count = [RedisGeoSearch.Count.all, .first(limit), .any(limit)][Int(random.next() % 3)]
            let exact = try search.hits(candidates: candidates, order: order, count: count, membersPrecede: { $0 < $1 })
            let centred = try search.hits(
                candidates: candidates, centres: candidates.map { GeoHash.decode(score: $0) }, order: order,
                count: count, membersPrecede: { $0 < $1 }, estimating: true)
            #expect(centred.map(\.position) == exact.map(\.position), "round \(round): \(order) \(count)")
            if round % 2 == 0, exact.contains(where: { $0.score == chosen }) { onTheEdge += 1 }
        }
        #expect(onTheEdge > 50)
    }

    /// Searches with estimated distances report the same members in the same order as exact
    /// ones, with distances within their stated error (0: equal), over shapes, units, orders and
    /// counts, on candidates with duplicates and ties.
    @Test func estimatedSearchesEqualExactOnes() throws {
        var random = SplitMix64(seed: 2_611)
        let units = RedisGeoUnit.allCases
        for round in 0..<400 {
            let centre = Self.centre(&random)
            var candidates: [Double] = []
            for _ in 0..<Int(random.next() % 300) {
                let point = Self.point(near: centre, spread: 0.03, &random)
                guard let score = try? GeoHash.encode(longitude: point.longitude, latitude: point.latitude) else {
                    continue
                }
                candidates.append(Double(score))
                // Duplicates: the same position, under another member.
                if random.next() % 10 == 0 { candidates.append(Double(score)) }
            }
            let unit = units[Int(random.next() % UInt64(units.count))]
            let size = random.nextUnit() * 3_000 / unit.metersPerUnit
            let shape: RedisGeoShape =
                random.next() % 3 == 0
                ? .box(width: size * 2 * random.nextUnit(), height: size * 2 * random.nextUnit(), unit: unit)
                : .radius(size, unit: unit)
            let search = try RedisGeoSearch(longitude: centre.longitude, latitude: centre.latitude, shape: shape)
            let orders: [RedisGeoSearch.Order] = [.unsorted, .ascending, .descending]
            let order = orders[Int(random.next() % 3)]
            let limit = Int(random.next() % 40) + 1
            let counts: [RedisGeoSearch.Count] = [.all, .first(limit), .any(limit)]
            let count = counts[Int(random.next() % 3)]
            // Candidates of equal score: the lower position first, as in a sorted set.
            let exact = try search.hits(candidates: candidates, order: order, count: count, membersPrecede: { $0 < $1 })
            let fast = try search.hits(
                candidates: candidates, order: order, count: count, membersPrecede: { $0 < $1 }, estimating: true)
            #expect(fast.map(\.position) == exact.map(\.position), "round \(round): \(shape) \(order) \(count)")
            // With the candidates' centres given, as the server gives them: the batch estimates.
            let centred = try search.hits(
                candidates: candidates, centres: candidates.map { GeoHash.decode(score: $0) }, order: order,
                count: count, membersPrecede: { $0 < $1 }, estimating: true)
            #expect(centred.map(\.position) == exact.map(\.position), "round \(round): centres given")
            #expect(
                zip(centred, fast).allSatisfy {
                    $0.distanceMeters == $1.distanceMeters && $0.distanceError == $1.distanceError
                })
            for (estimate, truth) in zip(fast, exact) {
                #expect(estimate.score == truth.score && estimate.longitude == truth.longitude)
                #expect(abs(estimate.distanceMeters - truth.distanceMeters) <= estimate.distanceError)
                #expect(estimate.distanceError <= estimate.distanceMeters * RedisGeo.DistanceFrom.estimateRelativeError)
                #expect(search.exactDistance(estimate) == truth.distanceMeters)
                // What WITHDIST prints from the estimate, when it prints it, is Redis's text.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
                    guard
                        let length = RedisGeoText.writeDistance(
                            meters: estimate.distanceMeters, errorMeters: estimate.distanceError, unit: unit,
                            to: buffer.baseAddress!)
                    else { return }
                    let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
                    #expect(text == RedisGeoText.distance(meters: truth.distanceMeters, unit: unit))
                }
            }
        }
    }

    /// `writeDistance` prints `distance(meters:unit:)`'s text whenever it prints, also for values
    /// on and next to the rounding edges of the fourth decimal, and declines only near them.
    @Test func distanceTextIsPrintfsOrNothing() {
        var random = SplitMix64(seed: 4)
        var declined = 0
        let rounds = 300_000
        for round in 0..<rounds {
            let unit = RedisGeoUnit.allCases[round % RedisGeoUnit.allCases.count]
            var meters: Double
            switch round % 3 {
            case 0: meters = random.nextUnit() * pow(10, Double(random.next() % 9) - 2)
            case 1:
                // A rounding edge of the printed value, give or take a few units in the last place.
                let edge = (Double(random.next() % 100_000_000) + 0.5) / 10_000 * unit.metersPerUnit
                meters = edge
                for _ in 0..<Int(random.next() % 4) {
                    meters = random.next() % 2 == 0 ? meters.nextUp : meters.nextDown
                }
            default: meters = Double(random.next() % 1_000_000_000) / 10_000 * unit.metersPerUnit
            }
            let error = round % 5 == 0 ? meters * RedisGeo.DistanceFrom.estimateRelativeError : 0
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
                guard
                    let length = RedisGeoText.writeDistance(
                        meters: meters, errorMeters: error, unit: unit, to: buffer.baseAddress!)
                else {
                    declined += 1
                    return
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
                #expect(text == RedisGeoText.distance(meters: meters, unit: unit), "\(meters) m in \(unit)")
            }
        }
        // Only values near an edge are declined: about a third are built to be.
        #expect(declined < rounds / 3 + rounds / 100)
    }

    /// `writeDistance` prints every length of text as `distance(meters:unit:)` does: one to eight
    /// digits before the point, at each power of ten and next to it, in every unit; and it prints
    /// most of them (it declines only next to a rounding edge).
    @Test func distanceTextOfEveryLength() {
        var written = 0
        var tried = 0
        var values: [Double] = [0, 0.000_04, 0.000_05, 0.000_06, 1e-300]
        for exponent in 0...7 {
            let power = pow(10, Double(exponent))
            values += [power, power - 0.000_1, power - 0.000_05, power + 0.000_1, power * 1.234_567_89]
        }
        for unit in RedisGeoUnit.allCases {
            for value in values {
                for units in [value, value.nextUp, value.nextDown] where units >= 0 {
                    // Meters that are this many units, as near as a Double gets.
                    let meters = units * unit.metersPerUnit
                    tried += 1
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
                        guard
                            let length = RedisGeoText.writeDistance(
                                meters: meters, errorMeters: 0, unit: unit, to: buffer.baseAddress!)
                        else { return }
                        written += 1
                        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
                        #expect(text == RedisGeoText.distance(meters: meters, unit: unit), "\(meters) m in \(unit)")
                    }
                }
            }
        }
        #expect(written > tried / 2, "\(written) of \(tried) written")
    }

    /// WITHCOORD's writer prints what the limb arithmetic prints, over the whole range of
    /// longitudes (up to 1.8e19 in units of the 17th decimal) and at the cells' centres.
    @Test func coordinatesWriteAsTheyPrint() {
        var random = SplitMix64(seed: 17)
        for round in 0..<100_000 {
            var degrees = (random.nextUnit() * 2 - 1) * 180
            if round % 2 == 0, let score = try? GeoHash.encode(longitude: degrees, latitude: degrees / 2.2) {
                let centre = GeoHash.decode(score)
                degrees = round % 4 == 0 ? centre.longitude : centre.latitude
            }
            if round % 1000 == 0 { degrees = [180, -180, 0, -0.0, 85.05112878][round / 1000 % 5] }
            var expected = FixedDecimal.exact(degrees, fractionDigits: 17)
            while expected.hasSuffix("0") { expected.removeLast() }
            if expected.hasSuffix(".") { expected.removeLast() }
            if expected == "-0" { expected = "0" }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FixedDecimal.maximumSmallLength) { buffer in
                let length = RedisGeoText.writeCoordinate(degrees, to: buffer.baseAddress!)
                #expect(length != nil, "\(degrees)")
                guard let length else { return }
                let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
                #expect(text == expected, "\(degrees)")
                #expect(text == RedisGeoText.coordinate(degrees))
            }
        }
    }
}
