import Geo
import Places

/// Checks of JSON body fields with `Vocabulary`'s rules. The generated code decodes the types
/// (and refuses unknown fields) but checks no range, length or pattern; a field that breaks one
/// is a 422 naming its JSON pointer.
enum BodyValues {
    /// A `Location`-shaped pair at `pointer` (`""` for the body itself, `/location` inside it).
    static func coordinate(_ latitude: Double, _ longitude: Double, at pointer: String = "")
        throws(HTTPAPIError) -> Coordinate
    {
        let lat = try check(latitude, Vocabulary.latitude, at: pointer + "/lat")
        let lon = try check(longitude, Vocabulary.longitude, at: pointer + "/lon")
        do { return try Coordinate(latitude: lat, longitude: lon) } catch { throw .places(.geo(error)) }
    }

    /// A name of 0 to 256 characters without control characters.
    static func displayName(_ name: String, at pointer: String) throws(HTTPAPIError) -> String {
        try check(name, Vocabulary.name, at: pointer)
    }

    /// At most `Vocabulary.maximumAttributes` attributes with valid names and values.
    static func attributes(_ attributes: [Components.Schemas.Attribute]?) throws(HTTPAPIError)
        -> (names: [String], values: [String])
    {
        let attributes = attributes ?? []
        guard attributes.count <= Vocabulary.maximumAttributes else {
            throw .invalidBody(
                pointer: "/attributes",
                detail: "invalid attributes \"\(attributes.count) items\" at /attributes: "
                    + "expected at most \(Vocabulary.maximumAttributes)",
                reason: "expected at most \(Vocabulary.maximumAttributes)")
        }
        for (index, attribute) in attributes.enumerated() {
            _ = try check(attribute.name, Vocabulary.attributeName, at: "/attributes/\(index)/name")
            _ = try check(attribute.value, Vocabulary.attributeValue, at: "/attributes/\(index)/value")
        }
        return (attributes.map(\.name), attributes.map(\.value))
    }

    /// A new user's id (`Vocabulary.userID`).
    static func userID(_ id: String) throws(HTTPAPIError) -> String {
        try check(id, Vocabulary.userID, at: "/id")
    }

    /// `for_seconds` of a private visibility change: 1 s to 10 years (`Vocabulary.privateSpell`).
    /// The contract's oneOf keeps it off public changes (an unknown field there).
    static func privateSpell(_ seconds: Int) throws(HTTPAPIError) -> Int {
        try check(seconds, Vocabulary.privateSpell, at: "/for_seconds")
    }

    /// A field's value checked by `rule`, or the 422 naming its pointer.
    private static func check<Value>(_ value: Value, _ rule: ValueRule<Value>, at pointer: String)
        throws(HTTPAPIError) -> Value
    {
        do { return try rule.check(value) } catch { throw .field(pointer, isString: value is String, error) }
    }
}
