import Geo

/// Strict parsing of numbers typed on the command line, with messages that name the value as
/// typed and the valid range. Surrounding spaces are ignored (`CLI` shields negative numbers from
/// the option parser with a leading space).
enum ArgumentValues {
    /// A plain, finite decimal number (`DecimalNumber`'s grammar): not `nan`, `inf`, a hexadecimal
    /// float, empty text, or a number too large for a Double (`1e400`).
    static func decimal(_ text: String) -> Double? {
        guard let value = DecimalNumber.parse(text), value.isFinite else { return nil }
        return value
    }

    static func latitude(_ typed: String) throws(CLIError) -> Double {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard let value = decimal(text), abs(value) <= 90 else {
            throw .usage("invalid latitude \"\(text)\": expected a number of degrees from -90 to 90")
        }
        return value
    }

    static func longitude(_ typed: String) throws(CLIError) -> Double {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard let value = decimal(text), abs(value) <= 180 else {
            throw .usage("invalid longitude \"\(text)\": expected a number of degrees from -180 to 180")
        }
        return value
    }

    static func coordinate(latitude: String, longitude: String) throws(CLIError) -> Coordinate {
        let lat = try self.latitude(latitude)
        let lon = try self.longitude(longitude)
        do {
            return try Coordinate(latitude: lat, longitude: lon)
        } catch {
            throw .usage(error.description)
        }
    }

    /// A distance in meters, 0 or more (`name` is the option, e.g. "radius").
    static func meters(_ typed: String, name: String) throws(CLIError) -> Double {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard let value = decimal(text), value >= 0 else {
            throw .usage("invalid \(name) \"\(text)\": expected a number of meters, 0 or more")
        }
        return value
    }

    /// A whole number, 1 or more.
    static func count(_ typed: String, name: String) throws(CLIError) -> Int {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard let value = Int(text), value >= 1 else {
            throw .usage("invalid \(name) \"\(text)\": expected a whole number, 1 or more")
        }
        return value
    }
}
