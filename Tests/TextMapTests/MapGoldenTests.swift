import Testing

@testable import TextMap

/// Whole maps against the committed golden files (`Golden/README.md` says how to regenerate them).
@Suite struct MapGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var golden: String
        var places: String
        var latitude: Double
        var longitude: Double
        var radiusMeters: Double
        var width = 80
        var height = 24
        var style = MapStyle(characters: .ascii)
        /// Opening states for the places (`hours-*.csv`), or none.
        var hours: String?
        var testDescription: String { golden }
    }

    static let istanbul = "places-istanbul-example.csv"
    static let london = "places-london-oxford-circus.csv"
    static let crowded = "places-crowded.csv"

    static let cases: [Case] = [
        Case(
            golden: "istanbul-500m-80x24-ascii.txt", places: istanbul, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500),
        Case(
            golden: "istanbul-100m-80x24-ascii.txt", places: istanbul, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 100),
        Case(
            golden: "istanbul-500m-80x24-unicode.txt", places: istanbul, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, style: MapStyle()),
        Case(
            golden: "istanbul-500m-80x24-large-ascii.txt", places: istanbul, latitude: 41.088154,
            longitude: 29.015615, radiusMeters: 500, style: MapStyle(characters: .ascii, large: true)),
        Case(
            golden: "istanbul-500m-60x16-color.txt", places: istanbul, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, width: 60, height: 16, style: MapStyle(color: true)),
        Case(
            golden: "london-oxford-circus-500m-80x24-ascii.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 500),
        Case(
            golden: "london-oxford-circus-500m-100x40-unicode.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 500, width: 100, height: 40, style: MapStyle()),
        Case(
            golden: "london-oxford-circus-500m-80x24-large-ascii.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 500, style: MapStyle(characters: .ascii, large: true)),
        Case(
            golden: "london-oxford-circus-800m-80x24-ascii.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 800),
        // The size of issue 15's report (the map once shrank with its list), clusters, a cut list.
        Case(
            golden: "london-oxford-circus-800m-60x20-unicode.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 800, width: 60, height: 20, style: MapStyle()),
        // Two places in the centre cell, three in one cell east, two in one cell north.
        Case(
            golden: "crowded-500m-80x24-unicode.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, style: MapStyle()),
        Case(
            golden: "crowded-500m-80x24-ascii.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500),
        Case(
            golden: "crowded-500m-60x20-ascii.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, width: 60, height: 20),
        Case(
            golden: "crowded-500m-40x30-ascii.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, width: 40, height: 30),
        Case(
            golden: "crowded-500m-30x30-unicode.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, width: 30, height: 30, style: MapStyle()),
        Case(
            golden: "crowded-500m-80x16-ascii.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, width: 80, height: 16),
        Case(
            golden: "crowded-500m-80x30-large-unicode.txt", places: crowded, latitude: 41.088154,
            longitude: 29.015615, radiusMeters: 500, width: 80, height: 30, style: MapStyle(large: true)),
        // Opening states (issue 19): open places numbered, closed `o`/`○`, hours unknown `?`.
        Case(
            golden: "hours-london-oxford-circus-500m-80x24-ascii.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 500, hours: "hours-london-oxford-circus.csv"),
        Case(
            golden: "hours-london-oxford-circus-800m-60x20-unicode.txt", places: london, latitude: 51.5152,
            longitude: -0.1420, radiusMeters: 800, width: 60, height: 20, style: MapStyle(),
            hours: "hours-london-oxford-circus.csv"),
        Case(
            golden: "hours-crowded-500m-80x24-unicode.txt", places: crowded, latitude: 41.088154,
            longitude: 29.015615, radiusMeters: 500, style: MapStyle(), hours: "hours-crowded.csv"),
        Case(
            golden: "hours-crowded-500m-80x24-color.txt", places: crowded, latitude: 41.088154,
            longitude: 29.015615, radiusMeters: 500, style: MapStyle(characters: .ascii, color: true),
            hours: "hours-crowded.csv"),
        Case(
            golden: "hours-crowded-500m-30x30-ascii.txt", places: crowded, latitude: 41.088154, longitude: 29.015615,
            radiusMeters: 500, width: 30, height: 30, hours: "hours-crowded.csv"),
        Case(
            golden: "hours-crowded-500m-80x30-large-ascii.txt", places: crowded, latitude: 41.088154,
            longitude: 29.015615, radiusMeters: 500, width: 80, height: 30,
            style: MapStyle(characters: .ascii, large: true), hours: "hours-crowded.csv"),
    ]

    @Test(arguments: cases)
    func matchesGoldenFile(_ example: Case) throws {
        let model = try MapFixture.model(
            example.places, latitude: example.latitude, longitude: example.longitude,
            radiusMeters: example.radiusMeters, hours: example.hours)
        let map = try MapRenderer(width: example.width, height: example.height, style: example.style).render(model)
        GoldenFile.check(map.text, against: example.golden)
    }

    /// The original app's example: of "100 / 400 / 450 meters away", only Omur is within 500 m.
    @Test func istanbulDrawsAndListsOnlyOmur() throws {
        let model = try MapFixture.model(Self.istanbul, latitude: 41.088154, longitude: 29.015615, radiusMeters: 500)
        let map = try MapRenderer(width: 80, height: 24, style: MapStyle(characters: .ascii)).render(model)
        #expect(map.entries.map(\.marker.name) == ["Omur"])
        #expect(map.entries.first?.symbol == "1")
        #expect(map.lines.contains("1  Omur  132 m  WSW"))
        #expect(!map.text.contains("Emre") && !map.text.contains("Arzu"))
        #expect(map.lines.count <= 24 && map.lines.allSatisfy { $0.count <= 80 })
    }

    @Test func londonListsEveryPharmacyWithin500MetersNearestFirst() throws {
        let model = try MapFixture.model(Self.london, latitude: 51.5152, longitude: -0.1420, radiusMeters: 500)
        let map = try MapRenderer(width: 80, height: 24, style: MapStyle(characters: .ascii)).render(model)
        #expect(map.entries.count == 6)
        #expect(map.entries.allSatisfy { $0.cell != nil && $0.symbol == $0.number.map(String.init) })
        let listed = map.lines.filter { $0.first?.isNumber == true }
        #expect(listed.map { $0.prefix(1) } == ["1", "2", "3", "4", "5", "6"])
        #expect(map.lines.count <= 24 && map.lines.allSatisfy { $0.count <= 80 })
    }
}
