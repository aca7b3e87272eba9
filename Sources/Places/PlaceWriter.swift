import Geo

/// Writes places as CSV or GeoJSON that `PlaceCSVReader` and `GeoJSONReader` read back to the same
/// places (ids, kinds, names, coordinates exactly, attributes and their order).
///
/// Coordinates are written in the shortest form that reads back to the same `Double`.
public enum PlaceWriter {
    /// RFC 4180 CSV: `id,name,lat,lon`, then `kind` when asked, then every attribute name in order
    /// of first appearance. Fields holding a comma, a quote, a line break or outer spaces are quoted.
    /// An attribute named like a column (`id`, `name`, `lat`, `lon`, `kind`, possible in GeoJSON)
    /// cannot be a CSV column: it is left out (see `csvReservedAttributes`).
    public static func csv(_ places: [Place], withKind: Bool) -> String {
        var attributeNames: [String] = []
        var seen = Set(csvReservedNames)
        for place in places {
            for name in place.attributeNames where seen.insert(name).inserted { attributeNames.append(name) }
        }
        var header = PlaceCSVReader.requiredColumns
        if withKind { header.append("kind") }
        header += attributeNames
        var text = header.map(field).joined(separator: ",") + "\r\n"
        for place in places {
            var row = [
                field(place.id), field(place.name), NumberText.plain(place.coordinate.latitude),
                NumberText.plain(place.coordinate.longitude),
            ]
            if withKind { row.append(field(place.kind)) }
            for name in attributeNames { row.append(field(place.attribute(name) ?? "")) }
            text += row.joined(separator: ",") + "\r\n"
        }
        return text
    }

    /// The names CSV uses for its own columns.
    static let csvReservedNames = PlaceCSVReader.requiredColumns + ["kind"]

    /// The attribute names of `places` that `csv` cannot write, sorted.
    public static func csvReservedAttributes(_ places: [Place]) -> [String] {
        let reserved = Set(csvReservedNames)
        var found = Set<String>()
        for place in places { found.formUnion(place.attributeNames.filter(reserved.contains)) }
        return found.sorted()
    }

    /// An RFC 7946 FeatureCollection of Points (`[longitude, latitude]`); each feature's `id` is the
    /// place's id and its properties are `name`, `kind` and the attributes, all strings.
    public static func geoJSON(_ places: [Place]) -> String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (offset, place) in places.enumerated() {
            if offset > 0 { text += "," }
            text += "\n{\"type\":\"Feature\",\"id\":\(jsonString(place.id)),\"geometry\":{\"type\":\"Point\","
            text += "\"coordinates\":[\(NumberText.plain(place.coordinate.longitude)),"
            text += "\(NumberText.plain(place.coordinate.latitude))]},\"properties\":{"
            var properties = [("name", place.name), ("kind", place.kind)]
            properties += place.orderedAttributes.filter { $0.name != "name" && $0.name != "kind" && $0.name != "id" }
                .map { ($0.name, $0.value) }
            text += properties.map { jsonString($0.0) + ":" + jsonString($0.1) }.joined(separator: ",")
            text += "}}"
        }
        return text + "\n]}\n"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    private static func field(_ text: String) -> String {
        // By bytes: "\r\n" is one Character, equal to neither "\r" nor "\n".
        let special = text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x2C || $0 == 0x22 }
        let outerSpace = text.first?.isWhitespace == true || text.last?.isWhitespace == true
        guard special || outerSpace else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
