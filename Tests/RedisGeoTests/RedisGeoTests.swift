import Foundation
import Geo
import Testing

@testable import RedisGeo

@Suite struct RedisGeoTests {
    /// Palermo to Catania from the Redis GEODIST documentation: "166274.1516" m, "166.2742" km,
    /// "103.3182" mi.
    @Test func palermoToCataniaAsInTheRedisDocumentation() throws {
        let palermo = GeoHash.decode(try GeoHash.encode(longitude: 13.361389, latitude: 38.115556))
        let catania = GeoHash.decode(try GeoHash.encode(longitude: 15.087269, latitude: 37.502669))
        let meters = RedisGeo.distance(
            longitude1: palermo.longitude, latitude1: palermo.latitude, longitude2: catania.longitude,
            latitude2: catania.latitude)
        #expect(RedisGeoText.distance(meters: meters, unit: .meters) == "166274.1516")
        #expect(RedisGeoText.distance(meters: meters, unit: .kilometers) == "166.2742")
        #expect(RedisGeoText.distance(meters: meters, unit: .miles) == "103.3182")
    }

    /// Regression: Redis 7.0 measures along the meridian when the longitudes are equal. From -60° to
    /// 45° that is 11678761.500000093 m where the haversine says 11678761.500000095 m; GEOSEARCH with
    /// the smaller radius finds the member (recorded in the fixture's equal-longitude searches).
    @Test func equalLongitudesUseTheMeridianDistance() {
        let meridian = RedisGeo.latitudeDistance(-60, 45)
        #expect(meridian == 11_678_761.500_000_093)
        #expect(RedisGeo.distance(longitude1: 5, latitude1: -60, longitude2: 5, latitude2: 45) == meridian)
        #expect(RedisGeo.distance(longitude1: 5, latitude1: -60, longitude2: 5.000_000_1, latitude2: 45) > meridian)
    }

    @Test func unitsParseCaseInsensitivelyLikeStrcasecmp() {
        #expect(RedisGeoUnit(argument: "KM") == .kilometers)
        #expect(RedisGeoUnit(argument: "mI") == .miles)
        #expect(RedisGeoUnit(argument: "Ft") == .feet)
        #expect(RedisGeoUnit(argument: "m") == .meters)
        #expect(RedisGeoUnit(argument: "yd") == nil)
        #expect(RedisGeoUnit(argument: "kms") == nil)
        #expect(RedisGeoUnit(argument: [UInt8(ascii: "m"), 0, UInt8(ascii: "x")]) == .meters)
        #expect(RedisGeoUnit.miles.metersPerUnit == 1609.34)
    }

    /// glibc rounds the exact binary value, ties to even.
    @Test(
        arguments: [
            (0.5, 0, "0"), (1.5, 0, "2"), (2.5, 0, "2"), (0.125, 2, "0.12"), (0.375, 2, "0.38"),
            (1e21, 1, "1000000000000000000000.0"),
            (-0.0, 4, "-0.0000"), (0.1, 20, "0.10000000000000000555"), (.leastNonzeroMagnitude, 4, "0.0000"),
            (200, 6, "200.000000"),
            (.infinity, 6, "inf"), (-Double.infinity, 6, "-inf"),
        ] as [(Double, Int, String)])
    func fixedDecimalMatchesPrintf(value: Double, digits: Int, expected: String) {
        #expect(FixedDecimal.format(value, fractionDigits: digits) == expected)
    }

