/// The side panel beside the map (or under it on a narrow screen): north arrow, scale bar and a
/// legend of only the symbols the map uses.
struct MapPanel: Sendable {
    let model: MapModel
    let style: MapStyle
    let glyphs: MapGlyphs

    /// The longest scale bar, character columns.
    var maxScaleColumns: Int { style.large ? 16 : 12 }

    /// Width of the symbol column: a marker is `1` or `[1]` (large).
    private var symbolWidth: Int { style.large ? 3 : 1 }

    /// What the map drew, which decides the legend's lines.
    struct Contents: Sendable {
        /// Places in the centre cell, drawn merged with the centre symbol.
        var centerPlaces = 0
        /// The lowest number drawn on the map, which the legend uses as its example; nil if none is.
        var lowestNumber: Int?
        /// The fewest places of a cell showing their count (`×3`), the legend's example; nil if none.
        var lowestCount: Int?
        /// Some mark had no room (too long, or crowded by its neighbours) and shows the no-room
        /// symbol.
        var hasUnlabelled = false
        var hasRing = false
        /// The map shows opening states, so its numbers mark open places ("open pharmacy no. 1").
        var numbersAreOpen = false
        /// Some place shows the closed symbol.
        var hasClosed = false
        /// Some place shows the hours-unknown symbol.
        var hasUnknown = false

        /// Every entry the legend can have, with two-digit numbers: the legend the layout makes
        /// room for (beside the map, a longer one is cut to the width). The opening states' entries
        /// only for a map that shows them, so a map without them keeps its size.
        static func widest(opening: Bool) -> Contents {
            Contents(
                centerPlaces: 99, lowestNumber: 99, lowestCount: 9, hasUnlabelled: true, hasRing: true,
                numbersAreOpen: opening, hasClosed: opening, hasUnknown: opening)
        }
    }

    /// The panel's lines for a map drawn at `metersPerColumn` character columns.
    ///
    /// - Parameters:
    ///   - maxWidth: the columns the panel may take, for a panel under the map: legend text wraps
    ///     to fit, under its symbol's text column. Nil beside the map, where the layout keeps the
    ///     panel's own width.
    func lines(metersPerColumn: Double, contents: Contents, maxWidth: Int? = nil) -> [StyledLine] {
        var lines: [StyledLine] = []
        let indent = String(repeating: " ", count: symbolWidth / 2)
        lines.append(StyledLine(indent + "N", .north))
        lines.append(StyledLine(indent + glyphs.northArrow, .north))
        lines.append(StyledLine(indent + glyphs.northShaft, .north))
        lines.append(StyledLine())
        lines.append(ScaleBar(metersPerColumn: metersPerColumn, maxColumns: maxScaleColumns).line(glyphs))
        lines.append(StyledLine())
        for (index, entry) in legend(contents, maxWidth: maxWidth).enumerated() {
            if style.large && index > 0 { lines.append(StyledLine()) }
            lines += entry
        }
        return lines
    }

    /// The widest the panel can be for this model, columns: its legend with every entry.
    func maximumWidth() -> Int {
        legend(.widest(opening: model.showsOpening)).joined().map(\.width).max() ?? 0
    }

    /// The most lines the panel can take: its lines with every legend entry.
    ///
    /// - Parameters:
    ///   - maxWidth: as for `lines(metersPerColumn:contents:maxWidth:)`.
    func maximumLineCount(maxWidth: Int?) -> Int {
        lines(metersPerColumn: 1, contents: .widest(opening: model.showsOpening), maxWidth: maxWidth).count
    }

    /// The lines of each entry: one, or more where `maxWidth` wraps it. Symbols are centred in a
    /// column as wide as the widest of them (`1`, `[1]`, `12`, `×3`).
    private func legend(_ contents: Contents, maxWidth: Int? = nil) -> [[StyledLine]] {
        let kind = MapWording.printable(model.kind)
        var items: [(symbol: String, role: MapRole, text: String)] = []
        if contents.centerPlaces > 0 {
            let places = "\(contents.centerPlaces) \(MapWording.plural(kind, contents.centerPlaces))"
            items.append((glyphs.centerWithPlaces, .center, "you + \(places)"))
        } else {
            items.append((glyphs.center, .center, "you are here"))
        }
        if let number = contents.lowestNumber {
            // "no. 1" and not "1 pharmacy": the mark is a place's number in the list, not a count.
            let text = "\(contents.numbersAreOpen ? "open " : "")\(kind) no. \(number) in list"
            items.append((style.large ? "[\(number)]" : String(number), .marker, text))
        }
        if contents.hasClosed {
            items.append((glyphs.closed, .closed, "closed \(kind)"))
        }
        if contents.hasUnknown {
            items.append((glyphs.unknown, .unknown, "hours unknown"))
        }
        if let count = contents.lowestCount {
            let mark = glyphs.count + (count <= 9 ? String(count) : "+")
            let places = count <= 9 ? String(count) : "10 or more"
            items.append((mark, .cluster, "\(places) \(MapWording.plural(kind, count)) in a square"))
        }
        if contents.hasUnlabelled {
            items.append((glyphs.cluster, .cluster, "no room for a mark"))
        }
        if contents.hasRing {
            items.append((glyphs.ring, .ring, "\(MapWording.radius(model.radiusMeters)) from you"))
        }
        let column = items.map(\.symbol.count).reduce(symbolWidth, max)
        return items.map { item in
            var line = StyledLine(String(repeating: " ", count: (column - item.symbol.count) / 2))
            line.append(item.symbol, item.role)
            line.pad(to: column + 2)
            guard let maxWidth else {
                line.append(item.text)
                return [line]
            }
            let wrapped = TerminalColumns.wrap(item.text, to: maxWidth - line.width, ellipsis: glyphs.ellipsis)
            line.append(wrapped[0])
            var lines = [line]
            for more in wrapped.dropFirst() {
                var continued = StyledLine(String(repeating: " ", count: column + 2))
                continued.append(more)
                lines.append(continued)
            }
            return lines
        }
    }
}
