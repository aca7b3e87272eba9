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
        var hasMarkers: Bool
        var hasClusters: Bool
        /// Some place's number had no room (too long, or crowded by its neighbours) and shows the
        /// cluster symbol.
        var hasUnlabelled: Bool
        var hasRing: Bool
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

    /// The narrowest the panel can be for this model: its legend without the optional entries.
    func minimumWidth() -> Int {
        let least = Contents(hasMarkers: false, hasClusters: false, hasUnlabelled: false, hasRing: false)
        return legend(least).joined().map(\.width).max() ?? 0
    }

    /// The lines of each entry: one, or more where `maxWidth` wraps it.
    private func legend(_ contents: Contents, maxWidth: Int? = nil) -> [[StyledLine]] {
        let kind = MapWording.printable(model.kind)
        var entries: [[StyledLine]] = []
        func entry(_ symbol: String, _ role: MapRole, _ text: String) {
            let before = (symbolWidth - symbol.count) / 2
            var line = StyledLine(String(repeating: " ", count: before))
            line.append(symbol, role)
            line.pad(to: symbolWidth + 2)
            guard let maxWidth else {
                line.append(text)
                entries.append([line])
                return
            }
            let wrapped = TerminalColumns.wrap(text, to: maxWidth - line.width, ellipsis: glyphs.ellipsis)
            line.append(wrapped[0])
            var lines = [line]
            for more in wrapped.dropFirst() {
                var continued = StyledLine(String(repeating: " ", count: symbolWidth + 2))
                continued.append(more)
                lines.append(continued)
            }
            entries.append(lines)
        }
        entry(glyphs.center, .center, "you are here")
        if contents.hasMarkers {
            entry(style.large ? "[1]" : "1", .marker, "\(kind), see list below")
        }
        if contents.hasClusters {
            let several = "2 or more \(MapWording.plural(kind, 2))"
            entry(glyphs.cluster, .cluster, contents.hasUnlabelled ? "\(several), or no room for a number" : several)
        }
        if contents.hasRing {
            entry(glyphs.ring, .ring, "\(MapWording.radius(model.radiusMeters)) from you")
        }
        return entries
    }
}
