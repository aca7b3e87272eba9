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

    /// Places sharing a cell were drawn as one "#" while the list numbered each, so the list's
    /// numbers matched nothing on the map: the cell now shows the count, and the list gives the
    /// places under it.
    @Test func placesSharingACellShowTheirCountAndAreListedUnderIt() throws {
        let map = try Self.render([
            Self.marker("A", east: 200, north: 200), Self.marker("B", east: 203, north: 198),
            Self.marker("C", east: -300, north: 0),
        ])
        #expect(map.entries.map(\.isClustered) == [true, true, false])
        #expect(map.entries[0].cell == map.entries[1].cell)
        #expect(map.entries.map(\.symbol) == ["x2", "x2", "1"])
        #expect(map.entries.map(\.number) == [nil, nil, 1])
        #expect(map.text.components(separatedBy: "x2").count - 1 == 3)  // the cell, the legend, the list
        #expect(map.lines.contains { $0.hasSuffix("x2  2 pharmacies in a square") })
        #expect(map.lines.contains { $0.hasSuffix(" 1   pharmacy no. 1 in list") })
        #expect(map.lines.suffix(3).map { $0.prefix(5) } == ["x2  A", "    B", " 1  C"])
    }

    @Test(arguments: [(9, "x9"), (10, "x+"), (25, "x+")])
    func countsPastNineShowAPlus(count: Int, mark: String) throws {
        let markers = (0..<count).map { Self.marker("P\($0)", east: 200 + Double($0) * 0.1, north: 200) }
        let map = try MapRenderer(width: 80, height: 60, style: MapStyle(characters: .ascii)).render(
            MapModel(center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: markers))
        #expect(map.entries.allSatisfy { $0.symbol == mark })
        #expect(map.lines.contains { $0.contains(count <= 9 ? "x9  9 pharmacies in a square" : "x+  10 or more") })
        #expect(map.lines.filter { $0.hasPrefix("\(mark)  P") }.count == 1)
    }

    /// "13" beside "8" read "138" in the first London rendering at 800 m.
    @Test func twoDigitNumbersKeepClearOfTheirNeighbours() throws {
        // The map's size depends on the screen alone: its cell is known before placing anything.
        let cell = 1200 / Double(try Self.render([]).side)
        // Eleven places nearer than the two under test, each alone in its cell, so that those two
        // are numbered 12 and 13, in neighbouring cells.
        let nearer: [(east: Double, north: Double)] =
            (-2...2).flatMap { column in [-2.0, -1].map { (Double(column), $0) } } + [(0, 1)]
        var markers = nearer.enumerated().map { index, at in
            Self.marker("near \(index)", east: at.east * cell, north: at.north * cell)
        }
        markers.append(Self.marker("crowded", east: 3 * cell, north: 3 * cell))
        markers.append(Self.marker("next", east: 4 * cell, north: 3 * cell))
        let map = try Self.render(markers)
        let tested = Array(map.entries.suffix(2))
        #expect(tested.map(\.number) == [12, 13])
        #expect(tested.map { $0.cell?.row } == [map.side / 2 - 3, map.side / 2 - 3])
        let line = try #require(map.lines.first { $0.contains("12") })
        #expect(line.contains("12 13"))
    }

    /// A place in the centre cell was drawn one cell away from "you", though the README promises
    /// every place at its true distance and direction: it is drawn at the centre, merged with it.
    @Test func placeAtTheCentreIsDrawnAtTheCentre() throws {
        let map = try Self.render([Self.marker("Here", east: 5, north: 20), Self.marker("Far", east: 300, north: 0)])
        let half = map.side / 2
        #expect(map.entries[0].cell == MapCell(column: half, row: half))
        #expect(map.entries[0].symbol == "&" && map.entries[0].number == nil)
        let center = try #require(map.lines.dropFirst(2 + half).first)
        #expect(Array(center)[2 + 2 * half] == "&")
        #expect(!map.text.contains("@"))
        #expect(map.lines.contains { $0.hasSuffix("&  you + 1 pharmacy") })
        #expect(map.lines.suffix(2) == ["&  Here   21 m  NNE", "1  Far   300 m  E"])
        let unicode = try Self.render([Self.marker("Here", east: 5, north: 20)], style: MapStyle())
        #expect(unicode.lines.contains { $0.hasSuffix("◈  you + 1 pharmacy") })
        #expect(!unicode.text.contains("◉"))
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

    /// `/v1/map?width=60&height=20` drew a 33-column map with one result and a 29-column map with
    /// two: the list ate the map. The map's size now comes from the screen alone, and the list is cut.
    @Test(arguments: [(60, 20), (80, 24), (40, 24), (120, 50), (30, 10)])
    func theMapKeepsItsSizeWhateverTheList(width: Int, height: Int) throws {
        let renderer = try MapRenderer(width: width, height: height, style: MapStyle(characters: .ascii))
        var sides: Set<Int> = []
        for count in [0, 1, 2, 5, 40, 200] {
            let markers = (0..<count).map { Self.marker("P\($0)", east: Double($0 % 20) * 25 - 250, north: 100) }
            let map = try renderer.render(
                MapModel(center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: markers))
            sides.insert(map.side)
            #expect(map.lines.allSatisfy { TerminalColumns.width($0) <= width })
            if height >= 24 { #expect(map.lines.count <= height, "\(count) places: \(map.lines.count) lines") }
            let unlisted = map.entries.count { !$0.isListed }
            let summaries = ["... and \(unlisted) more", "No room to list \(count) pharmacies"]
            if unlisted > 0 { #expect(summaries.contains(map.lines.last ?? ""), "\(map.lines.last ?? "")") }
        }
        #expect(sides.count == 1, "sides \(sides)")
    }

    /// The list under a map too small for it is cut, its last line counting the places left out.
    @Test func aListTooLongForTheScreenIsCutWithACount() throws {
        let markers = (0..<80).map { Self.marker("P\($0)", east: Double($0) * 5 - 200, north: 100) }
        let map = try MapRenderer(width: 80, height: 40, style: MapStyle(characters: .ascii)).render(
            MapModel(center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: markers))
        #expect(map.lines.count == 40)
        let listed = map.entries.count(where: \.isListed)
        #expect(listed > 0 && listed < 80)
        #expect(map.lines.last == "... and \(80 - listed) more")
    }

    /// The documented floor: at 80 columns, from 14 lines up, the output never runs over the height,
    /// however many places there are (the README says "below about 14 lines").
    @Test(arguments: 14...40)
    func fromFourteenLinesTheOutputFitsTheHeight(height: Int) throws {
        let renderer = try MapRenderer(width: 80, height: height, style: MapStyle(characters: .ascii))
        for count in [0, 1, 3, 30] {
            let markers = (0..<count).map { Self.marker("P\($0)", east: Double($0) * 31 - 450, north: 120) }
            let map = try renderer.render(
                MapModel(center: Self.here, radiusMeters: 500, kind: "pharmacy", markers: markers))
            #expect(map.lines.count <= height, "\(count) places: \(map.lines.count) lines")
        }
    }

    /// An empty map's message too is cut to the lines left, ending in an ellipsis.
    @Test func theEmptyMessageIsCutToTheLinesLeft() throws {
        let nearest = Self.marker(String(repeating: "Long Name ", count: 20), east: -3000, north: 0)
        let model = MapModel(
            center: Self.here, radiusMeters: 100, kind: "pharmacy", markers: [], nearestBeyondRadius: nearest)
        let map = try MapRenderer(width: 80, height: 14, style: MapStyle(characters: .ascii)).render(model)
        #expect(map.lines.count == 14)
        #expect(map.lines.last?.hasSuffix(" ...") == true && map.lines.last?.hasPrefix("No pharmacy within") == true)
        let roomy = try MapRenderer(width: 80, height: 40, style: MapStyle(characters: .ascii)).render(model)
        #expect(roomy.lines.last == "km W." && !roomy.lines.contains { $0.hasSuffix(" ...") })
    }
}
