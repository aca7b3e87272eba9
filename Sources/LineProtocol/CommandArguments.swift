import Geo

/// A command's error reply: the whole line after `-`, such as `ERR syntax error`.
struct CommandFailure: Error, Sendable, Equatable {
    let line: String

    /// `ERR <message>`.
    static func error(_ message: String) -> CommandFailure { CommandFailure(line: "ERR " + message) }

    static func wrongArity(_ command: String) -> CommandFailure {
        .error("wrong number of arguments for '\(command.lowercased())' command")
    }

    static let syntax = CommandFailure.error("syntax error")
}

/// The arguments of one command after its name, read left to right, with values checked as
/// Vicinity's own commands check them: latitude first, meters unless `UNIT` says otherwise, and a
/// message that names the value and the valid range.
struct CommandArguments {
    /// The command's name as sent (for messages).
    let command: String
    private let values: [String]
    private(set) var position = 0

    init(command: String, values: [String]) {
        self.command = command
        self.values = values
    }

    var isAtEnd: Bool { position >= values.count }
    var remaining: Int { values.count - position }

    /// The next argument, or the arity error.
    mutating func next() throws(CommandFailure) -> String {
        guard position < values.count else { throw .wrongArity(command) }
        defer { position += 1 }
        return values[position]
    }

    /// The next argument when it is `keyword` (case-insensitive), consuming it.
    mutating func take(_ keyword: String) -> Bool {
        guard position < values.count, values[position].uppercased() == keyword else { return false }
        position += 1
        return true
    }

    /// The next argument as an upper-cased option name, or nil at the end.
    mutating func option() -> String? {
        guard position < values.count else { return nil }
        defer { position += 1 }
        return values[position].uppercased()
    }

    mutating func coordinate() throws(CommandFailure) -> Coordinate {
        let latitude = try next()
        let longitude = try next()
        return try CommandArguments.coordinate(latitude: latitude, longitude: longitude)
    }

    static func coordinate(latitude: String, longitude: String) throws(CommandFailure) -> Coordinate {
        guard let lat = decimal(latitude), abs(lat) <= 90 else {
            throw .error("invalid latitude \"\(latitude)\": expected a number of degrees from -90 to 90")
        }
        guard let lon = decimal(longitude), abs(lon) <= 180 else {
            throw .error("invalid longitude \"\(longitude)\": expected a number of degrees from -180 to 180")
        }
        do { return try Coordinate(latitude: lat, longitude: lon) } catch { throw .error(error.description) }
    }

    /// A distance, 0 or more, in `unit` (meters by default), returned in meters.
    mutating func meters(_ name: String, unit: DistanceUnit = .meters) throws(CommandFailure) -> Double {
        let text = try next()
        guard let value = CommandArguments.decimal(text), value >= 0 else {
            throw .error("invalid \(name) \"\(text)\": expected a number, 0 or more (\(unit.name))")
        }
        return value * unit.meters
    }

    /// A whole number from `range`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandFailure) -> Int {
        let text = try next()
        guard let value = Int(text), range.contains(value) else {
            throw .error(
                "invalid \(name) \"\(text)\": expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    mutating func model() throws(CommandFailure) -> DistanceModel {
        let text = try next()
        switch text.lowercased() {
        case "geodesic": return .geodesic
        case "haversine": return .sphere
        case "projected": return .projected(.auto)
        default: throw .error("invalid model \"\(text)\": expected geodesic, haversine or projected")
        }
    }

    mutating func unit() throws(CommandFailure) -> DistanceUnit {
        let text = try next()
        guard let unit = DistanceUnit(text) else { throw .error("invalid unit \"\(text)\": expected m, km, ft or mi") }
        return unit
    }

    /// A finite decimal number as `DecimalNumber` reads it.
    static func decimal(_ text: String) -> Double? {
        guard let value = DecimalNumber.parse(text), value.isFinite else { return nil }
        return value
    }
}

/// The units Vicinity's commands accept after `UNIT`, as Redis's GEO commands name them.
struct DistanceUnit: Sendable, Equatable {
    let name: String
    /// Meters in one unit.
    let meters: Double

    static let meters = DistanceUnit(name: "m", meters: 1)

    /// m, km, ft or mi, in any letter case; nil for anything else. Factors as Redis uses them
    /// (src/geo.c: 1 ft = 0.3048 m, 1 mi = 1609.34 m).
    init?(_ text: String) {
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
