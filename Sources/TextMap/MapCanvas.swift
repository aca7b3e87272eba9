/// Draws the framed map: the ring, the centre, the numbered places and the counts of places
/// sharing a cell, on a grid of square cells.
///
/// A cell is `cellWidth` characters by `cellHeight` lines (2 × 1, or 4 × 2 when large): terminal
/// cells are about twice as tall as wide, so that is about square on screen and the ring comes
/// out round. A symbol sits in the top line of its cell, from its first column (one column in for
/// a single character in a large cell); one blank column (and, when large, one blank line)
/// inside the frame on the west (north) side balances the space the last cell leaves on the east
/// (south), so the centre symbol is exactly in the middle of the frame.
///
/// Each place is in the cell nearest its position (`MapGrid.cell`). A cell holding one place shows
/// its number; several, their count (`×3`, `×+` past 9); the centre cell holding any place shows
/// the merged centre symbol (`◈`). A two-character mark (`13`, `×3`) fills its 2-column cell, so
/// it would run into a symbol in the next cell ("13" and "8" reading "138") or the frame: it then
/// starts one column to the west, into the empty cell there. With symbols on both sides it has no
/// room and shows the no-room symbol (`◆`); the list gives its places under that symbol. Large cells have room for `[12]`, whose brackets keep neighbours apart;
/// in the easternmost cell it would touch the frame, so it shows as `12`.
///
/// On a map with opening states (`showsOpening`) only open places have numbers: a closed place
/// alone in its cell shows the closed symbol (`○`), one with hours unknown `?` — one character, so
/// it never crowds a neighbour — and the list says per place when it opens or closes. A cell whose
/// places are none of them open shows its count dimmed.
struct MapCanvas: Sendable {
    let grid: MapGrid
    let style: MapStyle
    let glyphs: MapGlyphs
    /// Whether the markers' opening states are drawn (`MapModel.showsOpening`).
    var showsOpening = false

    /// Characters per cell, east–west.
    var cellWidth: Int { style.large ? 4 : 2 }
    /// Lines per cell, north–south.
    var cellHeight: Int { style.large ? 2 : 1 }
    /// Width of the framed map in characters.
    var width: Int { innerWidth + 2 }
    /// Lines of the framed map.
    var height: Int { innerHeight + 2 }
    /// Meters east–west per character column, for the scale bar.
    var metersPerColumn: Double { grid.metersPerCell / Double(cellWidth) }

    private var innerWidth: Int { 1 + cellWidth * grid.side }
    private var innerHeight: Int { (cellHeight - 1) + cellHeight * grid.side }
    /// Column and line of the centre symbol inside the frame.
    private var centerColumn: Int { cellWidth * grid.half + cellWidth / 2 }
    private var centerLine: Int { (cellHeight - 1) + cellHeight * grid.half }

    /// Where everything goes, before any line is drawn: each cell's symbol, the ring's dots that
    /// show, and what the legend must explain.
    struct Plan: Sendable {
        /// The symbol shown in each occupied cell, and where it starts.
        fileprivate var symbols: [MapCell: Symbol]
        fileprivate var ring: Set<MapRing.Dot>
        /// What the legend needs to explain.
        var contents: MapPanel.Contents
        /// The text shown in each occupied cell: a number, a count, the centre or no-room symbol.
        var texts: [MapCell: String] { symbols.mapValues(\.text) }
    }

    fileprivate struct Symbol: Sendable {
        var text: String
        var role: MapRole
        /// Column inside the frame where the text starts.
        var start = 0
    }

