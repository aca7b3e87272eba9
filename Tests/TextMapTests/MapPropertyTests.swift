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
        let centerCell = MapCell(column: half, row: half)

        // Each place once; own numbers 1, 2, … down the list; each cell's places nearest first.
        #expect(map.entries.count == model.markers.count)
        #expect(Set(map.entries.map(\.markerIndex)).count == model.markers.count)
        let numbers = map.entries.compactMap(\.number)
        #expect(numbers == (0..<numbers.count).map { $0 + 1 })
        for (previous, next) in zip(map.entries, map.entries.dropFirst()) where previous.cell == next.cell {
            #expect(previous.marker.distanceMeters <= next.marker.distanceMeters)
        }

        // The centre symbol is in the middle of the frame, merged with the places in its cell.
        let centerLine = 2 + (cellHeight - 1) + cellHeight * half
        let centerColumn = 1 + 1 + cellWidth * half + cellWidth / 2 - 1
        let inCenter = map.entries.contains { $0.cell == centerCell }
        #expect(String(lines[centerLine][centerColumn]) == (inCenter ? glyphs.centerWithPlaces : glyphs.center))

        var occupants: [MapCell: Int] = [:]
        for entry in map.entries { if let cell = entry.cell { occupants[cell, default: 0] += 1 } }
        for entry in map.entries {
            guard let cell = entry.cell, let symbol = entry.symbol else {
                #expect(entry.cell == nil && entry.symbol == nil && entry.number != nil)
                // Outside the drawn square (or nearly on its edge).
                let limit = map.metersPerCell * (Double(half) + 0.5) * (1 - 1e-9)
                #expect(max(abs(entry.marker.eastMeters), abs(entry.marker.northMeters)) >= limit)
                continue
            }
            // The rule: the cell whose centre is nearest the true position, so within half a cell
            // east–west and north–south — the centre cell included (a place there was once drawn
            // a whole cell away).
            let east = Double(cell.column - half) * map.metersPerCell
            let north = Double(half - cell.row) * map.metersPerCell
            let offset = max(abs(entry.marker.eastMeters - east), abs(entry.marker.northMeters - north))
            #expect(offset <= map.metersPerCell * 0.5 + 1e-6, "\(entry.marker.name) in \(cell)")
            // The cell shows its one place's number, its places' count, or the merged centre.
            let shared = occupants[cell, default: 0]
            #expect(entry.isClustered == (shared > 1))
            #expect((entry.number == nil) == (shared > 1 || cell == centerCell))
            if cell == centerCell {
                #expect(symbol == glyphs.centerWithPlaces)
                continue
            }
            if shared > 1 {
                let count = glyphs.count + (shared <= 9 ? String(shared) : "+")
                #expect(symbol == count || symbol == glyphs.cluster, "\(symbol) for \(shared)")
            } else if let number = entry.number {
                let label = large ? "[\(number)]" : String(number)
                #expect(symbol == glyphs.cluster || symbol == label || (large && symbol == String(number)))
            }
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

        // The list: the places listed in order under the map's marks, each once, and the rest
        // counted in "… and N more": every place is either listed or counted.
        let rows = map.lines.compactMap { line -> (mark: String?, name: String)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let at = fields.firstIndex(where: { $0.hasPrefix("P") && Int($0.dropFirst()) != nil }), at <= 1
            else { return nil }
            return (at == 1 ? fields[0] : nil, fields[at])
        }
        let listed = map.entries.filter(\.isListed)
        let unlisted = map.entries.count - listed.count
        #expect(rows.map(\.name) == listed.map(\.marker.name))
        #expect(map.entries.drop { $0.isListed }.allSatisfy { !$0.isListed }, "a place left out before one listed")
        if unlisted > 0 {
            let summary =
                listed.isEmpty ? "No room to list \(unlisted) places" : "\(glyphs.ellipsis) and \(unlisted) more"
            #expect(map.lines.last == summary)
        }
        for (index, (row, entry)) in zip(rows, listed).enumerated() {
            let startsMark = index == 0 || entry.cell == nil || listed[index - 1].cell != entry.cell
            let mark = entry.symbol ?? entry.number.map { large ? "[\($0)]" : String($0) }
            #expect(row.mark == (startsMark ? mark : nil), "\(entry.marker.name)")
        }
        let outside = map.entries.filter { $0.cell == nil && $0.isListed }
        #expect(map.lines.contains("Outside the map:") == !outside.isEmpty)
        if model.markers.isEmpty {
            #expect(map.lines.last == "No place within \(MapWording.radius(model.radiusMeters)).")
        }

        // The map's size comes from the screen alone: the same with no places at all.
        let empty = MapModel(
            center: model.center, radiusMeters: model.radiusMeters, halfExtentMeters: model.halfExtentMeters,
            kind: model.kind, markers: [])
        #expect(try renderer.render(empty).side == map.side)

        // Everything fits the width, and the height unless even the smallest map and one line of
        // list run over it.
        #expect(map.lines.allSatisfy { TerminalColumns.width($0) <= renderer.width })
        // Running over, the list is down to one line: the line before it is the blank under the map.
        #expect(map.lines.count <= renderer.height || map.lines.dropLast().last == "", "\(map.lines.count) lines")
    }
}

extension MapPropertyTests {
    /// The random maps above do reach the cases that matter: clusters, crowded two-digit numbers,
    /// places in the centre cell, lists cut short, places outside the map, empty maps, large cells.
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
                if entry.symbol == cluster { seen["no room", default: 0] += 1 }
                if !entry.isListed { seen["cut", default: 0] += 1 }
                if entry.cell == nil { seen["outside", default: 0] += 1 }
                if let number = entry.number, number >= 10, entry.symbol == String(number) {
                    seen["two digits", default: 0] += 1
                }
                if entry.cell == MapCell(column: half, row: half) { seen["at the centre", default: 0] += 1 }
            }
        }
        for feature in ["empty", "large", "clustered", "no room", "outside", "two digits", "at the centre", "cut"] {
            #expect(seen[feature, default: 0] >= 3, "only \(seen[feature, default: 0]) × \(feature)")
        }
    }
}
