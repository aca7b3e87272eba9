import Foundation
import Geo
import Places
import RedisGeo
import TestSupport
import Testing

@testable import LineProtocol

/// The Redis GEO commands, run on `LineService` directly (no socket): replies, authorization,
/// the `user` key, places beyond Redis's latitude limit, and multi-member writes. Byte-for-byte
/// agreement with redis-server itself is `scripts/redis-compat.py`'s job.
@Suite struct RedisGeoCommandTests {
    /// A service with an admin token, a public user `ayse` and a private user `mehmet` in Istanbul,
    /// and a polar station beyond latitude 85.05112878.
    struct Fixture {
        let service: LineService
        let admin: Session
        let anonymous = Session(id: 2)
        let mehmet: Session

        init() throws {
            var directory = PlaceDirectory(places: try PlaceCatalog())
            let adminToken = directory.rotateAdminToken()
            _ = try directory.addUser(
                User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 41.0885, longitude: 29.0158)),
                by: .admin)
            let mehmetToken = try directory.addUser(
                User(
                    id: "mehmet", name: "Mehmet", location: try Coordinate(latitude: 41.0882, longitude: 29.0156),
                    visibility: .private), by: .admin)
            try directory.perform(
                .setPlace(
                    Place(
                        id: "station", kind: "polar", name: "Station",
                        coordinate: try Coordinate(latitude: 89.5, longitude: 10))), by: .admin)
            service = LineService(directory: DurableDirectory(directory, store: MemoryStore()))
            var admin = Session(id: 1)
            admin.token = adminToken
            admin.principal = .admin
            self.admin = admin
            var mehmet = Session(id: 3)
            mehmet.token = mehmetToken
            mehmet.principal = .user("mehmet")
            self.mehmet = mehmet
        }

        func run(_ arguments: String..., as session: Session? = nil) async -> RESPReply {
            let session = session ?? admin
            return await withCheckedContinuation { continuation in
                service.execute(arguments, session: session) { reply, _ in continuation.resume(returning: reply) }
            }
        }
    }

    @Test func geoaddThenPositionDistanceAndHashAsRedisPrintsThem() async throws {
        let fixture = try Fixture()
        #expect(await fixture.run("GEOADD", "Sicily", "13.361389", "38.115556", "Palermo") == .integer(1))
        #expect(await fixture.run("GEOADD", "Sicily", "15.087269", "37.502669", "Catania") == .integer(1))
        // Values from the Redis GEOADD documentation, checked against redis-server 7.0.15.
        #expect(await fixture.run("GEODIST", "Sicily", "Palermo", "Catania") == .text("166274.1516"))
        #expect(
            await fixture.run("GEOPOS", "Sicily", "Palermo", "Nowhere")
                == .array([
                    .array([.doubleText("13.36138933897018433"), .doubleText("38.11555639549629859")]), .nullArray,
                ]))
        #expect(await fixture.run("GEOHASH", "Sicily", "Palermo") == .array([.text("sqc8b49rny0")]))
        #expect(
            await fixture.run("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC")
                == .array([.text("Catania"), .text("Palermo")]))
    }

    @Test func multiMemberWritesAnswerOnceWithRedisCounts() async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.run("GEOADD", "cafes", "29", "41", "a", "29.1", "41", "b", "29.2", "41", "a") == .integer(2))
        #expect(await fixture.run("GEOADD", "cafes", "CH", "29", "41", "b", "30", "41", "c") == .integer(2))
        #expect(await fixture.run("GEOADD", "cafes", "XX", "CH", "1", "1", "a", "2", "2", "d") == .integer(1))
        #expect(await fixture.run("ZCARD", "cafes") == .integer(3))
        #expect(await fixture.run("ZREM", "cafes", "a", "a", "zz") == .integer(1))
        #expect(await fixture.run("DEL", "cafes", "cafes", "none") == .integer(1))
        #expect(await fixture.run("EXISTS", "cafes") == .integer(0))
        #expect(await fixture.run("TYPE", "cafes") == .simpleString("none"))
    }

    @Test func writesNeedTheAdminAndRefuseTheUserKey() async throws {
        let fixture = try Fixture()
        let anonymousReply = await fixture.run("GEOADD", "cafes", "29", "41", "a", as: fixture.anonymous)
        #expect(anonymousReply == .error("NOPERM not allowed: changing a place needs the admin token"))
        for command in [["GEOADD", "user", "29", "41", "x"], ["ZREM", "user", "ayse"], ["DEL", "polar", "user"]] {
            let reply = await fixture.service.reply(command, session: fixture.admin)
            #expect(
                reply == .error("ERR key 'user' is read-only: it holds Vicinity's users (use USER.MOVE and USER.DEL)"))
        }
    }

    @Test func privateUsersAreInNoOneElsesUserKey() async throws {
        let fixture = try Fixture()
        let search = ["GEOSEARCH", "user", "FROMLONLAT", "29.0158", "41.0885", "BYRADIUS", "1", "km", "ASC"]
        #expect(await fixture.service.reply(search, session: fixture.anonymous) == .array([.text("ayse")]))
        #expect(await fixture.service.reply(search, session: fixture.admin) == .array([.text("ayse")]))
        #expect(
            await fixture.service.reply(search, session: fixture.mehmet) == .array([.text("ayse"), .text("mehmet")]))
        #expect(await fixture.run("GEOPOS", "user", "mehmet", as: fixture.anonymous) == .array([.nullArray]))
        #expect(await fixture.run("GEODIST", "user", "ayse", "mehmet", as: fixture.anonymous) == .nullBulk)
        #expect(await fixture.run("GEOHASH", "user", "mehmet", as: fixture.anonymous) == .array([.nullBulk]))
        #expect(await fixture.run("ZCARD", "user", as: fixture.anonymous) == .integer(1))
        #expect(await fixture.run("ZCARD", "user", as: fixture.mehmet) == .integer(2))
        let byMember = await fixture.run(
            "GEORADIUSBYMEMBER", "user", "mehmet", "1", "km", as: fixture.anonymous)
        #expect(byMember == .error("ERR could not decode requested zset member"))
    }

    @Test func placesBeyondTheLatitudeLimitAreInNoKey() async throws {
        let fixture = try Fixture()
        #expect(await fixture.run("ZCARD", "polar") == .integer(0))
        #expect(await fixture.run("EXISTS", "polar") == .integer(0))
        #expect(await fixture.run("GEOPOS", "polar", "station") == .array([.nullArray]))
        #expect(
            await fixture.run("GEOSEARCH", "polar", "FROMLONLAT", "10", "85", "BYRADIUS", "1000", "km") == .array([]))
        #expect(await fixture.run("GEOADD", "polar", "10", "85", "camp") == .integer(1))
        #expect(await fixture.run("DEL", "polar") == .integer(1))
        // DEL removed what Redis sees; the station is still there for Vicinity's own commands.
        let station = try fixture.service.directory.read { try $0.place(kind: "polar", id: "station") }
        #expect(station.coordinate.latitude == 89.5)
    }

    @Test func searchesFromTheIndexEqualASearchOfTheWholeSortedSet() async throws {
        let fixture = try Fixture()
        var generator = SplitMix64(seed: 42)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(generator.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var entries: [RedisGeoEntry<String>] = []
        var add = ["GEOADD", "grid"]
        for index in 0..<300 {
            let longitude = uniform(28.9...29.1)
            let latitude = uniform(40.95...41.05)
            add += [String(longitude), String(latitude), "p\(index)"]
            entries.append(
                RedisGeoEntry(
                    score: Double(try GeoHash.encode(longitude: longitude, latitude: latitude)), member: "p\(index)"))
        }
        #expect(await fixture.service.reply(add, session: fixture.admin) == .integer(300))
        entries.sort { $0.precedes($1) }
        for trial in 0..<100 {
            let longitude = uniform(28.9...29.1)
            let latitude = uniform(40.95...41.05)
            // In each unit, WITHDIST in two trials of three: distances of one to five digits
            // before the point (up to 16404.1995 ft).
            let unit = [RedisGeoUnit.meters, .kilometers, .feet, .miles][trial % 4]
            let size = uniform(100...5000) / unit.metersPerUnit
            let withDistance = trial % 3 != 0
            let shape: RedisGeoShape =
                trial % 2 == 0 ? .radius(size, unit: unit) : .box(width: size, height: size / 2, unit: unit)
            let search = try RedisGeoSearch(longitude: longitude, latitude: latitude, shape: shape)
            let expected = try search.matches(in: entries, order: .ascending).map { match in
                withDistance
                    ? RESPReply.array([
                        .text(match.member), .text(RedisGeoText.distance(meters: match.distanceMeters, unit: unit)),
                    ]) : RESPReply.text(match.member)
            }
            let by =
                trial % 2 == 0
                ? ["BYRADIUS", String(size), unit.rawValue] : ["BYBOX", String(size), String(size / 2), unit.rawValue]
            let command =
                ["GEOSEARCH", "grid", "FROMLONLAT", String(longitude), String(latitude)] + by + ["ASC"]
                + (withDistance ? ["WITHDIST"] : [])
            #expect(await fixture.service.reply(command, session: fixture.anonymous) == .array(expected))
        }
    }

    /// COUNT n without ANY is answered from the n + 1 nearest members when they decide it, and by the
    /// full search when they do not: members at exactly the same place (equal distances), twins one
    /// quantization step apart, centres on a member, boxes, radii from 1 m to 20 km, n from 1 to 40.
    /// Every reply equals Redis's search of the whole sorted set.
    @Test func countWithoutAnyEqualsASearchOfTheWholeSortedSet() async throws {
        let fixture = try Fixture()
        var generator = SplitMix64(seed: 7)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(generator.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var points: [(longitude: Double, latitude: Double)] = (0..<400).map { _ in
            (uniform(28.9...29.1), uniform(40.95...41.05))
        }
        for copy in 0..<30 { points.append(points[copy % 6]) }  // exact duplicates
        for twin in 0..<20 { points.append((points[twin].longitude + 0.000_005, points[twin].latitude)) }
        var entries: [RedisGeoEntry<String>] = []
        var add = ["GEOADD", "dense"]
        for (index, point) in points.enumerated() {
            add += [String(point.longitude), String(point.latitude), "m\(index)"]
            entries.append(
                RedisGeoEntry(
                    score: Double(try GeoHash.encode(longitude: point.longitude, latitude: point.latitude)),
                    member: "m\(index)"))
        }
        #expect(await fixture.service.reply(add, session: fixture.admin) == .integer(Int(points.count)))
        entries.sort { $0.precedes($1) }
        for trial in 0..<300 {
            let onMember = trial % 3 == 0
            let centre: (longitude: Double, latitude: Double) =
                onMember ? points[Int(generator.next() % 40)] : (uniform(28.9...29.1), uniform(40.95...41.05))
            let size = [1.0, 50, 300, 1_000, 3_000, 20_000][trial % 6]
            let shape: RedisGeoShape =
                trial % 4 == 1 ? .box(width: size, height: size * 0.7, unit: .meters) : .radius(size, unit: .meters)
            let count = 1 + Int(generator.next() % 40)
            let ascending = trial % 2 == 0
            let search = try RedisGeoSearch(longitude: centre.longitude, latitude: centre.latitude, shape: shape)
            let expected = try search.matches(
                in: entries, order: ascending ? RedisGeoSearch.Order.ascending : .unsorted, count: .first(count)
            ).map {
                RESPReply.array([
                    .text($0.member), .text(RedisGeoText.distance(meters: $0.distanceMeters, unit: .meters)),
                ])
            }
            let by: [String]
            if case .box = shape {
                by = ["BYBOX", String(size), String(size * 0.7), "m"]
            } else {
                by = ["BYRADIUS", String(size), "m"]
            }
            let command =
                ["GEOSEARCH", "dense", "FROMLONLAT", String(centre.longitude), String(centre.latitude)] + by
                + (ascending ? ["ASC"] : []) + ["COUNT", String(count), "WITHDIST"]
            #expect(
                await fixture.service.reply(command, session: fixture.anonymous) == .array(expected),
                "\(command.joined(separator: " "))")
        }
    }

    @Test(
        arguments: [
            ("1.5", 1.5), ("-0", -0.0), ("1e3", 1000), ("0x10", 16), ("inf", Double.infinity), (" 1", nil), ("1 ", nil),
            ("", nil), ("nan", nil), ("1e400", nil), ("1e-400", nil), ("abc", nil),
            ("28.90500860848254", 28.90500860848254),
            ("-0.0", -0.0), (".5", 0.5), ("5.", 5), ("+1.5", 1.5), ("1.2.3", nil), ("--1", nil), ("-", nil), (".", nil),
            ("1\u{0}", nil), ("9007199254740993", 9_007_199_254_740_992), ("0.0000000000000000000001", 1e-22),
        ] as [(String, Double?)])
    func floatsAreReadAsRedisReadsThem(text: String, value: Double?) {
        let read = RedisArguments.double(text)
        #expect(read == value)
        #expect(read?.sign == value?.sign)
    }

    /// Plain decimals (read without `strtod` when their digits allow it) are read as `strtod`
    /// reads them, to the bit: 1 to 20 digits, the point anywhere or nowhere, either sign.
    @Test func plainDecimalsAreReadAsStrtodReadsThem() {
        var random = SplitMix64(seed: 20_261_128)
        var fast = 0
        for _ in 0..<200_000 {
            let count = Int(random.next() % 20) + 1
            var digits = (0..<count).map { _ in Character(String(random.next() % 10)) }
            if random.next() % 4 != 0 { digits.insert(".", at: Int(random.next() % UInt64(count + 1))) }
            let text = (random.next() % 2 == 0 ? "-" : "") + String(digits)
            let expected = text.withCString { strtod($0, nil) }
            #expect(RedisArguments.double(text)?.bitPattern == expected.bitPattern, "\(text)")
            let plain = text.utf8.withContiguousStorageIfAvailable(RedisArguments.plainDecimal)
            if case .some(.some) = plain { fast += 1 }
        }
        // Most take the fast path, and some do not.
        #expect(fast > 100_000 && fast < 200_000)
    }

    @Test(
        arguments: [
            ("0", 0), ("7", 7), ("-12", -12), ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
            ("01", nil), ("-0", nil), ("+1", nil), ("9223372036854775808", nil), ("1.0", nil), ("", nil),
        ] as [(String, Int64?)])
    func integersAreReadAsRedisReadsThem(text: String, value: Int64?) {
        #expect(RedisArguments.integer(text) == value)
    }

    /// Keywords compare as C's `strcasecmp`: ASCII letters in either case, and the argument ends
    /// at a NUL byte.
    @Test(
        arguments: [
            ("asc", true), ("ASC", true), ("aSc", true), ("asc\u{0}x", true), ("asc\u{0}", true), ("ascx", false),
            ("as", false), ("", false), ("a\u{0}c", false), ("as\u{0}", false), ("asć", false), ("desc", false),
            ("Asc", true), ("\u{0}sc", false), ("Asc\u{0}", true), ("!sc", false), ("Äsc", false),
        ] as [(String, Bool)])
    func keywordsMatchAsStrcasecmp(argument: String, matches: Bool) {
        #expect(RedisArguments.matches(argument, "asc") == matches)
    }

    /// Only ASCII letters fold: no other byte becomes a digit, a letter or `|` by it.
    @Test func onlyLettersFold() {
        #expect(RedisArguments.matches("WITHDIST", "withdist"))
        #expect(!RedisArguments.matches("\u{10}", "0"))
        #expect(!RedisArguments.matches("\u{5C}", "|"))
        #expect(!RedisArguments.matches("@", "`"))
        #expect(RedisArguments.matches("`", "`"))
    }
}

extension LineService {
    /// Runs one command and waits for its reply (tests only).
    func reply(_ arguments: [String], session: Session) async -> RESPReply {
        await withCheckedContinuation { continuation in
            execute(arguments, session: session) { reply, _ in continuation.resume(returning: reply) }
        }
    }
}