    /// Chooses each cell's symbol and where it starts, and the ring's dots that show.
    func plan(_ entries: [RenderedMap.Entry], radiusMeters: Double) -> Plan {
        let centerCell = MapCell(column: grid.half, row: grid.half)
        var occupants: [MapCell: [RenderedMap.Entry]] = [:]
        for entry in entries { if let cell = entry.cell { occupants[cell, default: []].append(entry) } }
        let centerPlaces = occupants[centerCell]?.count ?? 0
        var symbols: [MapCell: Symbol] = [:]
        symbols[centerCell] = Symbol(text: centerPlaces > 0 ? glyphs.centerWithPlaces : glyphs.center, role: .center)
        for (cell, places) in occupants where cell != centerCell {
            let states = places.map { $0.marker.shownOpening(showsOpening) }
            if places.count > 1 {
                let noneOpen = showsOpening && !states.contains { $0?.isOpen == true }
                symbols[cell] = Symbol(text: countMark(places.count), role: noneOpen ? .closed : .cluster)
            } else if let state = states[0], !state.isOpen {
                symbols[cell] =
                    state == .unknown
                    ? Symbol(text: glyphs.unknown, role: .unknown) : Symbol(text: glyphs.closed, role: .closed)
            } else if let number = places[0].number, let label = label(number) {
                symbols[cell] = Symbol(text: label, role: .marker)
            } else {
                symbols[cell] = Symbol(text: glyphs.cluster, role: .cluster)
            }
        }
        for (cell, symbol) in symbols {
            var placed = symbol
            if style.large && symbol.text.count == cellWidth && cell.column == grid.side - 1 {
                // "[15]" in the easternmost cell would touch the frame: the bare number keeps the
                // blank column every other symbol leaves before it.
                placed.text = String(symbol.text.dropFirst().dropLast())
            }
            placed.start = 1 + cellWidth * cell.column + (placed.text.count == 1 ? cellWidth / 2 - 1 : 0)
            if placed.text.count == cellWidth && !style.large {
                let east = MapCell(column: cell.column + 1, row: cell.row)
                let west = MapCell(column: cell.column - 1, row: cell.row)
                // The frame counts as a neighbour to keep clear of, but not to give up a number for.
                let eastTaken = symbols[east] != nil || east.column == grid.side
                let westTaken = symbols[west] != nil || west.column < 0
                if eastTaken && !westTaken {
                    placed.start -= 1
                } else if symbols[east] != nil {
                    placed = Symbol(text: glyphs.cluster, role: .cluster, start: placed.start)
                }
            }
            symbols[cell] = placed
        }
        let unlabelled = symbols.values.contains { $0.text == glyphs.cluster }
        let ring = MapRing(
            radiusCells: radiusMeters / grid.metersPerCell, columnsPerCell: cellWidth, linesPerCell: cellHeight
        ).dots(maxColumn: centerColumn, maxLine: centerLine)
        // No ring dot touches a symbol: none in the column either side of it, nor (large cells) in
        // the line above or below. The legend lists the ring only if a dot shows.
        var reserved = Set<MapRing.Dot>()
        for (cell, symbol) in symbols {
            let line = (cellHeight - 1) + cellHeight * cell.row
            for near in (line - cellHeight + 1)...(line + cellHeight - 1) {
                for column in (symbol.start - 1)...(symbol.start + symbol.text.count) {
                    reserved.insert(MapRing.Dot(column: column - centerColumn, line: near - centerLine))
                }
            }
        }
        let shown = ring.subtracting(reserved)
        // The legend explains only what is drawn: a number only if one shows, not for places that
        // all went into shared cells.
        let numbers = entries.compactMap { entry in
            entry.cell.flatMap { symbols[$0] }.flatMap { $0.role == .marker ? entry.number : nil }
        }
        let counts = occupants.compactMap { cell, places in
            symbols[cell]?.text == countMark(places.count) && cell != centerCell ? places.count : nil
        }
        let contents = MapPanel.Contents(
            centerPlaces: centerPlaces, lowestNumber: numbers.min(), lowestCount: counts.min(),
            hasUnlabelled: unlabelled, hasRing: !shown.isEmpty, numbersAreOpen: showsOpening,
            hasClosed: symbols.values.contains { $0.text == glyphs.closed },
            hasUnknown: symbols.values.contains { $0.text == glyphs.unknown })
        return Plan(symbols: symbols, ring: shown, contents: contents)
    }

    /// The framed map, `height` lines of `width` characters.
    func draw(_ plan: Plan) -> [StyledLine] {
        let blank = (text: " ", role: MapRole.plain)
        var matrix = Array(repeating: Array(repeating: blank, count: innerWidth), count: innerHeight)
        for dot in plan.ring {
            matrix[centerLine + dot.line][centerColumn + dot.column] = (glyphs.ring, .ring)
        }
        for (cell, symbol) in plan.symbols {
            let line = (cellHeight - 1) + cellHeight * cell.row
            for (offset, character) in symbol.text.enumerated() {
                matrix[line][symbol.start + offset] = (String(character), symbol.role)
            }
        }
        return framed(matrix)
    }

    /// "×3" for three places in one cell, "×+" for more than 9.
    func countMark(_ count: Int) -> String { glyphs.count + (count <= 9 ? String(count) : "+") }

    /// "7" (or "[7]" when large), or nil if the number is too long for a cell.
    func label(_ number: Int) -> String? {
        let text = style.large ? "[\(number)]" : String(number)
        if text.count <= cellWidth { return text }
        return style.large && number < 1000 ? String(number) : nil
    }

    private func framed(_ matrix: [[(text: String, role: MapRole)]]) -> [StyledLine] {
        var lines: [StyledLine] = []
        let across = String(repeating: glyphs.horizontal, count: innerWidth)
        lines.append(StyledLine(glyphs.topLeft + across + glyphs.topRight, .frame))
        for row in matrix {
            var line = StyledLine(glyphs.vertical, .frame)
            for character in row { line.append(character.text, character.role) }
            line.append(glyphs.vertical, .frame)
            lines.append(line)
        }
        lines.append(StyledLine(glyphs.bottomLeft + across + glyphs.bottomRight, .frame))
        return lines
    }
}
