import Foundation
import Geo
import Testing

@testable import TextMap

/// Opening states on the map (issue 19): open places keep their numbers, closed ones and those
/// with hours unknown show their own symbols, the legend explains only the symbols drawn, and the
/// list says until when; a map without states is drawn as before.
@Suite struct MapOpeningTests {
    static let here = MapRendererTests.here

    static func marker(_ name: String, east: Double, north: Double, _ opening: MapMarker.Opening?) -> MapMarker {
        var marker = MapRendererTests.marker(name, east: east, north: north)
        marker.opening = opening
        return marker
    }

    static func render(
        _ markers: [MapMarker], width: Int = 80, height: Int = 24, style: MapStyle = MapStyle(characters: .ascii),
        nearest: MapMarker? = nil
    ) throws -> RenderedMap {
        try MapRenderer(width: width, height: height, style: style).render(
            MapModel(
                center: here, radiusMeters: 500, kind: "pharmacy", markers: markers, nearestBeyondRadius: nearest))
    }

    /// One of each state, each alone in its cell.
    static let mixed = [
        marker("Open", east: 0, north: 150, .open(until: "Thu 19:30")),
        marker("Closed", east: 200, north: 0, .closed(opensAt: "Mon 08:30")),
        marker("Duty", east: 0, north: -250, .open(until: "Fri 08:30", onDuty: true)),
        marker("Unknown", east: -300, north: 0, .unknown),
    ]

    @Test func openPlacesKeepTheirNumbersClosedAndUnknownShowTheirSymbols() throws {
        let map = try Self.render(Self.mixed)
        #expect(map.entries.map(\.marker.name) == ["Open", "Closed", "Duty", "Unknown"])
        #expect(map.entries.map(\.number) == [1, nil, 2, nil])
        #expect(map.entries.map(\.symbol) == ["1", "o", "2", "?"])
        let unicode = try Self.render(Self.mixed, style: MapStyle())
        #expect(unicode.entries.map(\.symbol) == ["1", "○", "2", "?"])
    }

