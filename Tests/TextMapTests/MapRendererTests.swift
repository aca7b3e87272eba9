import Foundation
import Geo
import Testing

@testable import TextMap

/// The renderer's cases one by one: errors, the empty map, clusters, crowding, colour.
@Suite struct MapRendererTests {
    static let here = try! Coordinate(latitude: 41.088154, longitude: 29.015615)

    static func marker(_ name: String, east: Double, north: Double, kind: String = "pharmacy") -> MapMarker {
        MapMarker(
            name: name, kind: kind, distanceMeters: (east * east + north * north).squareRoot(),
            bearingDegrees: Bearing.normalized(atan2(east, north) * 180 / .pi), eastMeters: east, northMeters: north)
    }

    static func render(_ markers: [MapMarker], radius: Double = 500, style: MapStyle = MapStyle(characters: .ascii))
        throws -> RenderedMap
    {
        try MapRenderer(width: 80, height: 24, style: style).render(
            MapModel(center: here, radiusMeters: radius, kind: "pharmacy", markers: markers))
    }

    @Test func sizesOutsideTheRangeAreRejectedWithTheRange() {
        #expect(throws: TextMapError.invalidWidth(29)) { try MapRenderer(width: 29, height: 24) }
        #expect(throws: TextMapError.invalidHeight(1001)) { try MapRenderer(width: 80, height: 1001) }
        #expect(TextMapError.invalidWidth(29).description == "invalid map width 29: expected 30 to 1000 columns")
        #expect(TextMapError.invalidHeight(9).description == "invalid map height 9: expected 10 to 1000 lines")
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func badRadiusIsRejected(radius: Double) throws {
        let model = MapModel(
            center: Self.here, radiusMeters: radius, halfExtentMeters: 100, kind: "pharmacy", markers: [])
        #expect(throws: TextMapError.self) { try MapRenderer().render(model) }
    }

    @Test(arguments: [0.0, -5, .nan])
    func badHalfExtentIsRejected(extent: Double) throws {
        let model = MapModel(
            center: Self.here, radiusMeters: 100, halfExtentMeters: extent, kind: "pharmacy", markers: [])
        let error = #expect(throws: TextMapError.self) { try MapRenderer().render(model) }
        #expect(error?.description.hasPrefix("invalid map half-extent") == true)
    }

    /// The original app left its user with an empty map away from home: name the nearest anyway.
    @Test func emptyMapNamesTheNearestPlaceBeyondTheRadius() throws {
        let model = try MapFixture.model(
            "places-istanbul-example.csv", latitude: 41.088154, longitude: 29.015615, radiusMeters: 100)
        let map = try MapRenderer(width: 80, height: 24, style: MapStyle(characters: .ascii)).render(model)
        #expect(map.entries.isEmpty)
        #expect(map.lines.last == "No pharmacy within 100 m. Nearest: Omur, 132 m WSW.")
        #expect(!map.text.contains("see list below"))
        let large = try MapRenderer(width: 80, height: 24, style: MapStyle(large: true)).render(model)
        #expect(large.lines.last == "No pharmacy within 100 m. Nearest: Omur, 132 m west-southwest.")
    }

    @Test func emptyMapWithNothingAnywhereSaysSo() throws {
        let model = MapModel(center: Self.here, radiusMeters: 50, kind: "user", markers: [])
        let map = try MapRenderer(width: 80, height: 24).render(model)
        #expect(map.lines.last == "No user within 50 m.")
        #expect(map.lines.first == "Users within 50 m of 41.088154, 29.015615")
    }

    @Test func placesSharingACellShowOneClusterAndAreEachListed() throws {
        let map = try Self.render([
            Self.marker("A", east: 200, north: 200), Self.marker("B", east: 203, north: 198),
            Self.marker("C", east: -300, north: 0),
        ])
        #expect(map.entries.map(\.isClustered) == [true, true, false])
        #expect(map.entries[0].cell == map.entries[1].cell)
        #expect(map.entries.map(\.symbol) == ["#", "#", "3"])
        #expect(map.text.components(separatedBy: "#").count - 1 == 2)  // the cell and the legend
        #expect(map.lines.contains { $0.hasSuffix("#  2 or more pharmacies") })
        #expect(map.lines.suffix(3).map { $0.prefix(4) } == ["1  A", "2  B", "3  C"])
    }

    /// "13" beside "8" read "138" in the first London rendering at 800 m.
    @Test func twoDigitNumbersKeepClearOfTheirNeighbours() throws {
        // Eleven places far away so the two under test are numbered 12 and 13, in neighbouring cells.
        func markers(cell: Double) -> [MapMarker] {
            (0..<11).map { Self.marker("far \($0)", east: -400 + Double($0) * 10, north: -400) } + [
                Self.marker("crowded", east: 3 * cell, north: 3 * cell),
                Self.marker("next", east: 4 * cell, north: 3 * cell),
            ]
        }
        // The side depends on the legend, which depends on what the map shows: settle it first.
        var side = try Self.render(markers(cell: 1)).side
        var map = try Self.render(markers(cell: 1200 / Double(side)))
        if map.side != side {
            side = map.side
            map = try Self.render(markers(cell: 1200 / Double(side)))
        }
        #expect(map.entries.suffix(2).map(\.cell?.row) == [side / 2 - 3, side / 2 - 3])
        let line = try #require(map.lines.first { $0.contains("12") })
        #expect(line.contains("12 13"))
    }

    /// A place in the centre cell would hide "you": it is drawn next to it, towards it.
    @Test func placeAtTheCentreIsDrawnBesideYou() throws {
        let map = try Self.render([Self.marker("Here", east: 5, north: 20)])
        let half = map.side / 2
        #expect(map.entries[0].cell == MapCell(column: half, row: half - 1))
        #expect(map.lines.contains { $0.contains("@") && $0.hasPrefix("|") })
    }

    @Test func colourWrapsSymbolsAndStripsToThePlainText() throws {
        let markers = [Self.marker("A", east: 100, north: 50)]
        let plain = try Self.render(markers, style: MapStyle())
        let colored = try Self.render(markers, style: MapStyle(color: true))
        #expect(!plain.text.contains("\u{1B}"))
        #expect(colored.text.contains("\u{1B}[1;32m1\u{1B}[0m"))
        let stripped = colored.text.replacingOccurrences(
            of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain.text)
    }

    @Test func otherKindsAreNamedInTheList() throws {
        let map = try Self.render([Self.marker("Ayse", east: 10, north: 100, kind: "user")])
        #expect(map.lines.last == "1  Ayse (user)  100 m  N")
    }

    @Test func longNamesAreCutToTheWidth() throws {
        let name = String(repeating: "Pharmacy ", count: 12)
        let map = try MapRenderer(width: 40, height: 24, style: MapStyle(characters: .ascii)).render(
            MapModel(
                center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: [Self.marker(name, east: 0, north: 90)]
            ))
        let row = try #require(map.lines.last)
        #expect(row.count <= 40 && row.contains("...") && row.hasSuffix("90 m  N"))
    }

    /// A first version took a large map that left half the screen to a long list over a smaller
    /// one that fitted the whole output.
    @Test func aMapThatFitsWithItsListBeatsALargerOne() throws {
        let markers = (0..<40).map { Self.marker("P\($0)", east: Double($0) * 10 - 200, north: 100) }
        let map = try MapRenderer(width: 80, height: 60, style: MapStyle(characters: .ascii)).render(
            MapModel(center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: markers))
        #expect(map.lines.count <= 60)
        #expect(map.side >= 13)
    }

    /// With no size that fits, the map still gets half the screen rather than shrinking to nothing.
    @Test func aListTooLongForTheScreenLeavesTheMapHalf() throws {
        let markers = (0..<80).map { Self.marker("P\($0)", east: Double($0) * 5 - 200, north: 100) }
        let map = try MapRenderer(width: 80, height: 40, style: MapStyle(characters: .ascii)).render(
            MapModel(center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: markers))
        #expect(map.side == 17)  // 1 title + 19 framed lines = half of 40
        #expect(map.lines.count == 1 + 19 + 1 + 80)
    }
}
