import Foundation

/// One row of `Fixtures/bearing-reference.csv`: an initial azimuth on WGS84 from GeographicLib.
struct BearingReference: Sendable {
    /// Centre and place, degrees.
    var latitude1: Double
    var longitude1: Double
    var latitude2: Double
    var longitude2: Double
    /// Geodesic distance, meters.
    var distanceMeters: Double
    /// Initial azimuth at the centre, degrees clockwise from north in (-180, 180].
    var azimuthDegrees: Double
    /// `short`, `submetre`, `polar`, `antimeridian`, `equator` or `long`.
    var category: String

    static let all: [BearingReference] = {
        guard
            let url = Bundle.module.url(
                forResource: "bearing-reference", withExtension: "csv", subdirectory: "Fixtures"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap(BearingReference.init(csvLine:))
    }()

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
