import Foundation
import Geo

@testable import RedisGeo

/// `Fixtures/redis-geo-reference.json`: replies of a real redis-server 7.0.15 to GEO commands, made
/// by `Fixtures/make_redis_geo_reference.py`. Replies are raw RESP2, byte for byte.
struct RedisGeoReference: Decodable, Sendable {
    struct Point: Decodable, Sendable {
        var longitude: String
        var latitude: String
        var zscore: String
        var geopos: String
        var geohash: String
    }

    struct Invalid: Decodable, Sendable {
        var longitude: String
        var latitude: String
        var reply: String
    }

    struct ZAdd: Decodable, Sendable {
        var score: String
        var geopos: String
        var geohash: String
    }

    /// GEODIST between points `a` and `b`; `replies` maps a unit argument ("default" for none) to
    /// the reply.
    struct Distance: Decodable, Sendable {
        var a: Int
        var b: Int
        var replies: [String: String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            a = try container.decode(Int.self, forKey: AnyKey("a"))
            b = try container.decode(Int.self, forKey: AnyKey("b"))
            replies = [:]
            for key in container.allKeys where key.stringValue != "a" && key.stringValue != "b" {
                replies[key.stringValue] = try container.decode(String.self, forKey: key)
            }
        }
    }

    struct Member: Decodable, Sendable {
        var member: String
        var longitude: String
        var latitude: String
    }

    struct Command: Decodable, Sendable {
        var args: [String]
        var reply: String
    }

    var redis_version: String
    var points: [Point]
    var invalid: [Invalid]
    var zadd: [ZAdd]
    var distances: [Distance]
    var members: [Member]
    var searches: [Command]
    var errors: [Command]

    static let shared: RedisGeoReference? = {
        guard
            let url = Bundle.module.url(
                forResource: "redis-geo-reference", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return try? JSONDecoder().decode(RedisGeoReference.self, from: data)
    }()
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// RESP2 replies as Redis writes them, for comparing with the fixture.
enum RESP {
    static func bulk(_ text: String) -> String { "$\(text.utf8.count)\r\n\(text)\r\n" }
    static func array(_ count: Int) -> String { "*\(count)\r\n" }
    static func integer(_ text: String) -> String { ":\(text)\r\n" }
    static func error(_ message: String) -> String { "-\(message)\r\n" }
}

/// A GEOSEARCH argument list (after the key) parsed for the tests, and the reply it should get.
struct ParsedGeoSearch {
    var fromMember: String?
    var longitude = 0.0
    var latitude = 0.0
    var shape = RedisGeoShape.radius(0, unit: .meters)
    var withDistance = false
    var withCoordinates = false
    var withHash = false
    var order = RedisGeoSearch.Order.unsorted
    var count = RedisGeoSearch.Count.all

    init?(_ args: [String]) {
        var index = 0
        func next() -> String? {
            guard index < args.count else { return nil }
            defer { index += 1 }
            return args[index]
        }
        var countValue: Int?
        var any = false
        while let word = next() {
            switch word.uppercased() {
            case "FROMMEMBER": fromMember = next()
            case "FROMLONLAT":
                guard let lon = next().flatMap(Double.init), let lat = next().flatMap(Double.init) else { return nil }
                (longitude, latitude) = (lon, lat)
            case "BYRADIUS":
                guard let radius = next().flatMap(Double.init), let unit = next().flatMap(RedisGeoUnit.init(argument:))
                else { return nil }
                shape = .radius(radius, unit: unit)
            case "BYBOX":
                guard let width = next().flatMap(Double.init), let height = next().flatMap(Double.init),
                    let unit = next().flatMap(RedisGeoUnit.init(argument:))
                else { return nil }
                shape = .box(width: width, height: height, unit: unit)
            case "WITHDIST": withDistance = true
            case "WITHCOORD": withCoordinates = true
            case "WITHHASH": withHash = true
            case "ASC": order = .ascending
            case "DESC": order = .descending
            case "COUNT": countValue = next().flatMap { Int($0) }
            case "ANY": any = true
            default: return nil
            }
        }
        if let countValue { count = any ? .any(countValue) : .first(countValue) }
    }

    /// The RESP2 reply Redis sends for these matches.
    func reply(_ matches: [RedisGeoMatch<String>]) -> String {
        let options = [withDistance, withHash, withCoordinates].filter { $0 }.count
        var text = RESP.array(matches.count)
        for match in matches {
            if options > 0 { text += RESP.array(options + 1) }
            text += RESP.bulk(match.member)
            if withDistance { text += RESP.bulk(RedisGeoText.distance(meters: match.distanceMeters, unit: shape.unit)) }
            if withHash { text += RESP.integer(RedisGeoText.hash(score: match.score)) }
            if withCoordinates {
                text +=
                    RESP.array(2) + RESP.bulk(RedisGeoText.coordinate(match.longitude))
                    + RESP.bulk(RedisGeoText.coordinate(match.latitude))
            }
        }
        return text
    }
}
