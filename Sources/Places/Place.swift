import Geo

/// A named point of interest: a pharmacy, a user's position, a town.
///
/// A place is identified by its `kind` and `id` together: ids are unique within a kind, so a
/// pharmacy and a user may share an id. Every column or property of the source beyond `id`, `name`,
/// the coordinate and `kind` is kept as a string attribute.
///
/// Attributes are a dictionary for lookup plus `attributeNames`, the same keys in a stable order:
/// the header order for CSV, sorted by name for GeoJSON (`JSONSerialization` does not keep the
/// order of object members) and for attributes given as a plain dictionary. `orderedAttributes`
/// pairs them up for output. Places read from one CSV file share one `attributeNames` array.
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
    /// Extra columns or properties by name, values as text.
    public private(set) var attributes: [String: String]
    /// The keys of `attributes`, each once, in source order (see the type's discussion).
    public private(set) var attributeNames: [String]

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
        self.attributes = attributes
        self.attributeNames = Place.normalizedNames(attributeNames, for: attributes)
    }

    /// Creates a place whose `attributeNames` the caller knows to list exactly the keys of
    /// `attributes` (the readers' fast path: no check, storage shared between places).
    init(
        id: String, kind: String, name: String, coordinate: Coordinate, attributes: [String: String],
        checkedNames: [String]
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.coordinate = coordinate
        self.attributes = attributes
        self.attributeNames = checkedNames
    }

    /// The attributes as (name, value) pairs in `attributeNames` order.
    public var orderedAttributes: [(name: String, value: String)] {
        attributeNames.compactMap { name in attributes[name].map { (name, $0) } }
    }

    /// Sets an attribute, appending a new name at the end of the order; `nil` removes it.
    public mutating func setAttribute(_ name: String, to value: String?) {
        if let value {
            if attributes.updateValue(value, forKey: name) == nil { attributeNames.append(name) }
        } else if attributes.removeValue(forKey: name) != nil {
            attributeNames.removeAll { $0 == name }
        }
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