    /// Integers of every length, and the edges of each, as `String` prints them; fixed-width digit
    /// runs keep their leading zeros.
    @Test func decimalWriterPrintsEveryLength() {
        var random = SplitMix64(seed: 20_261_127)
        var values: [UInt64] = [0, .max, .max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for _ in 0..<10_000 { values.append(random.next() >> (random.next() % 64)) }
        var buffer = [UInt8](repeating: 0, count: 24)
        for value in values {
            let length = buffer.withUnsafeMutableBufferPointer { FixedDecimal.writeDecimal(value, to: $0.baseAddress!) }
            #expect(String(decoding: buffer[..<length], as: UTF8.self) == String(value))
            let count = Int(random.next() % 21)
            buffer.withUnsafeMutableBufferPointer { FixedDecimal.writeDigits(value, count: count, to: $0.baseAddress!) }
            let padded = String(repeating: "0", count: 20) + String(value)
            #expect(String(decoding: buffer[..<count], as: UTF8.self) == String(padded.suffix(count)))
        }
    }

    /// The writer's constants: the powers of ten it compares lengths with, and the binary exponent
    /// it reads from a value's bits, against the standard library's.
    @Test func powersOfTenAndExponentsAreTheLibrarys() {
        var power: UInt64 = 1
        for exponent in 0...19 {
            #expect(FixedDecimal.powerOfTen(exponent) == power, "10^\(exponent)")
            if exponent < 19 { power *= 10 }
        }
        var random = SplitMix64(seed: 20_261_128)
        for _ in 0..<100_000 {
            let value = Double(bitPattern: random.next())
            guard value.isNormal else { continue }
            #expect(FixedDecimal.unbiasedExponent(value) == Int(value.exponent), "\(value)")
        }
        for value in [Double.leastNormalMagnitude, 1, -1, 180, -180, 0x1p-11, .greatestFiniteMagnitude] {
            #expect(FixedDecimal.unbiasedExponent(value) == Int(value.exponent), "\(value)")
        }
    }

    /// The 128-bit fast path against glibc's own printf and against the arbitrary-length one, on
    /// values of every magnitude, ties (multiples of powers of two), and the edges of the fast path.
    @Test func fixedDecimalFastPathMatchesGlibcPrintf() {
        var random = SplitMix64(seed: 7_0_15)
        func glibc(_ value: Double, _ digits: Int) -> String {
            var buffer = [CChar](repeating: 0, count: 512)
            _ = withVaList([Int32(digits), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        for step in 0..<100_000 {
            let digits = Int(random.next() % 18)
            let value: Double
            switch step % 4 {
            case 0: value = Double(bitPattern: random.next())  // any double, NaN and inf included
            case 1: value = (random.nextUnit() - 0.5) * pow(10, Double(random.next() % 40) - 20)
            case 2: value = Double(Int64(random.next() % 2_000_001) - 1_000_000) / Double(1 << (random.next() % 30))
            default: value = (random.nextUnit() * 2 - 1) * 0x1p62 / pow(10, Double(digits)) * random.nextUnit() * 2
            }
            let printed = FixedDecimal.format(value, fractionDigits: digits)
            #expect(printed == glibc(value, digits), "\(value) with \(digits) digits")
            if value.isFinite {
                #expect(printed == FixedDecimal.exact(value, fractionDigits: digits))
                var trimmed = FixedDecimal.exact(value, fractionDigits: digits)
                if digits > 0 {
                    while trimmed.hasSuffix("0") { trimmed.removeLast() }
                    if trimmed.hasSuffix(".") { trimmed.removeLast() }
                }
                if trimmed == "-0" { trimmed = "0" }
                #expect(FixedDecimal.trimmed(value, fractionDigits: digits) == trimmed, "\(value) trimmed")
            }
        }
    }

    /// Coordinates as WITHCOORD prints them (17 decimals, trailing zeros trimmed), which take the
    /// word-at-a-time path: random values over the whole range, decoded geohash centres, whole
    /// numbers, values one ulp either side of them, and the path's edges (2^-11, 180.5), against
    /// the arbitrary-length printer.
    @Test func coordinatesPrintAsTheExactPrinterDoes() {
        var random = SplitMix64(seed: 2_026_112_717)
        var values: [Double] = [0x1p-11, 0x1p-11.nextDown, 180.5.nextDown, 180.5, 1, 2, 180, 0.5, 1 + 0x1p-52]
        for whole in stride(from: -180.0, through: 180, by: 1) { values += [whole, whole.nextUp, whole.nextDown] }
        for _ in 0..<200_000 {
            let value = random.nextUnit() * 361 - 180.5
            values.append(value)
            let centre = GeoHash.decode(score: Double(random.next() >> 12))
            values += [centre.longitude, centre.latitude]
        }
        var buffer = [UInt8](repeating: 0, count: FixedDecimal.maximumSmallLength)
        for value in values {
            var expected = FixedDecimal.exact(value, fractionDigits: 17)
            while expected.hasSuffix("0") { expected.removeLast() }
            if expected.hasSuffix(".") { expected.removeLast() }
            if expected == "-0" { expected = "0" }
            let length = buffer.withUnsafeMutableBufferPointer {
                FixedDecimal.write(value, fractionDigits: 17, trimmingZeros: true, to: $0.baseAddress!)
            }
            let written = length.map { String(decoding: buffer[..<$0], as: UTF8.self) }
            #expect(written == expected, "\(value)")
        }
    }

    /// Every value below 10^8 has its eight digits in the word, in order.
    @Test func eightDigitWordsHoldTheDigits() {
        var random = SplitMix64(seed: 8)
        var values: [UInt32] = [0, 1, 9, 10, 99, 100, 9_999, 10_000, 99_999_999]
        for _ in 0..<100_000 { values.append(UInt32(random.next() % 100_000_000)) }
        for value in values {
            let word = FixedDecimal.eightDigits(value)
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
            let padded = String(repeating: "0", count: 8) + String(value)
            #expect(String(decoding: bytes, as: UTF8.self) == String(padded.suffix(8)), "\(value)")
        }
    }

    @Test func coordinatesPrintLikeAddReplyHumanLongDouble() {
        #expect(RedisGeoText.coordinate(180) == "180")
        #expect(RedisGeoText.coordinate(-0.0) == "0")
        #expect(RedisGeoText.coordinate(-1e-18) == "0")
        #expect(RedisGeoText.coordinate(0.5) == "0.5")
        #expect(RedisGeoText.coordinate(-179.99999731779098511) == "-179.99999731779098511")
    }

    @Test func partialSortAgreesWithAFullSortOnTheWantedPrefix() {
        var random = SplitMix64(seed: 11)
        for round in 0..<300 {
            let count = Int(random.next() % 120) + 1
            let values = (0..<count).map { _ in Int(random.next() % 20) }
            let wanted = Int(random.next() % UInt64(count))
            var partial = values
            RedisPartialSort.sort(&partial, lower: 0, upper: wanted) { $0 < $1 ? -1 : ($0 == $1 ? 0 : 1) }
            #expect(Array(partial.prefix(wanted + 1)) == Array(values.sorted().prefix(wanted + 1)), "round \(round)")
            var merged = values.enumerated().map { $0 }
            GlibcMergeSort.sort(&merged) { $0.element < $1.element ? -1 : ($0.element == $1.element ? 0 : 1) }
            #expect(
                merged.map(\.offset)
                    == values.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map(\.offset))
        }
    }

    @Test func searchRejectsBadInput() {
        #expect(throws: RedisGeoError.self) {
            try RedisGeoSearch(longitude: 0, latitude: 86, shape: .radius(1, unit: .meters))
        }
        #expect(throws: RedisGeoError.self) {
            try RedisGeoSearch(longitude: 0, latitude: 0, shape: .radius(-1, unit: .meters))
        }
        #expect(throws: RedisGeoError.self) {
            try RedisGeoSearch(longitude: 0, latitude: 0, shape: .box(width: 1, height: .nan, unit: .feet))
        }
        let search = try? RedisGeoSearch(longitude: 0, latitude: 0, shape: .radius(1, unit: .meters))
        #expect(throws: RedisGeoError.invalidCount(0)) {
            try search?.matches(in: [RedisGeoEntry<String>](), count: .first(0))
        }
    }

    /// Regression: on a one-step grid (2 x 2 cells) the neighbours wrap around and coincide; Redis
    /// skips a cell equal to the one scanned just before it, which here is enough to scan each of
    /// the four cells once.
    @Test func hugeRadiiScanEachCellOnce() throws {
        let search = try RedisGeoSearch(longitude: 0, latitude: 0, shape: .radius(15_000, unit: .kilometers))
        #expect(search.step == 1)
        let score = Double(try GeoHash.encode(longitude: 100, latitude: 10))
        let matches = try search.matches(in: [RedisGeoEntry(score: score, member: "far")])
        #expect(matches.map(\.member) == ["far"])
    }

    /// Regression: a member GEOADDed at longitude 180 has bit 53 set, above the score range of any
    /// cell computed from a centre west of 180, so Redis finds it only from a centre on 180 itself
    /// (whose cells carry the same bit).
    @Test func membersOnLongitude180AreFoundOnlyFromLongitude180() throws {
        let edge = Double(try GeoHash.encode(longitude: 180, latitude: 10))
        let entries = [RedisGeoEntry(score: edge, member: "edge")]
        let nearby = try RedisGeoSearch(longitude: 179.9999, latitude: 10, shape: .radius(100, unit: .kilometers))
        let position = GeoHash.decode(score: edge)
        #expect(nearby.distanceIfInside(longitude: position.longitude, latitude: position.latitude) != nil)
        #expect(try nearby.matches(in: entries).isEmpty)
        let onTheEdge = try RedisGeoSearch(longitude: 180, latitude: 10, shape: .radius(100, unit: .kilometers))
        #expect(try onTheEdge.matches(in: entries).map(\.member) == ["edge"])
    }

    // MARK: - Against redis-server 7.0.15

    @Test func distancesMatchRedis() throws {
        let reference = try #require(RedisGeoReference.shared)
        #expect(reference.distances.count >= 2000)
        var differences: [String] = []
        var compared = 0
        for pair in reference.distances {
            let a = try position(reference.points[pair.a])
            let b = try position(reference.points[pair.b])
            let meters = RedisGeo.distance(
                longitude1: a.longitude, latitude1: a.latitude, longitude2: b.longitude, latitude2: b.latitude)
            for (unitText, reply) in pair.replies {
                let unit = unitText == "default" ? .meters : try #require(RedisGeoUnit(argument: unitText))
                let mine = RESP.bulk(RedisGeoText.distance(meters: meters, unit: unit))
                compared += 1
                if mine != reply { differences.append("p\(pair.a)-p\(pair.b) \(unitText): \(mine) != \(reply)") }
            }
        }
        #expect(compared >= 10_000)
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(5))")
    }

    @Test func searchesMatchRedis() throws {
        let reference = try #require(RedisGeoReference.shared)
        var entries: [RedisGeoEntry<String>] = []
        for member in reference.members {
            let longitude = try #require(Double(member.longitude))
            let latitude = try #require(Double(member.latitude))
            let score = Double(try GeoHash.encode(longitude: longitude, latitude: latitude))
            entries.append(RedisGeoEntry(score: score, member: member.member))
        }
        entries.sort { $0.precedes($1) }
        let scores = Dictionary(uniqueKeysWithValues: entries.map { ($0.member, $0.score) })
        #expect(reference.searches.count >= 200)
        var differences: [String] = []
        for search in reference.searches {
            let parsed = try #require(ParsedGeoSearch(search.args), "\(search.args)")
            var longitude = parsed.longitude
            var latitude = parsed.latitude
            if let member = parsed.fromMember {
                (longitude, latitude) = GeoHash.decode(score: try #require(scores[member]))
            }
            let geoSearch = try RedisGeoSearch(longitude: longitude, latitude: latitude, shape: parsed.shape)
            let matches = try geoSearch.matches(in: entries, order: parsed.order, count: parsed.count)
            let mine = parsed.reply(matches)
            if mine != search.reply {
                differences.append(
                    "\(search.args.joined(separator: " ")):\n\(mine.prefix(300).debugDescription)\n"
                        + search.reply.prefix(300).debugDescription)
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(3))")
    }

    @Test func errorTextsMatchRedis() throws {
        let reference = try #require(RedisGeoReference.shared)
        let expected = [
            RedisGeoMessage.negativeRadius, RedisGeoMessage.negativeBox, RedisGeoMessage.unsupportedUnit,
            RedisGeoMessage.countNotPositive, RedisGeoMessage.anyWithoutCount, RedisGeoMessage.memberNotFound,
            RedisGeoMessage.radiusNotNumeric, RedisGeoMessage.widthNotNumeric, RedisGeoMessage.heightNotNumeric,
            RedisGeoMessage.invalidPair(longitude: 0, latitude: 90), RedisGeoMessage.missingFrom(command: "geosearch"),
            RedisGeoMessage.missingBy(command: "GeoSearch"), RedisGeoMessage.unsupportedUnit,
        ]
        #expect(reference.errors.map(\.reply) == expected.map(RESP.error))
    }

    private func position(_ point: RedisGeoReference.Point) throws -> (longitude: Double, latitude: Double) {
        let longitude = try #require(Double(point.longitude))
        let latitude = try #require(Double(point.latitude))
        return GeoHash.decode(score: Double(try GeoHash.encode(longitude: longitude, latitude: latitude)))
    }
}
