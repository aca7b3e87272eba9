/// A unit of distance that the line protocol's commands take after `UNIT`, as Redis's GEO
/// commands name them.
public struct DistanceUnit: Sendable, Equatable {
    /// `m`, `km`, `ft` or `mi`.
    public let name: String
    /// Meters in one unit.
    public let meters: Double

    /// The meter.
    public static let meters = DistanceUnit(name: "m", meters: 1)

    /// m, km, ft or mi, in any letter case; nil for anything else. Factors as Redis uses them
    /// (src/geo.c: 1 ft = 0.3048 m, 1 mi = 1609.34 m).
    public init?(_ text: String) {
        switch text.lowercased() {
        case "m": self = .meters
        case "km": self.init(name: "km", meters: 1000)
        case "ft": self.init(name: "ft", meters: 0.3048)
        case "mi": self.init(name: "mi", meters: 1609.34)
        default: return nil
        }
    }

    private init(name: String, meters: Double) {
        self.name = name
        self.meters = meters
    }
}
