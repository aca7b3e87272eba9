import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// `QueryValues.wantsGeoJSON` ranks `Accept` in one pass; it must choose as ranking the whole
/// list by quality (highest first, then the order given) and taking the first of the two types.
@Suite struct AcceptRankingTests {
    typealias ContentType = Operations.FindNearby.AcceptableContentType

    /// The choice made by sorting the list, as it was made before the one-pass ranking.
    static func sortedChoice(_ accept: [AcceptHeaderContentType<ContentType>]) -> Bool {
        let ranked = accept.enumerated().sorted {
            ($0.element.quality.doubleValue, -$0.offset) > ($1.element.quality.doubleValue, -$1.offset)
        }
        for entry in ranked where entry.element.quality.doubleValue > 0 {
            switch entry.element.contentType.rawValue {
            case "application/geo+json": return true
            case "application/json": return false
            default: continue
            }
        }
        return false
    }

    @Test func oneRankingPassChoosesAsSortingTheList() throws {
        let types = ["application/json", "application/geo+json", "application/problem+json", "text/html", "*/*"]
        let qualities = [0, 0.1, 0.5, 0.5, 0.9, 1.0]
        var random = SystemRandomNumberGenerator()
        var differing: [[(String, Double)]] = []
        for _ in 0..<3_000 {
            let accept = try (0..<Int.random(in: 0...5, using: &random)).map { _ in
                let type = try #require(ContentType(rawValue: types.randomElement(using: &random)!))
                return AcceptHeaderContentType(
                    contentType: type, quality: QualityValue(doubleValue: qualities.randomElement(using: &random)!))
            }
            if QueryValues.wantsGeoJSON(format: nil, accept: accept) != Self.sortedChoice(accept) {
                differing.append(accept.map { ($0.contentType.rawValue, $0.quality.doubleValue) })
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    @Test func theDefaultsAndTheFormatDecide() {
        let defaults = AcceptHeaderContentType<ContentType>.defaultValues
        #expect(QueryValues.wantsGeoJSON(format: nil, accept: defaults) == Self.sortedChoice(defaults))
        #expect(QueryValues.wantsGeoJSON(format: .geojson, accept: defaults))
        #expect(!QueryValues.wantsGeoJSON(format: .json, accept: defaults))
    }
}
