import Geo
import Places

/// A query parameter: its name in the URL and its rule (`Vocabulary`'s, but for the answer's
/// format). The handler checks decoded values with it; `QueryTextMiddleware` checks the text as
/// sent, before the generated code decodes it, so that `nan`, `0x10` or `2.5` for a whole number
/// are refused with the same message (the generated server decodes with `Double(_:)`, which
/// takes `nan` and hexadecimal, and checks no minimum or maximum).
struct QueryParameter: Sendable {
    /// The name in the URL, e.g. `lat`.
    let name: String
    /// What messages call it, e.g. `latitude`.
    let noun: String
    /// The valid values in words, after "expected", e.g. `a number of degrees from -90 to 90`.
    let expected: String
    let required: Bool
    /// How many times it may be given: 1 but for a list (`where`).
    let maximumCount: Int
    /// Whether a value may begin or end with a blank (an attribute value may; no number does).
    let allowsBlanks: Bool
    /// Whether a text, as sent, is a valid value.
    private let accepts: @Sendable (String) -> Bool
    /// For a decimal parameter (a `ValueRule<Double>`'s: `lat`, `radius`, …): the value of a text
    /// the rule accepts, nil for one it refuses; nil for the other parameters. `HotRequest` keeps
    /// the value it checks, instead of reading the text a second time.
    let decimalValue: (@Sendable (String) -> Double?)?

    /// A parameter read by one of `Vocabulary`'s rules: its noun, range and message.
    init<Value>(
        _ name: String, _ rule: ValueRule<Value>, required: Bool = false, maximumCount: Int = 1,
        allowsBlanks: Bool = false
    ) {
        var decimalValue: (@Sendable (String) -> Double?)?
        if let decimal = rule as? ValueRule<Double> {
            decimalValue = { (text: String) -> Double? in try? decimal.parse(text) }
        }
        self.init(
            name: name, noun: rule.noun, expected: rule.expected, required: required, maximumCount: maximumCount,
            allowsBlanks: allowsBlanks, accepts: rule.isValid, decimalValue: decimalValue)
    }

    private init(
        name: String, noun: String, expected: String, required: Bool, maximumCount: Int = 1,
        allowsBlanks: Bool = false, accepts: @escaping @Sendable (String) -> Bool,
        decimalValue: (@Sendable (String) -> Double?)? = nil
    ) {
        self.decimalValue = decimalValue
        self.name = name
        self.noun = noun
        self.expected = expected
        self.required = required
        self.maximumCount = maximumCount
        self.allowsBlanks = allowsBlanks
        self.accepts = accepts
    }

    // MARK: - The parameters of the contract (components/parameters in openapi.yaml)

    static func latitude(_ name: String) -> QueryParameter { QueryParameter(name, Vocabulary.latitude, required: true) }

    static func longitude(_ name: String) -> QueryParameter {
        QueryParameter(name, Vocabulary.longitude, required: true)
    }

    static let radius = QueryParameter("radius", Vocabulary.radius)
    static let maxDistance = QueryParameter("max_distance", Vocabulary.maxDistance)
    static let limit = QueryParameter("limit", Vocabulary.limit)
    static let count = QueryParameter("count", Vocabulary.count)
    static let model = QueryParameter("model", Vocabulary.model)
    /// The moment of an open filter (`OpeningMoment`).
    static let open = QueryParameter("open", Vocabulary.openingMoment)
    /// `NAME=VALUE`, repeatable: at most as many as a place has attributes (32), since more could
    /// only repeat one.
    static let attributeFilter = QueryParameter(
        "where", Vocabulary.attributeMatch, maximumCount: Vocabulary.maximumAttributes, allowsBlanks: true)
    static let width = QueryParameter("width", Vocabulary.mapWidth)
    static let height = QueryParameter("height", Vocabulary.mapHeight)
    // The answer's shape: words of the HTTP API alone.
    static let format = QueryParameter(
        name: "format", noun: "format", expected: "json or geojson", required: false,
        accepts: { $0 == "json" || $0 == "geojson" })
    static let ascii = QueryParameter(
        name: "ascii", noun: "ascii", expected: "true or false", required: false,
        accepts: { $0 == "true" || $0 == "false" })
    // Text the handler checks (`Vocabulary.queryKind`, the contract's CRSs); here only that it is
    // given once.
    static let kind = QueryParameter(
        name: "kind", noun: "kind", expected: "a kind", required: false, accepts: { _ in true })
    static let crs = QueryParameter(
        name: "crs", noun: "crs", expected: "a CRS", required: false, accepts: { _ in true })

