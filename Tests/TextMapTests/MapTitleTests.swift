import Geo
import Testing

@testable import TextMap

/// Titles shortened to the width: at `WIDTH 40` the title was cut inside a number
/// ("…of 41.088154, 29.0…"); it is now shortened at a word, with an ellipsis after it.
@Suite struct MapTitleTests {
    static let istanbul = try! Coordinate(latitude: 41.088154, longitude: 29.015615)
    static let london = try! Coordinate(latitude: 51.5152, longitude: -0.1420)

    struct Case: Sendable, CustomTestStringConvertible {
        var kind = "pharmacy"
        var radiusMeters = 500.0
        var center = MapTitleTests.istanbul
        var width: Int
        var characters = MapStyle.Characters.unicode
        var title: String
        var testDescription: String { "\(kind) at \(width): \(title)" }
    }

    static let cases: [Case] = [
        Case(width: 80, title: "Pharmacies within 500 m of 41.088154, 29.015615"),
        Case(width: 60, title: "Pharmacies within 500 m of 41.088154, 29.015615"),
        Case(width: 47, title: "Pharmacies within 500 m of 41.088154, 29.015615"),
        Case(width: 46, title: "Pharmacies within 500 m of 41.088154, …"),
        Case(width: 40, title: "Pharmacies within 500 m of 41.088154, …"),
        Case(width: 40, characters: .ascii, title: "Pharmacies within 500 m of ..."),
        Case(width: 30, title: "Pharmacies within 500 m of …"),
        Case(radiusMeters: 1234.5, center: london, width: 30, title: "Pharmacies within 1.2 km of …"),
        Case(radiusMeters: 1234.5, center: london, width: 40, title: "Pharmacies within 1.2 km of 51.5152, …"),
        Case(
            kind: "charging_station", width: 60, title: "Charging_stations within 500 m of 41.088154, 29.015615"),
        Case(kind: "charging_station", width: 40, title: "Charging_stations within 500 m of …"),
        // "500 m" is one word: never "within 500 …" alone.
        Case(kind: "charging_station", width: 31, title: "Charging_stations within …"),
        // Only a kind longer than the width is cut inside.
        Case(
            kind: String(repeating: "k", count: 40), width: 30,
            title: "K" + String(repeating: "k", count: 28) + "…"),
    ]

    @Test(arguments: cases)
    func titlesAreShortenedAtAWord(_ example: Case) throws {
        let glyphs = MapGlyphs.of(example.characters)
        let title = MapWording.title(
            kind: example.kind, radiusMeters: example.radiusMeters, center: example.center, width: example.width,
            ellipsis: glyphs.ellipsis)
        #expect(title == example.title)
        let map = try MapRenderer(width: example.width, height: 24, style: MapStyle(characters: example.characters))
            .render(
                MapModel(center: example.center, radiusMeters: example.radiusMeters, kind: example.kind, markers: []))
        #expect(map.lines.first == example.title)
    }

    /// At every width the title is whole, or whole words of it and an ellipsis: never a number cut.
    @Test(arguments: MapRenderer.widthRange.lowerBound...120)
    func titlesNeverCutANumber(width: Int) throws {
        for center in [Self.istanbul, Self.london, try Coordinate(latitude: -33.868820, longitude: 151.209296)] {
            for radius in [0.0, 62.5, 500, 1234.5, 20_000_000] {
                let whole = MapWording.title(
                    kind: "pharmacy", radiusMeters: radius, center: center, width: 1000, ellipsis: "…")
                let title = MapWording.title(
                    kind: "pharmacy", radiusMeters: radius, center: center, width: width, ellipsis: "…")
                #expect(TerminalColumns.width(title) <= width)
                if title != whole {
                    #expect(title.hasSuffix(" …"), "\(title)")
                    #expect(whole.hasPrefix(String(title.dropLast(2)) + " "), "\(title) is not words of \(whole)")
                }
            }
        }
    }
}
