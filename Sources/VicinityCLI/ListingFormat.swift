/// How `near` and `nearest` print their results.
enum ListingFormat: String, CaseIterable {
    /// A table for a person.
    case text
    /// One JSON document (`--json`).
    case json
    /// An RFC 7946 FeatureCollection.
    case geojson

    /// The format `--format` names, with `--json` as a shorthand for `--format json`.
    static func chosen(_ typed: String?, json: Bool) throws(CLIError) -> ListingFormat {
        guard let typed else { return json ? .json : .text }
        let name = typed.trimmingCharacters(in: .whitespaces)
        guard let format = ListingFormat(rawValue: name.lowercased()) else {
            throw .usage("invalid format \"\(ResultListing.printable(name))\": expected text, json or geojson")
        }
        if json && format != .json { throw .usage("--json and --format \(format.rawValue) exclude each other") }
        return format
    }
}
