import Geo

/// The values every surface takes, each with its one rule and message: the CLI, the line protocol
/// and the HTTP API parse with these and only translate the `PlacesError` into their own form.
///
/// Ranges are the HTTP contract's (`openapi.yaml`), which every surface now shares: distances
/// 0 to 20,000 km, counts and limits 1 to 10,000, map sizes 30–1000 × 10–1000 characters.
public enum Vocabulary {
    // MARK: - Where

    /// Degrees north, -90 to 90.
    public static let latitude = ValueRule<Double>.decimal(
        "latitude", -90...90, expected: "a number of degrees from -90 to 90")
    /// Degrees east, -180 to 180.
    public static let longitude = ValueRule<Double>.decimal(
        "longitude", -180...180, expected: "a number of degrees from -180 to 180")

    /// A point from its latitude and longitude as written (latitude first).
    public static func coordinate(latitude: String, longitude: String) throws(PlacesError) -> Coordinate {
        let lat = try Vocabulary.latitude.parse(latitude)
        let lon = try Vocabulary.longitude.parse(longitude)
        do { return try Coordinate(latitude: lat, longitude: lon) } catch { throw .geo(error) }
    }

    // MARK: - How far, how many

    /// The longest distance any query takes, meters: 20,000 km, about half the way round the
    /// Earth (20,004 km along a meridian on WGS84), so no place is farther from any point.
    public static let maximumDistanceMeters = 20_000_000.0

    /// A search radius in meters, 0 to 20,000,000, inclusive.
    public static let radius = distance("radius")
    /// The farthest a nearest-N query looks, meters, 0 to 20,000,000.
    public static let maxDistance = distance("max distance")

    /// A distance written in `unit`, returned in meters: 0 to 20,000 km in that unit.
    public static func distance(_ noun: String, unit: DistanceUnit = .meters) -> ValueRule<Double> {
        let largest = maximumDistanceMeters / unit.meters
        // Rounded down to a tenth, so that the largest value the message names is accepted.
        let shown = NumberText.plain((largest * 10).rounded(.down) / 10)
        let expected = unit == .meters ? "0 to \(shown) meters" : "0 to \(shown) \(unit.name)"
        return ValueRule(
            noun: noun, expected: expected, read: { DecimalNumber.parse($0).map { $0 * unit.meters } },
            accepts: { $0.isFinite && (0...maximumDistanceMeters).contains($0) },
            show: { NumberText.plain($0 / unit.meters) })
    }

    /// How many places a nearest-N query returns, 1 to 10,000.
    public static let count = ValueRule<Int>.integer("count", 1...10_000)
    /// The most places a radius query lists, 1 to 10,000 (the total still counts them all).
    public static let limit = ValueRule<Int>.integer("limit", 1...10_000)

    /// The distance model by its name: `geodesic`, `haversine` or `projected`.
    public static let model = ValueRule<ModelName>(
        noun: "model", expected: "geodesic, haversine or projected", read: { ModelName(rawValue: $0) },
        show: { $0.rawValue })

    /// The sphere's radius for the haversine model, meters, 1 to 10,000,000.
    public static let sphereRadius = ValueRule<Double>.decimal(
        "sphere radius", Haversine.validRadii, expected: "1 to 10000000 meters")

    /// A unit of distance as Redis names them: m, km, ft or mi, in any letter case.
    public static let unit = ValueRule<DistanceUnit>(
        noun: "unit", expected: "m, km, ft or mi", read: { DistanceUnit($0) }, show: { $0.name })

    // MARK: - Maps

    /// A map's width in terminal columns, 30 to 1000.
    public static let mapWidth = ValueRule<Int>.integer("width", 30...1000)
    /// A map's height in lines, 10 to 1000.
    public static let mapHeight = ValueRule<Int>.integer("height", 10...1000)

    /// Half the side of a map's drawn square, meters, 1 to 20,000,000: below a meter a cell is
    /// smaller than any coordinate in the data can place (`--extent 1e-10` once asked for a 34 GB
    /// ring).
    public static let mapExtent = ValueRule<Double>.decimal(
        "extent", 1...maximumDistanceMeters, expected: "a number of meters from 1 to 20000000 (20,000 km)")

