import Geo
import Places

/// Checks of JSON body fields. The generated code decodes the types (and refuses unknown fields)
/// but checks no range, length or pattern; a field that breaks one is a 422 naming its JSON
/// pointer.
enum BodyValues {
    /// A `Location`-shaped pair at `pointer` (`""` for the body itself, `/location` inside it).
    static func coordinate(_ latitude: Double, _ longitude: Double, at pointer: String = "")
        throws(HTTPAPIError) -> Coordinate
    {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw invalid(
                "latitude", NumberText.plain(latitude), at: pointer + "/lat",
                expected: "a number of degrees from -90 to 90")
        }
        guard longitude.isFinite, abs(longitude) <= 180 else {
            throw invalid(
                "longitude", NumberText.plain(longitude), at: pointer + "/lon",
                expected: "a number of degrees from -180 to 180")
        }
        do { return try Coordinate(latitude: latitude, longitude: longitude) } catch { throw .places(.geo(error)) }
    }

    /// A name of 0 to 256 characters without control characters.
    static func displayName(_ name: String, at pointer: String) throws(HTTPAPIError) -> String {
        guard TextRules.isDisplayName(name) else {
            throw invalid(
                "name", HTTPAPIError.quoted(name), at: pointer,
                expected: "at most 256 characters, no control characters")
        }
        return name
    }

    /// The names a CSV row uses for its own columns: an attribute so named could not be
    /// exported to CSV and read back.
    static let reservedAttributeNames: Set<String> = ["id", "name", "lat", "lon", "kind"]

    /// At most 32 attributes; names of 1 to 64 characters without control characters and not a
    /// CSV column's; values up to 512 characters.
    static func attributes(_ attributes: [Components.Schemas.Attribute]?) throws(HTTPAPIError)
        -> (names: [String], values: [String])
    {
        let attributes = attributes ?? []
        guard attributes.count <= 32 else {
            throw invalid("attributes", "\(attributes.count) items", at: "/attributes", expected: "at most 32")
        }
        for (index, attribute) in attributes.enumerated() {
            let name = attribute.name
            guard !name.isEmpty, name.unicodeScalars.count <= 64, !TextRules.hasControls(name),
                !reservedAttributeNames.contains(name)
            else {
                throw invalid(
                    "attribute name", HTTPAPIError.quoted(name), at: "/attributes/\(index)/name",
                    expected: "1 to 64 characters, no control characters, not id, name, lat, lon or kind")
            }
            guard attribute.value.unicodeScalars.count <= 512 else {
                throw invalid(
                    "attribute value", HTTPAPIError.quoted(attribute.value), at: "/attributes/\(index)/value",
                    expected: "at most 512 characters")
            }
        }
        return (attributes.map(\.name), attributes.map(\.value))
    }

    /// A new user's id: 1 to 128 characters without control characters, not `nearby`.
    static func userID(_ id: String) throws(HTTPAPIError) -> String {
        guard TextRules.isIdentifier(id, limit: 128), id != "nearby" else {
            throw invalid(
                "user id", HTTPAPIError.quoted(id), at: "/id",
                expected: TextRules.identifierRule + ", not \"nearby\"")
        }
        return id
    }

    /// `invalid <noun> <value> at <pointer>: expected <rule>` (the value as JSON shows it).
    static func invalid(_ noun: String, _ shown: String, at pointer: String, expected: String) -> HTTPAPIError {
        .invalidBody(
            pointer: pointer, detail: "invalid \(noun) \(shown) at \(pointer): expected \(expected)",
            reason: "expected \(expected)")
    }
}
