import Foundation
import Geo
import PlaceQueries
import Places

/// What `near`, `nearest` and `map` search: the `--data` files, or the database (places, and the
/// users a principal may see for `--kind user`). In files, `user` is a kind like any other.
struct QueryData {
    var directory: PlaceDirectory
    /// Who asks: anonymous, or the user whose token was given.
    var principal: Principal
    var fromDatabase: Bool
    /// `--open`, `--where`.
    var open: OpeningMoment?
    /// `--open` as given, for titles and the JSON document's echo.
    var openText: String?
    var attributes: [AttributeMatch] = []

    /// Loads the data the options name.
    static func load(_ query: QueryOptions, kind: String, output: inout CommandOutput) throws(CLIError) -> QueryData {
        if !query.dataFiles.isEmpty {
            if query.database.db != nil {
                throw .usage("--data and --db exclude each other: --data searches files, --db a database")
            }
            let catalog = try ShippedData.catalog(
                paths: query.dataFiles, defaultKind: kind == Vocabulary.everyKind ? "place" : kind)
            var directory = PlaceDirectory(places: catalog)
            directory.holidays = try query.holidayCalendars()
            return QueryData(
                directory: directory, principal: .anonymous, fromDatabase: false, open: try query.openingMoment(),
                openText: query.open?.trimmingCharacters(in: .whitespaces), attributes: try query.attributeMatches())
        }
        let open = try query.openingMoment()
        let attributes = try query.attributeMatches()
        if kind == PlaceDirectory.userKind, open != nil || !attributes.isEmpty {
            throw .usage("--open and --where apply to places: users have no opening hours or attributes")
        }
        var directory = try query.database.loadSnapshot(output: &output).1.directory
        directory.holidays = try query.holidayCalendars()
        // No server may be running to forget expired locations: read them as forgotten.
        directory.applyDueTimers()
        var principal = Principal.anonymous
        if kind == PlaceDirectory.userKind {
            do { principal = try directory.principal(presenting: TokenOption.resolve(query.token)) } catch {
                throw CLIError(error)
            }
        }
        return QueryData(
            directory: directory, principal: principal, fromDatabase: true, open: open,
            openText: query.open?.trimmingCharacters(in: .whitespaces), attributes: attributes)
    }

    /// The place kinds present.
    var kinds: [String] { directory.places.kinds }

    /// The kinds `--kind` names: every place kind present for `all` (`Vocabulary.everyKind`, the
    /// same on every command), else that one.
    func kinds(for kind: String) -> [String] { kind == Vocabulary.everyKind ? kinds : [kind] }

    /// What a sentence calls hits of `kinds`: the kind when there is one, else "place".
    static func noun(_ kinds: [String]) -> String { kinds.count == 1 ? kinds[0] : "place" }

    /// What `kinds` name here: the people for `user` in the database; places otherwise (in files,
    /// `user` is a kind like any other).
    func collection(_ kinds: [String]) -> PlaceQuery.Collection {
        fromDatabase && kinds == [PlaceDirectory.userKind] ? .users : .places(kinds)
    }

    /// The answer to a question about `kinds` (one, or every kind for a map), asked by this
    /// run's principal, with the model's own distances and bearings. With `--open`, a list keeps
    /// only the places open then; a map (`marksHours`) shows every place marked with its state.
    func answer(
        _ kinds: [String], center: Coordinate, reach: PlaceQuery.Reach, model: DistanceModel,
        namesNearestBeyond: Bool = false, marksHours: Bool = false
    ) throws(CLIError) -> QueryAnswer {
        let query = PlaceQuery(
            collection: collection(kinds), center: center, reach: reach, model: model, principal: principal,
            measures: .exact, namesNearestBeyond: namesNearestBeyond
        ).filtered(open: open, attributes: attributes, marking: marksHours)
        do { return try directory.answer(query) } catch { throw CLIError(error) }
    }

    /// How the list's title says the filters: " open now", " open at 2026-12-24T22:00 (local)",
    /// " with dispensing=yes".
    var filterText: String {
        var text = ""
        switch open {
        case .now?: text += " open now"
        case .instant?: text += " open at \(openText ?? "")"
        case .local?: text += " open at \(openText ?? "") local time"
        case nil: break
        }
        if !attributes.isEmpty {
            text += " with " + attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        }
        return text
    }

    /// A warning when the data holds nothing of the kind searched (a typo in --kind).
    func warnIfMissing(kind: String, output: inout CommandOutput) {
        guard !fromDatabase || kind != PlaceDirectory.userKind else { return }
        ShippedData.warnIfMissing(kind: kind, in: directory.places, output: &output)
    }
}