    // MARK: - Who and what

    /// The word for every place kind at once (`--kind all`), on every command that takes a kind:
    /// no place may have it as its kind (`placeKind` refuses it, as it refuses `user`).
    public static let everyKind = "all"

    /// The collection a query searches: `user` (people), `all` (every place kind), or a place kind.
    public static let queryKind = ValueRule<String>(
        noun: "kind", expected: kindExpected,
        read: { $0 }, accepts: { $0 == PlaceDirectory.userKind || $0 == everyKind || isPlaceKind($0) })

    /// A kind to search in data files (`--data`): any text of 1 character or more, as the CSV and
    /// GeoJSON readers take a file's kinds (a file is read as it is; writing one into a database
    /// checks `placeKind`).
    public static let dataKind = ValueRule<String>(
        noun: "kind", expected: "a name such as pharmacy", read: { $0 }, accepts: { !$0.isEmpty })

    /// A place kind: 1 to 64 characters without spaces or control characters, not `user` (people)
    /// nor `all` (every kind).
    public static let placeKind = ValueRule<String>(
        noun: "kind", expected: kindExpected, read: { $0 }, accepts: isPlaceKind,
        failure: { $0 == PlaceDirectory.userKind || $0 == everyKind ? .reservedKind($0) : .invalidKind($0) })

    /// A place id: 1 to 128 characters without control characters.
    public static let placeID = ValueRule<String>(
        noun: "place id", expected: identifierExpected, read: { $0 }, accepts: { isIdentifier($0) },
        failure: { .invalidPlaceID($0) })

    /// A new user's id: 1 to 128 characters without control characters or `%`, not `nearby`
    /// (the HTTP API's `/v1/users/nearby` would hide such a user).
    ///
    /// `%` is refused because a user id goes into URL paths, and clients that decode a path
    /// parameter before encoding it (schemathesis does) turn an id holding `%41` into another
    /// user's. Place ids keep `%`: they are Redis members, which take any bytes.
    public static let userID = ValueRule<String>(
        noun: "user id", expected: identifierExpected + " or \"%\", not \"nearby\"", read: { $0 },
        accepts: { isIdentifier($0) && !$0.utf8.contains(UInt8(ascii: "%")) && $0 != reservedUserID },
        failure: { .invalidUserID($0) })

    /// A stored user's id, as a path names it: 1 to 128 characters without control characters
    /// (`nearby` and `%` too: a store written before `userID` refused them may hold one).
    public static let existingUserID = ValueRule<String>(
        noun: "user id", expected: identifierExpected, read: { $0 }, accepts: { isIdentifier($0) },
        failure: { .invalidUserID($0) })

    /// A person's or a place's display name: at most 256 characters, no control characters.
    public static let name = ValueRule<String>(
        noun: "name", expected: "at most 256 characters, no control characters", read: { $0 },
        accepts: { fits($0, limit: 256) && !hasControls($0) })

    /// A place attribute's name: 1 to 64 characters without control characters, not one of the
    /// CSV columns a place already has (an attribute so named could not be exported and read back).
    public static let attributeName = ValueRule<String>(
        noun: "attribute name", expected: "1 to 64 characters, no control characters, not id, name, lat, lon or kind",
        read: { $0 },
        accepts: { !$0.isEmpty && fits($0, limit: 64) && !hasControls($0) && !reservedAttributeNames.contains($0) })

    /// A place attribute's value: at most 512 characters.
    public static let attributeValue = ValueRule<String>(
        noun: "attribute value", expected: "at most 512 characters", read: { $0 }, accepts: { fits($0, limit: 512) })

    /// The most attributes a place has.
    public static let maximumAttributes = 32

    /// `public` or `private`, in any letter case.
    public static let visibility = ValueRule<Visibility>(
        noun: "visibility", expected: "public or private", read: { Visibility(rawValue: $0.lowercased()) },
        show: { $0.rawValue })

    /// `exact`, `street`, `district` or `city`, in any letter case.
    public static let precision = ValueRule<LocationPrecision>(
        noun: "precision", expected: "exact, street (~100 m), district (~1 km) or city (~10 km)",
        read: { LocationPrecision(rawValue: $0.lowercased()) }, show: { $0.rawValue })

