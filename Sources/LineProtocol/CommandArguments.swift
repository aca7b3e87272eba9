import Geo
import Places

/// A command's error reply: the whole line after `-`, such as `ERR syntax error`.
struct CommandFailure: Error, Sendable, Equatable {
    let line: String

    /// `ERR <message>`.
    static func error(_ message: String) -> CommandFailure { CommandFailure(line: "ERR " + message) }

    static func wrongArity(_ command: String) -> CommandFailure {
        .error("wrong number of arguments for '\(command.lowercased())' command")
    }

    static let syntax = CommandFailure.error("syntax error")

    /// A misplaced or unknown option of Vicinity's own commands: `ERR syntax error: unexpected
    /// 'WITHDIST' after the radius: expected one of UNIT, LIMIT, MODEL, WITHCOORD`, and a hint when
    /// the token is a known mistake (a Redis option that has another name here).
    static func unexpected(_ token: String, after place: String, expected: [String], hints: [String: String] = [:])
        -> CommandFailure
    {
        let hint = hints[token.uppercased()].map { " (\($0))" } ?? ""
        return .error(
            "syntax error: unexpected '\(token)' after \(place): expected one of "
                + expected.joined(separator: ", ") + hint)
    }
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

    /// The argument read last, as typed (for messages).
    var previous: String { position > 0 ? values[position - 1] : command }

    /// The next argument as an upper-cased option name, or nil at the end.
    mutating func option() -> String? {
        guard position < values.count else { return nil }
        defer { position += 1 }
        return values[position].uppercased()
    }

    /// A latitude and a longitude, latitude first (`Vocabulary.coordinate`).
    mutating func coordinate() throws(CommandFailure) -> Coordinate {
        let latitude = try next()
        let longitude = try next()
        do { return try Vocabulary.coordinate(latitude: latitude, longitude: longitude) } catch {
            throw .places(error)
        }
    }

    /// The next argument read by `rule`; its message is the error.
    mutating func value<Value>(_ rule: ValueRule<Value>) throws(CommandFailure) -> Value {
        let text = try next()
        do { return try rule.parse(text) } catch { throw .places(error) }
    }

    /// The next argument as a distance model's name, in any letter case as Redis takes options.
    mutating func model() throws(CommandFailure) -> DistanceModel {
        let text = try next()
        guard let name = ModelName(rawValue: text.lowercased()) else { throw .places(Vocabulary.model.invalid(text)) }
        switch name {
        case .geodesic: return .geodesic
        case .haversine: return .sphere
        case .projected: return .projected(.auto)
        }
    }
}

extension CommandFailure {
    /// `ERR <the façade's message>`.
    static func places(_ error: PlacesError) -> CommandFailure { .error(error.description) }
}