    @Test func theListSaysUntilWhenEachPlaceIsOpenOrClosed() throws {
        let map = try Self.render(Self.mixed)
        #expect(
            Array(map.lines.suffix(4)) == [
                "1  Open     150 m  N  open until Thu 19:30",
                "o  Closed   200 m  E  closed, opens Mon 08:30",
                "2  Duty     250 m  S  on duty until Fri 08:30",
                "?  Unknown  300 m  W  hours unknown",
            ])
    }

    @Test(arguments: [
        (MapMarker.Opening.open(until: "19:30"), "open until 19:30"),
        (.open(until: nil), "open"),
        (.open(until: "08:30", onDuty: true), "on duty until 08:30"),
        (.open(until: nil, onDuty: true), "on duty"),
        (.closed(opensAt: "Mon 08:30"), "closed, opens Mon 08:30"),
        (.closed(opensAt: nil), "closed"),
        (.unknown, "hours unknown"),
    ])
    func statesReadAsTheListGivesThem(opening: MapMarker.Opening, text: String) {
        #expect(opening.listText == text)
    }

    /// A label from a data file cannot drive the terminal or break the line.
    @Test func labelsArePrintable() {
        #expect(MapMarker.Opening.open(until: "19:30\u{1B}[31m\n").listText == "open until 19:30\u{FFFD}[31m\u{FFFD}")
    }

    @Test func theLegendExplainsOpenClosedAndUnknownWhenDrawn() throws {
        let map = try Self.render(Self.mixed)
        #expect(map.lines.contains { $0.hasSuffix("   1  open pharmacy no. 1 in list") })
        #expect(map.lines.contains { $0.hasSuffix("   o  closed pharmacy") })
        #expect(map.lines.contains { $0.hasSuffix("   ?  hours unknown") })
        #expect(!map.text.contains("on duty") || !map.lines.prefix(16).contains { $0.contains("on duty") })
    }

    /// The legend explains only what is drawn: no "closed" entry on a map of open places, no
    /// "open" wording on one without numbers.
    @Test func theLegendHasNoEntryForAStateNotDrawn() throws {
        let allOpen = try Self.render([Self.mixed[0], Self.mixed[2]])
        #expect(allOpen.text.contains("open pharmacy no. 1 in list"))
        #expect(!allOpen.text.contains("closed pharmacy") && !allOpen.text.contains("hours unknown"))
        let allClosed = try Self.render([Self.mixed[1]])
        #expect(allClosed.text.contains("closed pharmacy"))
        #expect(!allClosed.text.contains("in list") && !allClosed.text.contains("hours unknown"))
        // Closed places that only share cells show a count, not the closed symbol.
        let sharing = try Self.render([
            Self.marker("A", east: 200, north: 200, .closed(opensAt: nil)),
            Self.marker("B", east: 203, north: 198, .unknown),
        ])
        #expect(sharing.entries.map(\.symbol) == ["x2", "x2"])
        #expect(!sharing.text.contains("closed pharmacy") && !sharing.text.contains("   ?  "))
        #expect(sharing.lines.suffix(2) == ["x2  A  283 m  NE  closed", "    B  284 m  NE  hours unknown"])
    }

    /// "Hours unknown are listed as unknown, never as open": a marker without a state on a map
    /// with states is not numbered like an open place.
    @Test func aPlaceWithoutAStateOnAMapWithStatesIsHoursUnknown() throws {
        let map = try Self.render([
            Self.marker("Open", east: 0, north: 150, .open(until: nil)),
            Self.marker("Nothing", east: 200, north: 0, nil),
        ])
        #expect(map.entries.map(\.symbol) == ["1", "?"])
        #expect(map.lines.last == "?  Nothing  200 m  E  hours unknown")
    }

    /// Open places keep the numbers and cells they have without states; only the legend's wording
    /// and the list's states change.
    @Test func openPlacesAreDrawnWhereTheyWereWithoutStates() throws {
        let model = try MapFixture.model(
            "places-london-oxford-circus.csv", latitude: 51.5152, longitude: -0.1420, radiusMeters: 500)
        var open = model
        open.markers = model.markers.map { marker in
            var marker = marker
            marker.opening = .open(until: nil)
            return marker
        }
        let renderer = try MapRenderer(width: 100, height: 40, style: MapStyle(characters: .ascii))
        let before = try renderer.render(model)
        let after = try renderer.render(open)
        #expect(after.entries.map(\.symbol) == before.entries.map(\.symbol))
        #expect(after.entries.map(\.cell) == before.entries.map(\.cell))
        let frame = { (map: RenderedMap) in
            map.lines.prefix(1 + map.side + 2).map { String($0.prefix(2 * map.side + 3)) }
        }
        #expect(frame(after) == frame(before))
    }

    @Test func colourShowsOpenInGreenAndClosedDimmed() throws {
        let map = try Self.render(Self.mixed, style: MapStyle(characters: .ascii, color: true))
        let text = map.text
        #expect(text.contains("\u{1B}[1;32m1\u{1B}[0m"))  // the open place's number, as markers always were
        #expect(text.contains("\u{1B}[2mo\u{1B}[0m"))  // the closed symbol, dimmed
        #expect(text.contains("\u{1B}[2m?\u{1B}[0m"))
        #expect(text.contains("\u{1B}[32mopen until Thu 19:30\u{1B}[0m"))
        #expect(text.contains("\u{1B}[32mon duty until Fri 08:30\u{1B}[0m"))
        #expect(text.contains("\u{1B}[2mclosed, opens Mon 08:30\u{1B}[0m"))
        #expect(text.contains("\u{1B}[2mhours unknown\u{1B}[0m"))
        // Large is high contrast: bold rather than dim.
        let large = try Self.render(Self.mixed, style: MapStyle(characters: .ascii, color: true, large: true))
        #expect(!large.text.contains("\u{1B}[2m"))
        #expect(large.text.contains("\u{1B}[1;32mopen until Thu 19:30\u{1B}[0m"))
    }

    /// Without colour a cell of places none of which is open shows the same count as any other;
    /// with colour it is dimmed, on the map and in the list.
    @Test func aCellOfClosedPlacesShowsItsCountDimmed() throws {
        let closed = [
            Self.marker("A", east: 200, north: 200, .closed(opensAt: nil)),
            Self.marker("B", east: 203, north: 198, .unknown),
        ]
        let map = try Self.render(closed, style: MapStyle(characters: .ascii, color: true))
        #expect(map.text.components(separatedBy: "\u{1B}[2mx2\u{1B}[0m").count - 1 == 2)  // map and list
        let mixed = try Self.render(
            [closed[0], Self.marker("C", east: 203, north: 198, .open(until: nil))],
            style: MapStyle(characters: .ascii, color: true))
        #expect(!mixed.text.contains("\u{1B}[2mx2"))
        #expect(mixed.text.contains("\u{1B}[1;33mx2\u{1B}[0m"))
    }

    @Test func closedPlacesOutsideTheMapAreListedUnderTheirSymbol() throws {
        let map = try Self.render([
            Self.marker("Far open", east: 5000, north: 0, .open(until: "Thu 19:30")),
            Self.marker("Far closed", east: 0, north: -6000, .closed(opensAt: "Fri 08:30")),
        ])
        #expect(map.entries.map(\.number) == [1, nil])
        #expect(
            map.lines.suffix(3) == [
                "Outside the map:",
                "1  Far open    5.0 km  E  open until Thu 19:30",
                "o  Far closed  6.0 km  S  closed, opens Fri 08:30",
            ])
    }

    @Test func anEmptyMapGivesTheNearestPlacesState() throws {
        let nearest = Self.marker("Omur", east: -700, north: -200, .closed(opensAt: "Fri 08:30"))
        let map = try Self.render([], nearest: nearest)
        #expect(map.lines.last?.hasSuffix("Nearest: Omur, 728 m WSW (closed, opens Fri 08:30).") == true)
        var stateless = nearest
        stateless.opening = nil
        let before = try Self.render([], nearest: stateless)
        #expect(before.lines.last?.hasSuffix("Nearest: Omur, 728 m WSW.") == true)
    }

    /// On a narrow screen the states go on a line of their own under each name, rather than
    /// cutting the names to nothing.
    @Test func aNarrowListPutsTheStatesUnderTheNames() throws {
        let map = try Self.render(Self.mixed, width: 30, height: 40)
        let list = Array(map.lines.suffix(8))
        #expect(
            list == [
                "1  Open     150 m  N", "   open until Thu 19:30",
                "o  Closed   200 m  E", "   closed, opens Mon 08:30",
                "2  Duty     250 m  S", "   on duty until Fri 08:30",
                "?  Unknown  300 m  W", "   hours unknown",
            ])
    }

    /// A list cut to the height never shows a place without its state line. (At 30 columns the
    /// panel goes under the map: 25 lines hold the smallest map, its panel and one line of list.)
    @Test(arguments: 25...40)
    func aCutListListsEachPlaceWhole(height: Int) throws {
        let markers = (0..<12).map { (index: Int) -> MapMarker in
            let east = Double(index) * 35 - 200
            let north = Double(index % 5) * 70 - 150
            let opening: MapMarker.Opening = index % 3 == 0 ? .closed(opensAt: "Mon 08:30") : .open(until: "Thu 19:30")
            return Self.marker("Place \(index)", east: east, north: north, opening)
        }
        let map = try Self.render(markers, width: 30, height: height)
        let stateLines = map.lines.map { $0.drop { $0 == " " } }.filter {
            $0.hasPrefix("open until") || $0.hasPrefix("closed, opens")
        }
        let listed = map.entries.filter { $0.isListed }
        #expect(stateLines.count == listed.count, "\(map.text)")
        #expect(map.lines.count <= height)
        // Too few lines for a row and its state: none is listed half.
        #expect(listed.isEmpty == (height < 27))
        if listed.isEmpty { #expect(map.lines.last == "No room to list 12 pharmacies") }
    }

    @Test(arguments: 30...120)
    func everyLineFitsTheWidthWithStates(width: Int) throws {
        let states: [MapMarker.Opening?] = [
            .open(until: "Thu 19:30"), .closed(opensAt: "Mon 08:30"), .unknown, nil,
            .open(until: "Fri 08:30", onDuty: true), .closed(opensAt: String(repeating: "very late ", count: 10)),
        ]
        var markers = MapWidthTests.markers(count: 24, radius: 500)
        for index in markers.indices { markers[index].opening = states[index % states.count] }
        for characters in [MapStyle.Characters.unicode, .ascii] {
            for large in [false, true] {
                let map = try Self.render(
                    markers, width: width, height: 24 + width % 7,
                    style: MapStyle(characters: characters, large: large),
                    nearest: markers[0])
                for line in map.lines {
                    #expect(
                        TerminalColumns.width(line) <= width,
                        "\(TerminalColumns.width(line)) columns at width \(width): \(line)")
                }
            }
        }
    }

    /// The layout plans the panel with the states' legend entries, so a map with states never
    /// runs past the width, and beside the map no entry is cut.
    @Test(arguments: 30...90)
    func theLegendWithStatesFitsTheWidth(width: Int) throws {
        let map = try Self.render(Self.mixed, width: width, height: 40)
        #expect(map.lines.allSatisfy { TerminalColumns.width($0) <= width })
        for entry in ["1  open pharmacy no. 1", "o  closed pharmacy", "?  hours unknown"] {
            #expect(map.lines.contains { $0.hasSuffix(entry) || $0.contains(entry + " ") }, "\(entry) at \(width)")
        }
        #expect(!map.lines.dropFirst().contains { $0.hasSuffix("...") })
    }
}
