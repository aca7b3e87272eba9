import Foundation
import Geo
import Testing

@testable import TextMap

/// Random marker sets, sizes and styles: every drawn place is where it belongs and every place is
/// listed exactly once, nearest first.
@Suite struct MapPropertyTests {
    /// One random map: places scattered over and beyond the drawn square, some at the same spot.
    static func randomMap(seed: UInt64) throws -> (model: MapModel, renderer: MapRenderer) {
        var random = SplitMix64(seed: seed)
        let radius = [0.0, 20, 100, 500, 1234.5, 5000].randomElement(using: &random)!
        let halfExtent =
            Bool.random(using: &random) ? nil : max(radius, 50) * Double.random(in: 0.3...1.5, using: &random)
        let reach = (halfExtent ?? MapModel.defaultHalfExtent(radiusMeters: radius)) * 1.5
        var markers: [MapMarker] = []
        let count = Int.random(in: 0...(Bool.random(using: &random) ? 40 : 200), using: &random)
        for index in 0..<count {
            var east = Double.random(in: -reach...reach, using: &random)
            var north = Double.random(in: -reach...reach, using: &random)
            if let previous = markers.last, Int.random(in: 0..<5, using: &random) == 0 {
                (east, north) = (previous.eastMeters + 1, previous.northMeters - 1)
            }
            let distance = (east * east + north * north).squareRoot()
            guard distance <= radius else { continue }
            markers.append(
                MapMarker(
                    name: "P\(index)", kind: "place", distanceMeters: distance,
                    bearingDegrees: Bearing.normalized(atan2(east, north) * 180 / .pi), eastMeters: east,
                    northMeters: north))
        }
        markers.shuffle(using: &random)
        let style = MapStyle(
            characters: Bool.random(using: &random) ? .ascii : .unicode,
            large: Int.random(in: 0..<4, using: &random) == 0)
        let renderer = try MapRenderer(
            width: Int.random(in: 60...160, using: &random), height: Int.random(in: 10...70, using: &random),
            style: style)
        let center = try Coordinate(latitude: 10, longitude: 20)
        return (
            MapModel(
                center: center, radiusMeters: radius, halfExtentMeters: halfExtent, kind: "place", markers: markers),
            renderer
        )
    }

    @Test(arguments: 0..<300)
    func everyPlaceIsDrawnWhereItIsAndListedOnce(seed: UInt64) throws {
        let (model, renderer) = try Self.randomMap(seed: seed)
        let map = try renderer.render(model)
        let large = renderer.style.large
        let (cellWidth, cellHeight) = large ? (4, 2) : (2, 1)
        let glyphs = MapGlyphs.of(renderer.style.characters)
        let lines = map.lines.map { Array($0) }
        let half = map.side / 2

        // Numbered 1, 2, … nearest first, each place once.
        #expect(map.entries.map(\.number) == (0..<model.markers.count).map { $0 + 1 })
        #expect(Set(map.entries.map(\.markerIndex)).count == model.markers.count)
        #expect(
            zip(map.entries, map.entries.dropFirst()).allSatisfy {
                $0.marker.distanceMeters <= $1.marker.distanceMeters
            })

        // The map's centre symbol is in the middle of the frame.
        let centerLine = 2 + (cellHeight - 1) + cellHeight * half
        let centerColumn = 1 + 1 + cellWidth * half + cellWidth / 2 - 1
        #expect(String(lines[centerLine][centerColumn]) == glyphs.center)

