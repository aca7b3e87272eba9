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
    ///
    /// - Parameter swapped: the command line to suggest with the two values exchanged, given them
    ///   in that order (`{ "vicinity near \($0) \($1)" }`). When the latitude is impossible but is
    ///   a valid longitude and the longitude is a valid latitude (`near 151.2 -33.9`), the message
    ///   asks whether they were swapped and offers it.
    static func coordinate(
        latitude: String, longitude: String, swapped: ((String, String) -> String)? = nil
    ) throws(CLIError) -> Coordinate {
        let (latitude, longitude) = (
            latitude.trimmingCharacters(in: .whitespaces), longitude.trimmingCharacters(in: .whitespaces)
        )
        do {
            return try Vocabulary.coordinate(latitude: latitude, longitude: longitude)
        } catch {
            if let swapped, !Vocabulary.latitude.isValid(latitude), Vocabulary.longitude.isValid(latitude),
                Vocabulary.latitude.isValid(longitude)
            {
                throw .usage(
                    "\(error.description); did you swap latitude and longitude? try `\(swapped(longitude, latitude))`")
            }
            throw .usage(error.description)
        }
    }
}
