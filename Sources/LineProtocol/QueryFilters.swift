import PlaceQueries
import Places

/// The options of `NEARBY`, `NEAREST` and `MAP` that filter places by more than distance:
///
/// - `OPEN now|TIME`: only the places open then (`Vocabulary.openingMoment`: `now`, a date-time
///   with its UTC offset such as `2026-12-24T22:00+01:00`, or a local one read in each place's
///   zone), each hit with its opening state; `NEAREST … OPEN` finds the `count` nearest open
///   places however far they are.
/// - `WHERE name value`, repeatable: only the places whose attribute `name` is exactly `value`
///   (all of them, when given several times).
///
/// Both apply to places only: on `user` the query layer refuses them.
struct QueryFilters: Sendable {
    var open: OpeningMoment?
    var attributes: [AttributeMatch] = []

    /// The options' names, for the syntax error's list.
    static let options = ["OPEN", "WHERE"]

    /// Reads `option` (upper-cased, already taken from `arguments`) and its values when it is one
    /// of `options`; false when it is not, with nothing read.
    ///
    /// - Throws: the arity error without enough values; `Vocabulary`'s message for a bad time,
    ///   attribute name or value.
    mutating func read(_ option: String, _ arguments: inout CommandArguments) throws(CommandFailure) -> Bool {
        switch option {
        case "OPEN":
            guard open == nil else { throw .error("OPEN given twice: expected one time") }
            open = try arguments.value(Vocabulary.openingMoment)
        case "WHERE":
            guard attributes.count < Vocabulary.maximumAttributes else {
                throw .error(
                    "too many WHERE conditions: expected at most \(Vocabulary.maximumAttributes) (a place has at most "
                        + "\(Vocabulary.maximumAttributes) attributes)")
            }
            let name = try arguments.value(Vocabulary.attributeName)
            let value = try arguments.value(Vocabulary.attributeValue)
            attributes.append(AttributeMatch(name: name, value: value))
        default:
            return false
        }
        return true
    }

    /// The query with these filters.
    func applied(to query: PlaceQuery) -> PlaceQuery {
        query.filtered(open: open, attributes: attributes)
    }

    /// The map's query with these filters: `WHERE` filters, `OPEN` only marks each place's state
    /// (`PlaceQuery.hoursAt`) so that closed places are drawn as such; on users, `OPEN` is the
    /// filter the query layer refuses, as for `NEARBY` (`/v1/map` does the same).
    func marking(_ query: PlaceQuery) -> PlaceQuery {
        query.filtered(open: open, attributes: attributes, marking: true)
    }

    /// Whether each hit says whether it is open (the query asked `OPEN`).
    var showsOpening: Bool { open != nil }
}