        var occupants: [MapCell: Int] = [:]
        for entry in map.entries { if let cell = entry.cell { occupants[cell, default: 0] += 1 } }
        for entry in map.entries {
            guard let cell = entry.cell, let symbol = entry.symbol else {
                #expect(entry.cell == nil && entry.symbol == nil)
                // Outside the drawn square (or nearly on its edge).
                let limit = map.metersPerCell * (Double(half) + 0.5) * (1 - 1e-9)
                #expect(max(abs(entry.marker.eastMeters), abs(entry.marker.northMeters)) >= limit)
                continue
            }
            // The cell's centre is within half a cell of the true position, except for places in
            // the centre cell, moved next to it (within one cell). Whether a place was moved comes
            // from its true position, not from the offset under test: deriving it from the offset
            // gave every cell a whole cell of slack, and rounding toward zero in `MapGrid.cell`
            // passed every seed.
            let east = Double(cell.column - half) * map.metersPerCell
            let north = Double(half - cell.row) * map.metersPerCell
            let offset = max(abs(entry.marker.eastMeters - east), abs(entry.marker.northMeters - north))
            let moved = map.isInCenterCell(entry.marker)
            #expect(offset <= map.metersPerCell * (moved ? 1 : 0.5) + 1e-6, "P\(entry.number) in \(cell)")
            #expect(cell != MapCell(column: half, row: half))
            // The cell shows the number, or the cluster symbol if it is shared or crowded.
            if entry.isClustered { #expect(occupants[cell, default: 0] > 1 && symbol == glyphs.cluster) }
            if occupants[cell, default: 0] == 1 { #expect(!entry.isClustered) }
            let label = large ? "[\(entry.number)]" : String(entry.number)
            #expect(symbol == glyphs.cluster || symbol == label || (large && symbol == String(entry.number)))
            let line = lines[2 + (cellHeight - 1) + cellHeight * cell.row]
            let anchor = 2 + cellWidth * cell.column + (symbol.count == 1 ? cellWidth / 2 - 1 : 0)
            let starts = symbol.count == 2 && !large ? [anchor, anchor - 1] : [anchor]
            let start = starts.first { String(line[$0..<($0 + symbol.count)]) == symbol }
            #expect(start != nil, "\(symbol) at \(cell)")
            // Nothing touches it: "13" next to "8" must not read "138", nor a ring dot "13·".
            if let start, !large {
                for neighbour in [line[start - 1], line[start + symbol.count]] {
                    #expect(neighbour == " " || String(neighbour) == glyphs.vertical, "\(symbol) touches \(neighbour)")
                }
            }
        }

        // The list: each place once, drawn ones nearest first, then those outside the map.
        let rows = map.lines.compactMap { line -> (number: Int, name: String)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("P"),
                let number = Int(fields[0].trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
            else { return nil }
            return (number, String(fields[1]))
        }
        let drawn = map.entries.filter { $0.cell != nil }
        let outside = map.entries.filter { $0.cell == nil }
        #expect(rows.map(\.number) == (drawn + outside).map(\.number))
        #expect(rows.map(\.name) == (drawn + outside).map(\.marker.name))
        #expect(map.lines.contains("Outside the map:") == !outside.isEmpty)
        if model.markers.isEmpty {
            #expect(map.lines.last == "No place within \(MapWording.radius(model.radiusMeters)).")
        }

        // The renderer sizes the map from the list's line count without formatting it.
        let list = MapList(model: model, style: renderer.style, glyphs: glyphs, width: renderer.width)
        #expect(list.lineCount(map.entries) == list.lines(map.entries).count)

        // Everything fits the width (60 columns or more hold the widest legend beside or under the map).
        #expect(map.lines.allSatisfy { TerminalColumns.width($0) <= renderer.width })
    }
}

extension MapPropertyTests {
    /// The random maps above do reach the cases that matter: clusters, crowded two-digit numbers,
    /// places moved off the centre cell, places outside the map, empty maps, large cells.
    @Test func randomMapsCoverTheInterestingCases() throws {
        var seen: [String: Int] = [:]
        for seed in UInt64(0)..<300 {
            let (model, renderer) = try Self.randomMap(seed: seed)
            let map = try renderer.render(model)
            let half = map.side / 2
            let cluster = MapGlyphs.of(renderer.style.characters).cluster
            if model.markers.isEmpty { seen["empty", default: 0] += 1 }
            if renderer.style.large { seen["large", default: 0] += 1 }
            for entry in map.entries {
                if entry.isClustered { seen["clustered", default: 0] += 1 }
                if !entry.isClustered && entry.symbol == cluster { seen["no room", default: 0] += 1 }
                if entry.cell == nil { seen["outside", default: 0] += 1 }
                if entry.number >= 10 && entry.symbol == String(entry.number) { seen["two digits", default: 0] += 1 }
                if let cell = entry.cell, abs(cell.column - half) <= 1, abs(cell.row - half) <= 1,
                    map.isInCenterCell(entry.marker)
                {
                    seen["moved off the centre", default: 0] += 1
                }
            }
        }
        for feature in ["empty", "large", "clustered", "no room", "outside", "two digits", "moved off the centre"] {
            #expect(seen[feature, default: 0] >= 3, "only \(seen[feature, default: 0]) × \(feature)")
        }
    }
}

extension RenderedMap {
    /// Whether the marker's true position is in the centre cell.
    fileprivate func isInCenterCell(_ marker: MapMarker) -> Bool {
        max(abs(marker.eastMeters), abs(marker.northMeters)) < metersPerCell / 2
    }
}
