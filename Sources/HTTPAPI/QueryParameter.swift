import Geo

/// A query parameter's rule: its name in the URL, the noun its messages use and the values it
/// takes. The handler checks decoded values with it; `QueryTextMiddleware` checks the text as
/// sent, before the generated code decodes it, so that `nan`, `0x10` or `2.5` for a whole number
/// are refused with the same message (the generated server decodes with `Double(_:)`, which
/// takes `nan` and hexadecimal, and checks no minimum or maximum).
struct QueryParameter: Sendable {
    /// The values a parameter takes.
    enum Values: Sendable {
        /// A finite decimal number (`DecimalNumber`'s grammar) within the range.
        case decimal(ClosedRange<Double>)
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// One of these words, exactly.
        case choice([String])
        /// `true` or `false`.
        case boolean
    }

    /// The name in the URL, e.g. `lat`.
    let name: String
    /// What messages call it, e.g. `latitude`.
    let noun: String
    let values: Values
    /// The valid values in words, after "expected", e.g. `a number of degrees from -90 to 90`.
    let expected: String
    let required: Bool

    // MARK: - The parameters of the contract (components/parameters in openapi.yaml)

    static func latitude(_ name: String) -> QueryParameter {
        QueryParameter(
            name: name, noun: "latitude", values: .decimal(-90...90), expected: "a number of degrees from -90 to 90",
            required: true)
    }

    static func longitude(_ name: String) -> QueryParameter {
        QueryParameter(
            name: name, noun: "longitude", values: .decimal(-180...180),
            expected: "a number of degrees from -180 to 180", required: true)
    }

    /// 20,000 km: the map's own limit (the line protocol's `MAP`), about half the way round the
    /// Earth (20,004 km along a meridian on WGS84).
    static let maximumMeters = 20_000_000.0

    static let radius = QueryParameter(
        name: "radius", noun: "radius", values: .decimal(0...maximumMeters), expected: "0 to 20000000 meters",
        required: false)
    static let maxDistance = QueryParameter(
        name: "max_distance", noun: "max distance", values: .decimal(0...maximumMeters),
        expected: "0 to 20000000 meters", required: false)
    static let limit = QueryParameter(
        name: "limit", noun: "limit", values: .integer(1...10_000), expected: "a whole number from 1 to 10000",
        required: false)
    static let count = QueryParameter(
        name: "count", noun: "count", values: .integer(1...10_000), expected: "a whole number from 1 to 10000",
        required: false)
    static let model = QueryParameter(
        name: "model", noun: "model", values: .choice(["geodesic", "haversine", "projected"]),
        expected: "geodesic, haversine or projected", required: false)
    static let format = QueryParameter(
        name: "format", noun: "format", values: .choice(["json", "geojson"]), expected: "json or geojson",
        required: false)
    static let width = QueryParameter(
        name: "width", noun: "width", values: .integer(30...1000), expected: "a whole number from 30 to 1000",
        required: false)
    static let height = QueryParameter(
        name: "height", noun: "height", values: .integer(10...1000), expected: "a whole number from 10 to 1000",
        required: false)
    static let ascii = QueryParameter(
        name: "ascii", noun: "ascii", values: .boolean, expected: "true or false", required: false)

    /// The number and word parameters of each operation, by operation id. String parameters
    /// (`kind`, `crs`) are checked by the handler alone: the generated code takes any text.
    static let byOperation: [String: [QueryParameter]] = [
        "findNearby": [latitude("lat"), longitude("lon"), radius, limit, model, format],
        "findNearest": [latitude("lat"), longitude("lon"), count, maxDistance, model, format],
        "measureDistance": [latitude("from_lat"), longitude("from_lon"), latitude("to_lat"), longitude("to_lon")],
        "findNearbyUsers": [latitude("lat"), longitude("lon"), radius, limit],
        "renderMap": [latitude("lat"), longitude("lon"), radius, width, height, ascii],
    ]

    // MARK: - Checking

    /// Checks the text of the parameter as sent (percent-decoded).
    func check(text: String) throws(HTTPAPIError) {
        switch values {
        case .decimal(let range):
            guard let value = DecimalNumber.parse(text), value.isFinite, range.contains(value) else {
                throw invalid(text)
            }
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else { throw invalid(text) }
        case .choice(let words):
            guard words.contains(text) else { throw invalid(text) }
        case .boolean:
            guard text == "true" || text == "false" else { throw invalid(text) }
        }
    }

    /// A decoded number: finite and in range, else the error naming it.
    func check(_ value: Double) throws(HTTPAPIError) -> Double {
        guard case .decimal(let range) = values, value.isFinite, range.contains(value) else {
            throw invalid(NumberText.plain(value))
        }
        return value
    }

    /// A decoded whole number in range, else the error naming it.
    func check(_ value: Int) throws(HTTPAPIError) -> Int {
        guard case .integer(let range) = values, range.contains(value) else { throw invalid(String(value)) }
        return value
    }

    func invalid(_ text: String) -> HTTPAPIError {
        .invalidParameter(name: name, in: .query, noun: noun, value: text, expected: expected)
    }

    var missing: HTTPAPIError { .missingParameter(name: name, expected: expected) }
}
