import Geo
import Places

/// The command line's side of `Vocabulary`: values typed as arguments, read by the one rule of
/// each, with surrounding spaces ignored (`CLI` shields negative numbers from the option parser
/// with a leading space). A refusal is a usage error (exit 64) with the rule's message.
enum ArgumentValues {
    /// The value `typed` by `rule`.
    static func parse<Value>(_ typed: String, _ rule: ValueRule<Value>) throws(CLIError) -> Value {
        do { return try rule.parse(typed.trimmingCharacters(in: .whitespaces)) } catch {
            throw .usage(error.description)
        }
    }

    /// A point, latitude first.
    static func coordinate(latitude: String, longitude: String) throws(CLIError) -> Coordinate {
        do {
            return try Vocabulary.coordinate(
                latitude: latitude.trimmingCharacters(in: .whitespaces),
                longitude: longitude.trimmingCharacters(in: .whitespaces))
        } catch {
            throw .usage(error.description)
        }
    }
}
