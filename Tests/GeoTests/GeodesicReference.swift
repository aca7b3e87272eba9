import Foundation

/// One row of `Fixtures/geodesic-reference.csv` or `Fixtures/bearing-reference.csv`: an inverse
/// geodesic problem on WGS84 solved by GeographicLib (see `Fixtures/make_geodesic_reference.py`
/// and `make_bearing_reference.py` for how the tables were made).
struct GeodesicReference: Sendable {
    /// Start point, degrees.
    var latitude1: Double
    var longitude1: Double
    /// End point, degrees.
    var latitude2: Double
    var longitude2: Double
    /// Geodesic distance, meters.
    var distanceMeters: Double
    /// Initial azimuth at the start, degrees clockwise from north in (-180, 180].
    var azimuthDegrees: Double
    /// The family of hard cases the row belongs to (`short`, `antipodal-near`, `pole-start`, …).
    var category: String

    /// Every row of the committed table of hard cases.
    static let all = rows(ofTable: "geodesic-reference")

    /// Every row of the table of served bearings' cases (`ServedBearingTests`).
    static let bearings = rows(ofTable: "bearing-reference")

    /// The rows of `Fixtures/<name>.csv` (header skipped); none when it cannot be read.
    static func rows(ofTable name: String) -> [GeodesicReference] {
        guard
            let url = Bundle.module.url(forResource: name, withExtension: "csv", subdirectory: "Fixtures"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap(GeodesicReference.init(csvLine:))
    }

    /// The categories present in the table, sorted.
    static var categories: [String] { Array(Set(all.map(\.category))).sorted() }

    init?(csvLine: Substring) {
        let fields = csvLine.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 7 else { return nil }
        let numbers = fields.prefix(6).compactMap { Double(String($0)) }
        guard numbers.count == 6 else { return nil }
        latitude1 = numbers[0]
        longitude1 = numbers[1]
        latitude2 = numbers[2]
        longitude2 = numbers[3]
        distanceMeters = numbers[4]
        azimuthDegrees = numbers[5]
        category = String(fields[6])
    }
}
