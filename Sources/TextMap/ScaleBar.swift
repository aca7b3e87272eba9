import Foundation

/// A scale bar of a round length — 1, 2 or 5 × 10^k meters, the usual cartographic series — drawn
/// as `├────┤ 200 m`.
struct ScaleBar: Sendable, Hashable {
    /// The length the bar stands for, meters.
    let meters: Double
    /// Character columns between the centres of the bar's two end marks: `meters` at the map's
    /// scale, rounded to a whole column (so within half a column of true).
    let columns: Int

    /// The longest round length that spans at most `maxColumns` columns (at least 2).
    ///
    /// - Parameters:
    ///   - metersPerColumn: meters east–west per character column of the map, above 0.
    ///   - maxColumns: the most columns the bar may span, 2 or more.
    init(metersPerColumn: Double, maxColumns: Int) {
        let longest = metersPerColumn * Double(maxColumns)
        var exponent = floor(log10(longest))
        var chosen = pow(10, exponent)
        search: while exponent > -4 {
            for step in [5.0, 2.0, 1.0] {
                let length = step * pow(10, exponent)
                if length <= longest * (1 + 1e-12) {
                    chosen = length
                    break search
                }
            }
            exponent -= 1
        }
        meters = chosen
        // Compared as Double first: a degenerate scale (a cell of 0 m, from a half-extent so small
        // it underflows) must not trap converting NaN or infinity to Int.
        let span = chosen / metersPerColumn
        columns = span.isFinite ? max(2, Int(min(span, Double(max(2, maxColumns))).rounded())) : 2
    }

    /// "200 m", "1 km", "0.5 m".
    var label: String {
        meters >= 1000 ? "\(MapWording.plain(meters / 1000)) km" : "\(MapWording.plain(meters)) m"
    }

    /// The bar and its label; `columns + 1` characters of bar, a space, the label.
    func line(_ glyphs: MapGlyphs) -> StyledLine {
        var line = StyledLine(
            glyphs.scaleLeft + String(repeating: glyphs.scaleBar, count: columns - 1) + glyphs.scaleRight, .scale)
        line.append(" " + label, .scale)
        return line
    }

}
