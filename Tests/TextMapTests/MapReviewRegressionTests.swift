import Foundation
import Geo
import Testing

@testable import TextMap

/// Regression tests for the first review of the text map: each names the case that went wrong.
@Suite struct MapReviewRegressionTests {
    static let here = MapRendererTests.here

    static func model(
        _ markers: [MapMarker], radius: Double = 500, halfExtent: Double? = nil, kind: String = "pharmacy",
        nearest: MapMarker? = nil
    ) -> MapModel {
        MapModel(
            center: here, radiusMeters: radius, halfExtentMeters: halfExtent, kind: kind, markers: markers,
            nearestBeyondRadius: nearest)
    }

    static func render(
        _ model: MapModel, width: Int = 80, height: Int = 24, style: MapStyle = MapStyle(characters: .ascii)
    )
        throws -> RenderedMap
    {
        try MapRenderer(width: width, height: height, style: style).render(model)
    }

    /// `vicinity map 51.5152 -0.1420 --extent 1e-300` trapped converting the ring's size to Int;
    /// `--extent 1e-10` allocated 34 GB; `--radius 1000000 --extent 1` took 20 s. A ring wholly
    /// outside the frame is now skipped before any dot is computed.
    @Test(arguments: [(500.0, 1e-300), (500, 1e-10), (1_000_000, 1), (5_000_000, 1000), (500, 5e-324)])
    func aRingFarLargerThanTheMapIsSkippedQuickly(radius: Double, halfExtent: Double) throws {
        let clock = ContinuousClock()
        var map: RenderedMap?
        let elapsed = try clock.measure {
            map = try Self.render(
                Self.model([MapRendererTests.marker("A", east: 0.5, north: 0)], radius: radius, halfExtent: halfExtent))
        }
        #expect(elapsed < .seconds(2))
        let drawn = try #require(map)
        #expect(!drawn.text.contains("from you"))
        // No ring dot inside the frame (the panel beside it has the scale's "0.5 m").
        let inside = drawn.lines[2..<(2 + drawn.side)].map { $0.prefix(2 * drawn.side + 3) }
        #expect(inside.allSatisfy { !$0.contains(".") })
    }

