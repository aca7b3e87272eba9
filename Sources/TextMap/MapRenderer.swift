import Geo

/// Draws a `MapModel` as lines of text: a title, the framed map with a north arrow, scale bar and
/// legend beside it (or under it on a narrow screen), then the list of places.
///
/// Pure: no terminal queries and no I/O — the caller chooses the size and the style. The map is
/// as large as fits in `width` × `height` with the list under it; a list too long to fit makes
/// the output taller than `height` rather than leaving a place out.
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
        let layout = MapLayout(
            width: width, height: height, style: style, panelWidth: panel(model).minimumWidth(), gap: gap)
        // The first size that fits; if none does (a list too long for the height), one within the
        // width if possible, then the largest map that leaves at least half the height to the list,
        // so the map stays useful and most of the list is in view; failing that, the fewest lines.
        let candidates = layout.candidates()
        let order = Self.order(model.markers)
        var best = compose(model, order, candidates[0])
        var bestScore = best.score(width: width, height: height)
        for candidate in candidates.dropFirst() where !best.fits(width: width, height: height) {
            let composed = compose(model, order, candidate)
            let score = composed.score(width: width, height: height)
            if score < bestScore { (best, bestScore) = (composed, score) }
        }
        let palette = style.color ? MapPalette(highContrast: style.large) : nil
        return RenderedMap(
            lines: best.lines().map { $0.rendered(palette) }, entries: best.entries, side: best.canvas.grid.side,
            metersPerCell: best.canvas.grid.metersPerCell)
    }

    /// One candidate size worked out, short of drawing the map itself (the costly part, done only
    /// for the size chosen).
    private struct Composition {
        var canvas: MapCanvas
        var plan: MapCanvas.Plan
        var entries: [RenderedMap.Entry]
        var title: StyledLine
        var panel: [StyledLine]
        var panelBeside: Bool
        var gap: Int
        var list: MapList
        var listLines: Int

        var blockHeight: Int {
            panelBeside ? max(canvas.height, panel.count) : canvas.height + 1 + panel.count
        }
        var blockWidth: Int {
            let panelWidth = panel.map(\.width).max() ?? 0
            return panelBeside ? canvas.width + gap + panelWidth : max(canvas.width, panelWidth)
        }
        var lineCount: Int { 1 + blockHeight + 1 + listLines }

        func fits(width: Int, height: Int) -> Bool { blockWidth <= width && lineCount <= height }

        /// Lower is better: fitting, else within the width, leaving half the height to the list,
        /// fewer lines.
        func score(width: Int, height: Int) -> (Int, Int, Int) {
            if fits(width: width, height: height) { return (0, 0, 0) }
            let leavesHalf = 1 + blockHeight <= height / 2
            return (blockWidth <= width ? 1 : 2, leavesHalf ? 0 : 1, leavesHalf ? 0 : lineCount)
        }

        func lines() -> [StyledLine] {
            let map = canvas.draw(plan)
            var block: [StyledLine] = []
            if panelBeside {
                for index in 0..<blockHeight {
                    var line = index < map.count ? map[index] : StyledLine()
                    if index < panel.count {
                        line.pad(to: canvas.width + gap)
                        line.append(panel[index])
                    }
                    block.append(line)
                }
            } else {
                block = map + [StyledLine()] + panel
            }
            return [title] + block + [StyledLine()] + list.lines(entries)
        }
    }

    private func panel(_ model: MapModel) -> MapPanel {
        MapPanel(model: model, style: style, glyphs: MapGlyphs.of(style.characters))
    }

    private func compose(_ model: MapModel, _ order: [Int], _ candidate: MapLayout.Candidate) -> Composition {
        let glyphs = MapGlyphs.of(style.characters)
        let grid = MapGrid(side: candidate.side, halfExtentMeters: model.halfExtentMeters)
        var entries = Self.place(model.markers, in: order, on: grid)
        let canvas = MapCanvas(grid: grid, style: style, glyphs: glyphs)
        let plan = canvas.plan(entries, radiusMeters: model.radiusMeters)
        let texts = plan.texts
        for index in entries.indices {
            entries[index].symbol = entries[index].cell.flatMap { texts[$0] }
        }
        let list = MapList(model: model, style: style, glyphs: glyphs, width: width)
        // Cut to the width like every other line: `--width 30` printed a 42-column title.
        let title = StyledLine(
            "\(MapWording.capitalized(MapWording.plural(MapWording.printable(model.kind), 2))) within "
                + "\(MapWording.radius(model.radiusMeters)) of \(model.center)", .title
        ).truncated(to: width, ellipsis: glyphs.ellipsis)
        return Composition(
            canvas: canvas, plan: plan, entries: entries, title: title,
            panel: panel(model).lines(
                metersPerColumn: canvas.metersPerColumn, contents: plan.contents,
                maxWidth: candidate.panelBeside ? nil : width),
            panelBeside: candidate.panelBeside, gap: gap, list: list, listLines: list.lineCount(entries))
    }

    /// Indices of the places nearest first; ties keep the model's order, NaN distances go last.
    static func order(_ markers: [MapMarker]) -> [Int] {
        func key(_ marker: MapMarker) -> Double { marker.distanceMeters.isNaN ? .infinity : marker.distanceMeters }
        return markers.indices.sorted { (key(markers[$0]), $0) < (key(markers[$1]), $1) }
    }

    /// The places in `order`, numbered, each in its cell.
    static func place(_ markers: [MapMarker], in order: [Int], on grid: MapGrid) -> [RenderedMap.Entry] {
        var entries = order.enumerated().map { position, index in
            RenderedMap.Entry(
                number: position + 1, markerIndex: index, marker: markers[index],
                cell: grid.drawnCell(eastMeters: markers[index].eastMeters, northMeters: markers[index].northMeters),
                isClustered: false, symbol: nil)
        }
        var occupants: [MapCell: Int] = [:]
        for entry in entries { if let cell = entry.cell { occupants[cell, default: 0] += 1 } }
        for index in entries.indices {
            if let cell = entries[index].cell, occupants[cell, default: 0] > 1 { entries[index].isClustered = true }
        }
        return entries
    }
}
