import Geo

/// Draws a `MapModel` as lines of text: a title, the framed map with a north arrow, scale bar and
/// legend beside it (or under it on a narrow screen), then the list of places.
///
/// Pure: no terminal queries and no I/O — the caller chooses the size and the style.
///
/// `width` × `height` is the size of the whole output: no line is wider than `width` terminal
/// columns, and there are at most `height` lines whenever `height` holds the title, the smallest
/// map (7 cells a side, 5 large) with its panel, and one line of list — 14 lines with the panel
/// beside the map, more with it under a narrow map; below that the output runs over.
/// The map's size depends on the screen alone, not on the places (`MapLayout`): it leaves a
/// quarter of the height to the list, and a list that does not fit is cut with "… and N more".
/// Each place is drawn in the cell nearest its position, the centre cell included; the title is
/// shortened at a word with an ellipsis.
///
/// ```swift
/// let renderer = try MapRenderer(width: 80, height: 24, style: MapStyle(characters: .ascii))
/// print(try renderer.render(model).text, terminator: "")
/// ```
public struct MapRenderer: Sendable {
    /// Accepted widths in terminal columns: the smallest that holds the legend and a list line.
    public static let widthRange = 30...1000
    /// Accepted heights in lines: the smallest that holds the title and a 7-cell map.
    public static let heightRange = 10...1000

    /// Terminal columns available.
    public let width: Int
    /// Lines available.
    public let height: Int
    public let style: MapStyle

    /// Columns between the map's frame and the panel beside it.
    let gap = 3

    /// - Throws: `TextMapError.invalidWidth` / `.invalidHeight` outside `widthRange` / `heightRange`.
    public init(width: Int = 80, height: Int = 24, style: MapStyle = MapStyle()) throws(TextMapError) {
        guard Self.widthRange.contains(width) else { throw .invalidWidth(width) }
        guard Self.heightRange.contains(height) else { throw .invalidHeight(height) }
        self.width = width
        self.height = height
        self.style = style
    }

    /// Draws the map.
    ///
    /// - Throws: `TextMapError.invalidRadius` for a negative or non-finite radius,
    ///   `.invalidHalfExtent` for a half-extent that is not a finite number above 0.
    public func render(_ model: MapModel) throws(TextMapError) -> RenderedMap {
        guard model.radiusMeters.isFinite, model.radiusMeters >= 0 else { throw .invalidRadius(model.radiusMeters) }
        guard model.halfExtentMeters.isFinite, model.halfExtentMeters > 0 else {
            throw .invalidHalfExtent(model.halfExtentMeters)
        }
        let glyphs = MapGlyphs.of(style.characters)
        let panel = MapPanel(model: model, style: style, glyphs: glyphs)
        let layout = MapLayout(
            width: width, height: height, style: style, panelWidth: panel.maximumWidth(),
            panelLinesBeside: panel.maximumLineCount(maxWidth: nil),
            panelLinesUnder: panel.maximumLineCount(maxWidth: width), gap: gap)
        let candidate = layout.choice()
        let grid = MapGrid(side: candidate.side, halfExtentMeters: model.halfExtentMeters)
        let showsOpening = model.showsOpening
        var entries = Self.place(
            model.markers, in: Self.order(model.markers), on: grid, showsOpening: showsOpening)
        let canvas = MapCanvas(grid: grid, style: style, glyphs: glyphs, showsOpening: showsOpening)
        let plan = canvas.plan(entries, radiusMeters: model.radiusMeters)
        let texts = plan.texts
        for index in entries.indices {
            entries[index].symbol = entries[index].cell.flatMap { texts[$0] }
        }
        let map = canvas.draw(plan)
        let legend = panel.lines(
            metersPerColumn: canvas.metersPerColumn, contents: plan.contents,
            maxWidth: candidate.panelBeside ? nil : width)
        var block: [StyledLine] = []
        if candidate.panelBeside {
            for index in 0..<max(map.count, legend.count) {
                var line = index < map.count ? map[index] : StyledLine()
                if index < legend.count {
                    line.pad(to: canvas.width + gap)
                    line.append(legend[index])
                }
                block.append(line)
            }
        } else {
            block = map + [StyledLine()] + legend
        }
        // The panel is planned at its widest; a legend wider still (a kind of 60 letters) is cut.
        block = block.map { $0.truncated(to: width, ellipsis: glyphs.ellipsis) }
        let title = StyledLine(
            MapWording.title(
                kind: model.kind, radiusMeters: model.radiusMeters, center: model.center, width: width,
                ellipsis: glyphs.ellipsis), .title)
        let list = MapList(model: model, style: style, glyphs: glyphs, width: width)
        let listLines = list.lines(&entries, maxLines: max(1, height - 1 - block.count - 1))
        let lines = [title] + block + [StyledLine()] + listLines
        let palette = style.color ? MapPalette(highContrast: style.large) : nil
        return RenderedMap(
            lines: lines.map { $0.rendered(palette) }, entries: entries, side: grid.side,
            metersPerCell: grid.metersPerCell)
    }

    /// Indices of the places nearest first; ties keep the model's order, NaN distances go last.
    static func order(_ markers: [MapMarker]) -> [Int] {
        func key(_ marker: MapMarker) -> Double { marker.distanceMeters.isNaN ? .infinity : marker.distanceMeters }
        return markers.indices.sorted { (key(markers[$0]), $0) < (key(markers[$1]), $1) }
    }

    /// The places in list order, each in the cell nearest it: the cells in the order of their
    /// nearest place, each cell's places nearest first, then the places outside the map. A place
    /// alone in a cell other than the centre's, or outside the map, gets the next number (1, 2, …
    /// in that order); one sharing its cell or in the centre cell is listed under the cell's mark.
    /// With `showsOpening`, only open places get numbers: the others show their state's symbol.
    static func place(_ markers: [MapMarker], in order: [Int], on grid: MapGrid, showsOpening: Bool = false)
        -> [RenderedMap.Entry]
    {
        var cells: [MapCell] = []
        var occupants: [MapCell: [Int]] = [:]
        var outside: [Int] = []
        for index in order {
            guard let cell = grid.cell(eastMeters: markers[index].eastMeters, northMeters: markers[index].northMeters)
            else {
                outside.append(index)
                continue
            }
            if occupants[cell] == nil { cells.append(cell) }
            occupants[cell, default: []].append(index)
        }
        let center = MapCell(column: grid.half, row: grid.half)
        var entries: [RenderedMap.Entry] = []
        var next = 1
        for cell in cells {
            let places = occupants[cell] ?? []
            let numbered = places.count == 1 && cell != center && markers[places[0]].isNumbered(showsOpening)
            for index in places {
                entries.append(
                    RenderedMap.Entry(
                        number: numbered ? next : nil, markerIndex: index, marker: markers[index], cell: cell,
                        isClustered: places.count > 1, symbol: nil, isListed: true))
            }
            if numbered { next += 1 }
        }
        for index in outside {
            let numbered = markers[index].isNumbered(showsOpening)
            entries.append(
                RenderedMap.Entry(
                    number: numbered ? next : nil, markerIndex: index, marker: markers[index], cell: nil,
                    isClustered: false, symbol: nil, isListed: true))
            if numbered { next += 1 }
        }
        return entries
    }
}