    // The watches': the models a watch can use, and the position to resume after.
    static let watchModel = QueryParameter(
        name: "model", noun: "model", expected: "geodesic or haversine", required: false,
        accepts: { $0 == "geodesic" || $0 == "haversine" })
    /// A change-log position: the contract's `int64`, 0 or more.
    static let positionExpected = "a whole number from 0 to \(Int64.max) (the id: of the last event received)"
    static let lastEventID = QueryParameter(
        name: "last_event_id", noun: "last event id", expected: positionExpected, required: false,
        accepts: { QueryParameter.position($0) != nil })

    /// Decimal digits only (no sign, no blanks) up to `Int64.max`; nil otherwise.
    static func position(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = UInt64(text), value <= UInt64(Int64.max)
        else { return nil }
        return value
    }

    /// The query parameters of each operation, by operation id. The values of string parameters
    /// (`kind`, `crs`) are checked by the handler: here only that each is given once.
    static let byOperation: [String: [QueryParameter]] = [
        "findNearby": [
            latitude("lat"), longitude("lon"), radius, limit, model, format, kind, crs, open, attributeFilter,
        ],
        "findNearest": [
            latitude("lat"), longitude("lon"), count, maxDistance, model, format, kind, crs, open, attributeFilter,
        ],
        "findNearbyGeoJSON": [
            latitude("lat"), longitude("lon"), radius, limit, model, kind, crs, open, attributeFilter,
        ],
        "findNearestGeoJSON": [
            latitude("lat"), longitude("lon"), count, maxDistance, model, kind, crs, open, attributeFilter,
        ],
        "measureDistance": [latitude("from_lat"), longitude("from_lon"), latitude("to_lat"), longitude("to_lon")],
        "findNearbyUsers": [latitude("lat"), longitude("lon"), radius, limit],
        "renderMap": [latitude("lat"), longitude("lon"), radius, width, height, ascii, kind, open, attributeFilter],
        "watchNearby": [kind, latitude("lat"), longitude("lon"), radius, watchModel, lastEventID],
        "watchNearbyUsers": [latitude("lat"), longitude("lon"), radius, lastEventID],
        "watchAroundUser": [kind, radius, watchModel, lastEventID],
    ]

    // MARK: - Checking

    /// Checks the text of the parameter as sent (percent-decoded). `Vocabulary`'s numbers allow
    /// blanks around them (the command line's arguments), the generated decoder's `Double(_:)`
    /// does not, and no value of the contract begins or ends with one: `lat=%2041` is refused here
    /// with the latitude's message instead of failing in the generated code (issue 15).
    func check(text: String) throws(HTTPAPIError) {
        guard accepts(text), allowsBlanks || !QueryParameter.hasBlankEnd(text) else { throw invalid(text) }
    }

    /// `check(text:)` of a decimal parameter (`decimalValue` not nil), returning the value the
    /// rule read: the same test, the same error.
    func checkedDecimal(text: String) throws(HTTPAPIError) -> Double {
        guard let value = decimalValue?(text), allowsBlanks || !QueryParameter.hasBlankEnd(text) else {
            throw invalid(text)
        }
        return value
    }

    /// Whether the first or the last character of `text` is whitespace (`Character.isWhitespace`,
    /// which asks the character's first scalar), deciding by bytes where they tell the same: an
    /// ASCII first byte is the first character's first scalar, and the last two bytes ASCII make
    /// the last character the last byte alone or `\r\n` (whitespace either way). Other ends are
    /// asked as characters: a prepended mark (U+0600) joins the space after it into a character
    /// that is not whitespace.
    static func hasBlankEnd(_ text: String) -> Bool {
        func blank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return false }
        if first < 0x80 ? blank(first) : text.first?.isWhitespace == true { return true }
        let beforeLast = utf8.count > 1 ? utf8[utf8.index(utf8.endIndex, offsetBy: -2)] : 0
        return last < 0x80 && beforeLast < 0x80 ? blank(last) : text.last?.isWhitespace == true
    }

    /// A value the generated code decoded, checked by `rule` (the same rule as `check(text:)`).
    func check<Value>(_ value: Value, _ rule: ValueRule<Value>) throws(HTTPAPIError) -> Value {
        do { return try rule.check(value) } catch { throw HTTPAPIError.parameter(name, in: .query, error) }
    }

    func invalid(_ text: String) -> HTTPAPIError {
        .invalidParameter(name: name, in: .query, noun: noun, value: text, expected: expected)
    }

    var missing: HTTPAPIError { .missingParameter(name: name, expected: expected) }

    /// The error for a parameter given `times` times, more than `maximumCount`.
    func repeated(_ times: Int) -> HTTPAPIError {
        let most = maximumCount == 1 ? "give it once" : "give it at most \(maximumCount) times"
        return .conflictingParameter(name: name, detail: "query parameter \"\(name)\" is given \(times) times: \(most)")
    }
}