    /// How long a user stays private before turning public by themselves (`--for`, `FOR`,
    /// `for_seconds`): whole seconds from 1 second to 10 years, written as seconds or as numbers
    /// with units `d`, `h`, `m`, `s` (`3h`, `90m`, `1d12h`).
    public static let privateSpell = ValueRule<Int>(
        noun: "duration", expected: "1s to 3650d, as seconds or with units d, h, m, s (e.g. 3h, 90m, 1d12h)",
        read: { Vocabulary.seconds(in: $0) }, accepts: { (1...315_360_000).contains($0) })

    /// How long a location lasts without a move (`--user-location-ttl`): 0 (for ever) to 3650
    /// days, written as `privateSpell` is.
    public static let locationTTL = ValueRule<Int>(
        noun: "location lifetime",
        expected: "0 (never forget) to 3650d, as seconds or with units d, h, m, s (e.g. 12h)",
        read: { Vocabulary.seconds(in: $0) }, accepts: { (0...315_360_000).contains($0) })

    /// The seconds a duration text says: digits alone, or numbers each followed by `d`, `h`, `m`
    /// or `s` (`1d12h`); nil for anything else or beyond 10^12 seconds.
    static func seconds(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 32 else { return nil }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return Int(text) }
        var total = 0
        var number: Int?
        for byte in bytes {
            if byte >= 0x30 && byte <= 0x39 {
                number = (number ?? 0) * 10 + Int(byte - 0x30)
                guard number! <= 1_000_000_000_000 else { return nil }
                continue
            }
            let unit: Int
            switch byte {
            case UInt8(ascii: "d"), UInt8(ascii: "D"): unit = 86_400
            case UInt8(ascii: "h"), UInt8(ascii: "H"): unit = 3_600
            case UInt8(ascii: "m"), UInt8(ascii: "M"): unit = 60
            case UInt8(ascii: "s"), UInt8(ascii: "S"): unit = 1
            default: return nil
            }
            guard let value = number else { return nil }
            total += value * unit
            guard total <= 1_000_000_000_000 else { return nil }
            number = nil
        }
        return number == nil ? total : nil
    }

    /// The column names of a place in CSV: no attribute may take one.
    public static let reservedAttributeNames: Set<String> = ["id", "name", "lat", "lon", "kind"]

    /// The user id the HTTP API's routes keep for themselves.
    public static let reservedUserID = "nearby"

    // MARK: - Text

    private static let kindExpected = "1 to 64 characters, no spaces or control characters"
    private static let identifierExpected = "1 to 128 characters, no control characters"

    private static func isPlaceKind(_ kind: String) -> Bool {
        let printableASCII = kind.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        let spaces = !printableASCII && kind.unicodeScalars.contains { $0.properties.isWhitespace }
        return !kind.isEmpty && fits(kind, limit: 64) && !spaces && !hasControls(kind)
            && kind != PlaceDirectory.userKind && kind != everyKind
    }

    static func isIdentifier(_ text: String) -> Bool { !text.isEmpty && fits(text, limit: 128) && !hasControls(text) }

    /// Whether the text holds a control character (general category Cc: U+0000–U+001F,
    /// U+007F–U+009F), found in the UTF-8 bytes without decoding: U+0080–U+009F are C2 80–C2 9F.
    public static func hasControls(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) { return true }
            previous = byte
        }
        return false
    }

    /// At most `limit` characters, counted as Unicode scalars (as SQLite's `length()` counts them:
    /// `e` + U+0301 is two), and only when the UTF-8 length leaves a doubt.
    public static func fits(_ text: String, limit: Int) -> Bool {
        text.utf8.count <= limit || text.unicodeScalars.count <= limit
    }
}

/// The distance models by the names every surface uses.
public enum ModelName: String, Sendable, CaseIterable {
    /// The WGS84 ellipsoid (Karney, through PROJ).
    case geodesic
    /// A sphere, by default of the IUGG mean radius.
    case haversine
    /// The plane of a projected CRS (the UTM zone of the query point by default).
    case projected
}