    @Test func ringDotsAreOnlyComputedInsideTheFrame() {
        for radius in [1e300, .infinity, .nan, 100.5] {
            #expect(
                MapRing(radiusCells: radius, columnsPerCell: 2, linesPerCell: 1).dots(maxColumn: 40, maxLine: 20)
                    .isEmpty)
        }
        // A ring through the corners still shows there.
        let corners = MapRing(radiusCells: 22, columnsPerCell: 2, linesPerCell: 1).dots(maxColumn: 40, maxLine: 20)
        #expect(!corners.isEmpty && corners.allSatisfy { abs($0.column) <= 40 && abs($0.line) <= 20 })
    }

    /// The legend said "1 pharmacy, see list below" when every place was in a cluster, and read
    /// like a count of one pharmacy: it now names a number drawn ("pharmacy no. 1"), and a count
    /// only where the map shows one.
    @Test func legendListsNumbersOnlyWhenOneIsDrawn() throws {
        let clustered = try Self.render(
            Self.model([
                MapRendererTests.marker("A", east: 200, north: 200),
                MapRendererTests.marker("B", east: 201, north: 199),
            ]))
        #expect(clustered.entries.allSatisfy { $0.symbol == "x2" })
        #expect(!clustered.text.contains("in list"))
        #expect(clustered.text.contains("x2  2 pharmacies in a square"))
        let single = try Self.render(Self.model([MapRendererTests.marker("A", east: 200, north: 200)]))
        #expect(single.text.contains("1  pharmacy no. 1 in list"))
        #expect(!single.text.contains("see list below"))
    }

    /// The legend listed ". 500 m from you" when the places next to "you" covered every ring dot.
    @Test func legendListsTheRingOnlyWhenADotShows() throws {
        // A ring one cell across; its dots are N, S, E and W of "you", where the four places go.
        func model(_ cell: Double, covered: Bool) -> MapModel {
            let steps: [(Double, Double)] = covered ? [(1, 0), (-1, 0), (0, 1), (0, -1)] : []
            return Self.model(
                steps.enumerated().map { MapRendererTests.marker("P\($0)", east: $1.0 * cell, north: $1.1 * cell) },
                radius: cell * 1.01, halfExtent: 1000)
        }
        // The size depends on the legend and the list: settle it before placing the four.
        for covered in [false, true] {
            var map = try Self.render(model(100, covered: covered))
            for _ in 0..<3 {
                let next = try Self.render(model(map.metersPerCell, covered: covered))
                if next.side == map.side {
                    map = next
                    break
                }
                map = next
            }
            let side = map.side
            let inside = map.lines[2..<(2 + side)].map { $0.prefix(2 * side + 3) }
            #expect(map.text.contains("from you") == !covered)
            #expect(inside.contains { $0.contains(".") } == !covered)
        }
    }

    /// Radii read in kilometers from 1 km: "5000000 m" was hard to read.
    @Test func largeRadiiReadInKilometers() throws {
        let map = try Self.render(Self.model([], radius: 5_000_000))
        #expect(map.lines[0].hasPrefix("Pharmacies within 5000 km of"))
        #expect(map.text.contains(".  5000 km from you"))
        #expect(map.lines.last == "No pharmacy within 5000 km.")
    }

    /// A place exactly at the centre has no direction: it is "here", drawn merged with "you".
    @Test func aPlaceAtTheCentreIsHere() throws {
        let map = try Self.render(Self.model([MapRendererTests.marker("Home", east: 0, north: 0)]))
        #expect(map.entries[0].cell == MapCell(column: map.side / 2, row: map.side / 2))
        #expect(map.lines.last == "&  Home  0 m  here")
    }

    /// In the large style "[15]" in the easternmost cell touched the frame ("[15]|").
    @Test func largeLabelsKeepOffTheFrame() throws {
        let style = MapStyle(characters: .ascii, large: true)
        // The map's size depends on the screen alone: its cell is known before placing anything.
        let side = try Self.render(Self.model([], halfExtent: 600), width: 120, height: 60, style: style).side
        let cell = 1200 / Double(side)
        // Fourteen places nearer than the one under test, each alone in its cell.
        let near = (-2...2).flatMap { column in (-2...2).map { (Double(column), Double($0)) } }
            .filter { $0 != (0, 0) }.prefix(14)
        let markers =
            near.enumerated().map { MapRendererTests.marker("near \($0)", east: $1.0 * cell, north: $1.1 * cell) }
            + [MapRendererTests.marker("edge", east: Double(side / 2) * cell, north: 0.4 * cell)]
        let map = try Self.render(Self.model(markers, halfExtent: 600), width: 120, height: 60, style: style)
        #expect(side >= 9)
        let edge = try #require(map.entries.last)
        #expect(edge.number == 15 && edge.cell?.column == side - 1 && edge.symbol == "15")
        let line = try #require(map.lines.dropFirst().first { $0.contains("15") })
        #expect(line.contains(" 15  |"))
        #expect(!map.lines.contains { $0.contains("]|") })
    }

    /// `MapWording.printable` replaced only control characters: U+202E could flip a list line.
    @Test func formatCharactersCannotFlipALine() {
        for hostile in [
            "\u{202E}", "\u{200E}", "\u{200F}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{1B}", "\u{2028}",
        ] {
            #expect(MapWording.printable("a\(hostile)b") == "a\u{FFFD}b")
        }
        #expect(MapWording.printable("Eczane 東京 🙂") == "Eczane 東京 🙂")
    }

    @Test(arguments: [
        ("abc", 3), ("東京", 4), ("ｱ", 1), ("Ａ", 2), ("🙂", 2), ("한국", 4), ("ひら", 4), ("é", 1), ("", 0),
    ])
    func terminalColumnsCountWideCharactersTwice(text: String, columns: Int) {
        #expect(TerminalColumns.width(text) == columns)
    }

    @Test func cuttingKeepsWithinTheColumns() {
        #expect(TerminalColumns.cut("東京都新宿区", to: 7, ellipsis: "…") == "東京都…")
        #expect(TerminalColumns.cut("abc", to: 3, ellipsis: "...") == "abc")
        #expect(
            TerminalColumns.wrap("No pharmacy within 100 m.", to: 12, ellipsis: "…") == [
                "No pharmacy", "within 100", "m.",
            ])
    }
}
