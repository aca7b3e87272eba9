import Geo

/// A named point of interest: a pharmacy, a user's position, a town.
///
/// A place is identified by its `kind` and `id` together: ids are unique within a kind, so a
/// pharmacy and a user may share an id. Every column or property of the source beyond `id`, `name`,
/// the coordinate and `kind` is kept as a string attribute.
///
/// Attributes are `attributeNames` and `attributeValues` side by side, in a stable order: the
/// header order for CSV, sorted by name for GeoJSON (`JSONSerialization` does not keep the order of
/// object members) and for attributes given as a plain dictionary. `attribute(_:)` looks one up,
/// `orderedAttributes` pairs them for output. Places read from one CSV file share one
/// `attributeNames` array.
/// Equality and hashing compare every stored property, the attribute order included.
///
/// ```swift
/// let omur = Place(
///     id: "omur", kind: "pharmacy", name: "Omur",
///     coordinate: try Coordinate(latitude: 41.087853, longitude: 29.014096),
///     attributes: ["note": "illustrative"])
/// ```
public struct Place: Sendable, Hashable {
    /// Identifier, unique within `kind`; never empty when read from a file.
    public var id: String
    /// The collection the place belongs to, such as `pharmacy`; each kind has its own index.
    public var kind: String
    /// Display name; may be empty (many OpenStreetMap pharmacies have no name).
    public var name: String
    /// Where the place is: WGS84 latitude and longitude in degrees.
    public var coordinate: Coordinate
    /// The attribute names, each once, in source order (see the type's discussion).
    public private(set) var attributeNames: [String]
    /// The attribute values, `attributeValues[i]` for `attributeNames[i]`. Two arrays rather than
    /// a dictionary: a place has a handful of attributes, and the rows of one file share the names.
    public private(set) var attributeValues: [String]
    /// The opening hours compiled from the attributes (`PlaceHours`), or nil when the place has
    /// neither `opening_hours` nor `duty`.
    public private(set) var hours: PlaceHours?

    /// Extra columns or properties by name, values as text (built on each access; `attribute(_:)`
    /// looks up one).
    public var attributes: [String: String] {
        Dictionary(zip(attributeNames, attributeValues), uniquingKeysWith: { first, _ in first })
    }

    /// Creates a place.
    ///
    /// - Parameters:
    ///   - attributes: extra values by name.
    ///   - attributeNames: the order of `attributes`' keys. Names that are not keys are dropped and
    ///     keys that are not named are appended in sorted order; nil means sorted by name.
    public init(
        id: String, kind: String, name: String, coordinate: Coordinate, attributes: [String: String] = [:],
        attributeNames: [String]? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.coordinate = coordinate
        self.attributeNames = Place.normalizedNames(attributeNames, for: attributes)
        self.attributeValues = self.attributeNames.map { attributes[$0] ?? "" }
        self.hours = PlaceHours.compile(names: self.attributeNames, values: self.attributeValues)
    }

    /// Creates a place from attribute names and values in order. A repeated name keeps its first
    /// value; extra names or values without a partner are dropped.
    public init(
        id: String, kind: String, name: String, coordinate: Coordinate, attributeNames: [String],
        attributeValues: [String]
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.coordinate = coordinate
        if attributeNames.count == attributeValues.count, Place.allDistinct(attributeNames) {
            self.attributeNames = attributeNames
            self.attributeValues = attributeValues
        } else {
            var names: [String] = []
            var values: [String] = []
            for (name, value) in zip(attributeNames, attributeValues) where !names.contains(name) {
                names.append(name)
                values.append(value)
            }
            self.attributeNames = names
            self.attributeValues = values
        }
        self.hours = PlaceHours.compile(names: self.attributeNames, values: self.attributeValues)
    }

    /// Creates a place whose `attributeNames` the caller knows to be distinct and as many as the
    /// values (the readers' fast path: no check, names shared between places).
    init(
        id: String, kind: String, name: String, coordinate: Coordinate, values: [String], checkedNames: [String]
    ) {
        self.init(
            id: id, kind: kind, name: name, coordinate: coordinate, checkedNames: checkedNames, values: values,
            hours: PlaceHours.compile(names: checkedNames, values: values))
    }

    /// Recreates a place from parts a catalog kept apart, hours already compiled from them.
    init(
        id: String, kind: String, name: String, coordinate: Coordinate, checkedNames: [String], values: [String],
        hours: PlaceHours?
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.coordinate = coordinate
        self.attributeNames = checkedNames
        self.attributeValues = values
        self.hours = hours
    }

    /// The value of one attribute, or nil.
    public func attribute(_ name: String) -> String? {
        attributeNames.firstIndex(of: name).map { attributeValues[$0] }
    }

    /// The attributes as (name, value) pairs in `attributeNames` order.
    public var orderedAttributes: [(name: String, value: String)] {
        zip(attributeNames, attributeValues).map { ($0, $1) }
    }

    /// Sets an attribute, appending a new name at the end of the order; `nil` removes it.
    public mutating func setAttribute(_ name: String, to value: String?) {
        let index = attributeNames.firstIndex(of: name)
        switch (index, value) {
        case (let index?, let value?): attributeValues[index] = value
        case (nil, let value?):
            attributeNames.append(name)
            attributeValues.append(value)
        case (let index?, nil):
            attributeNames.remove(at: index)
            attributeValues.remove(at: index)
        case (nil, nil): break
        }
        if PlaceHours.isHoursAttribute(name) {
            hours = PlaceHours.compile(names: attributeNames, values: attributeValues)
        }
    }

    // `hours` is derived from the attributes: equality and hashing leave it out.
    public static func == (lhs: Place, rhs: Place) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.name == rhs.name && lhs.coordinate == rhs.coordinate
            && lhs.attributeNames == rhs.attributeNames && lhs.attributeValues == rhs.attributeValues
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(kind)
        hasher.combine(name)
        hasher.combine(coordinate)
        hasher.combine(attributeNames)
        hasher.combine(attributeValues)
    }

    /// Whether no name repeats: pairwise for the few names a place usually has, else with a set.
    private static func allDistinct(_ names: [String]) -> Bool {
        guard names.count <= 8 else { return Set(names).count == names.count }
        for index in names.indices {
            for other in names.indices where other > index && names[other] == names[index] { return false }
        }
        return true
    }

    /// Returns `names` unchanged (sharing its storage) when it already lists exactly the keys.
    private static func normalizedNames(_ names: [String]?, for attributes: [String: String]) -> [String] {
        guard let names else { return attributes.keys.sorted() }
        if names.count == attributes.count, names.allSatisfy({ attributes[$0] != nil }), allDistinct(names) {
            return names
        }
        var seen = Set<String>()
        var ordered = names.filter { attributes[$0] != nil && seen.insert($0).inserted }
        ordered += attributes.keys.filter { !seen.contains($0) }.sorted()
        return ordered
    }
}
