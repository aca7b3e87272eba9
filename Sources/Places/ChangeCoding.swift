import Foundation
import Geo

/// The text form of a `DirectoryChange` in a store's change log: one line of tab-separated fields,
/// the first naming the change. Every store writes and reads this one form, so a log written by
/// one version of the code reads back the same in another, and a change survives the round trip
/// exactly (coordinates in the shortest text that reads back to the same `Double`).
///
/// | change | fields after the tag |
/// |---|---|
/// | `P` putPlace | kind, id, name, lat, lon, then attribute name and value pairs in order |
/// | `R` removePlace | kind, id |
/// | `A` addUser / `U` putUser | id, name, lat, lon (both empty: no location), visibility, token digest (hex), precision, location expiry, private until |
/// | `M` moveUser | id, lat, lon (both empty: location forgotten), expiry |
/// | `V` setVisibility | id, `public` or `private`, private until |
/// | `N` setPrecision | id, `exact`, `street`, `district` or `city` |
/// | `X` forgetLocation | id, the expiry it is for |
/// | `G` endPrivacy | id, the private-until it is for |
///
/// Times are whole seconds since 1970 (UTC), empty for none. A user line of the first version (no
/// precision and timers) reads as `LocationPrecision.stored` without timers; `M` and `V` lines
/// without their last field read without a timer.
/// | `D` removeUser | id |
/// | `T` setAdminToken | token digest (hex) |
///
/// A tab, line feed, carriage return or backslash inside a field is written `\t`, `\n`, `\r`,
/// `\\`. A token's digest is the only form a token takes.
public enum ChangeCoding {
    /// The change as one line of text.
    public static func encode(_ change: DirectoryChange) -> String {
        var fields: [String]
        switch change {
        case .putPlace(let place):
            var bytes: [UInt8] = []
            appendPutPlace(place, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .removePlace(let kind, let id):
            fields = ["R", kind, id]
        case .addUser(let user, let digest):
            fields = ["A"] + userFields(user, digest)
        case .putUser(let user, let digest):
            fields = ["U"] + userFields(user, digest)
        case .moveUser(let id, let location, let expiry):
            fields = ["M", id] + locationFields(location) + [time(expiry)]
        case .setVisibility(let id, let visibility, let until):
            fields = ["V", id, visibility.rawValue, time(until)]
        case .setPrecision(let id, let precision):
            fields = ["N", id, precision.rawValue]
        case .forgetLocation(let id, let expiry):
            fields = ["X", id, time(expiry)]
        case .endPrivacy(let id, let until):
            fields = ["G", id, time(until)]
        case .removeUser(let id):
            fields = ["D", id]
        case .setAdminToken(let digest):
            fields = ["T", hex(digest)]
        }
        return fields.map(escaped).joined(separator: "\t")
    }

    /// Appends `encode(.putPlace(place))`'s UTF-8 bytes to `bytes`, without a `String` per field:
    /// the bulk import writes one such line per place.
    public static func appendPutPlace(_ place: Place, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "P"))
        appendField(place.kind, to: &bytes)
        appendField(place.id, to: &bytes)
        appendField(place.name, to: &bytes)
        // Numbers hold no character that needs escaping.
        bytes.append(0x09)
        bytes += NumberText.plain(place.coordinate.latitude).utf8
        bytes.append(0x09)
        bytes += NumberText.plain(place.coordinate.longitude).utf8
        for (name, value) in zip(place.attributeNames, place.attributeValues) {
            appendField(name, to: &bytes)
            appendField(value, to: &bytes)
        }
    }

    private static func appendField(_ field: String, to bytes: inout [UInt8]) {
        var field = field
        field.withUTF8 { appendField($0, to: &bytes) }
    }

    /// Appends a tab and the field, escaped as `escaped` does (byte by byte: the four characters
    /// escaped are ASCII, never part of a longer UTF-8 sequence).
    private static func appendField(_ field: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(0x09)
        for byte in field {
            switch byte {
            case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case 0x5C: bytes += [0x5C, 0x5C]
            default: bytes.append(byte)
            }
        }
    }

    /// The change a line of `encode` holds.
    ///
    /// - Throws: `PlacesError.storeFailed` naming what is wrong with a line that is not one.
    public static func decode(_ text: String) throws(PlacesError) -> DirectoryChange {
        let fields = split(text)
        func field(_ index: Int) throws(PlacesError) -> String {
            guard index < fields.count else { throw corrupt(text, "too few fields") }
            return fields[index]
        }
        switch fields.first {
        case "P":
            guard fields.count >= 6, fields.count % 2 == 0 else { throw corrupt(text, "a place needs kind to lon") }
            var names: [String] = []
            var values: [String] = []
            var index = 6
            while index + 1 < fields.count {
                names.append(fields[index])
                values.append(fields[index + 1])
                index += 2
            }
            guard let coordinate = try location(fields[4], fields[5], text) else {
                throw corrupt(text, "a place needs a location")
            }
            return .putPlace(
                Place(
                    id: fields[2], kind: fields[1], name: fields[3], coordinate: coordinate, attributeNames: names,
                    attributeValues: values))
        case "R":
            return .removePlace(kind: try field(1), id: try field(2))
        case "A", "U":
            guard fields.count == 7 || fields.count == 10 else { throw corrupt(text, "a user needs 6 or 9 fields") }
            guard let visibility = Visibility(rawValue: fields[5]) else { throw corrupt(text, "bad visibility") }
            var user = User(
                id: fields[1], name: fields[2], location: try location(fields[3], fields[4], text),
                visibility: visibility, precision: .stored)
            if fields.count == 10 {
                guard let precision = LocationPrecision(rawValue: fields[7]) else {
                    throw corrupt(text, "bad precision")
                }
                user.precision = precision
                user.locationExpiresAt = try time(fields[8], text)
                user.privateUntil = try time(fields[9], text)
            }
            let digest = try digest(fields[6], text)
            return fields[0] == "A" ? .addUser(user, tokenDigest: digest) : .putUser(user, tokenDigest: digest)
        case "M":
            return .moveUser(
                try field(1), to: try location(try field(2), try field(3), text),
                expiresAt: fields.count > 4 ? try time(fields[4], text) : nil)
        case "V":
            guard let visibility = Visibility(rawValue: try field(2)) else { throw corrupt(text, "bad visibility") }
            return .setVisibility(
                try field(1), visibility, privateUntil: fields.count > 3 ? try time(fields[3], text) : nil)
        case "N":
            guard let precision = LocationPrecision(rawValue: try field(2)) else {
                throw corrupt(text, "bad precision")
            }
            return .setPrecision(try field(1), precision)
        case "X", "G":
            guard let at = try time(try field(2), text) else { throw corrupt(text, "a timer needs its time") }
            return fields[0] == "X"
                ? .forgetLocation(try field(1), expiresAt: at) : .endPrivacy(try field(1), privateUntil: at)
        case "D":
            return .removeUser(try field(1))
        case "T":
            return .setAdminToken(try digest(try field(1), text))
        default:
            throw corrupt(text, "unknown change")
        }
    }

    private static func userFields(_ user: User, _ digest: TokenDigest) -> [String] {
        [user.id, user.name] + locationFields(user.location) + [
            user.visibility.rawValue, hex(digest), user.effectivePrecision.rawValue, time(user.locationExpiresAt),
            time(user.privateUntil),
        ]
    }

    private static func time(_ date: Date?) -> String {
        date.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? ""
    }

    private static func time(_ text: String, _ line: String) throws(PlacesError) -> Date? {
        if text.isEmpty { return nil }
        guard let seconds = Int64(text), abs(seconds) < 1 << 40 else { throw corrupt(line, "bad time") }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    private static func locationFields(_ location: Coordinate?) -> [String] {
        guard let location else { return ["", ""] }
        return [NumberText.plain(location.latitude), NumberText.plain(location.longitude)]
    }

    private static func location(_ latitude: String, _ longitude: String, _ text: String) throws(PlacesError)
        -> Coordinate?
    {
        if latitude.isEmpty && longitude.isEmpty { return nil }
        guard let lat = Double(latitude), let lon = Double(longitude),
            let coordinate = try? Coordinate(latitude: lat, longitude: lon)
        else { throw corrupt(text, "bad coordinates") }
        return coordinate
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func hex(_ digest: TokenDigest) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for byte in digest.bytes {
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 15)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func digest(_ text: String, _ line: String) throws(PlacesError) -> TokenDigest {
        let utf8 = Array(text.utf8)
        guard utf8.count == 64 else { throw corrupt(line, "a token digest is 64 hex digits") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else {
                throw corrupt(line, "a token digest is 64 hex digits")
            }
            bytes.append(high << 4 | low)
        }
        return TokenDigest(bytes: bytes)!
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private static func escaped(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else {
            return field
        }
        var result = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The fields of a line, unescaped.
    private static func split(_ text: String) -> [String] {
        if !text.utf8.contains(0x5C) {
            return text.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        var fields: [String] = []
        var current: [UInt8] = []
        var escaping = false
        for byte in text.utf8 {
            if escaping {
                switch byte {
                case UInt8(ascii: "t"): current.append(0x09)
                case UInt8(ascii: "n"): current.append(0x0A)
                case UInt8(ascii: "r"): current.append(0x0D)
                default: current.append(byte)
                }
                escaping = false
            } else if byte == 0x5C {
                escaping = true
            } else if byte == 0x09 {
                fields.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        fields.append(String(decoding: current, as: UTF8.self))
        return fields
    }

    /// The entry itself is not quoted: it may hold a private user's record.
    private static func corrupt(_ line: String, _ what: String) -> PlacesError {
        let tag = line.prefix { $0 != "\t" }.prefix(8)
        let fields = line.utf8.count(where: { $0 == 0x09 }) + 1
        return .storeFailed(
            "an unreadable change-log entry (\(what); tag \(PlacesError.quoted(String(tag))), \(fields) fields): "
                + "written by a newer Vicinity, or edited by hand")
    }
}
