/// One attribute condition of a query (`--where dispensing=yes`, `WHERE dispensing yes`,
/// `where=dispensing=yes`): the place's attribute `name` equals `value` exactly (letter case
/// included). A place without the attribute does not match.
public struct AttributeMatch: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Reads `name=value` (the first `=` splits; the value may be empty or hold `=`); nil without
    /// a `=` or with an empty name. The `=` is found among Unicode scalars, not characters: a
    /// value that starts with a combining mark or an emoji modifier makes one character of it.
    public init?(parsing text: String) {
        let scalars = text.unicodeScalars
        guard let equals = scalars.firstIndex(of: "="), equals != scalars.startIndex else { return nil }
        self.init(
            name: String(scalars[..<equals]), value: String(scalars[scalars.index(after: equals)...]))
    }

    /// What `init(parsing:)` accepts, for messages.
    public static let expected = "NAME=VALUE, an attribute name and the value it must have (e.g. dispensing=yes)"

    /// Whether a place has the attribute with this value.
    public func matches(_ place: borrowing Place) -> Bool { place.attribute(name) == value }
}
