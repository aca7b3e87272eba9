/// The characters a style draws with. Every one is a single terminal column wide.
struct MapGlyphs: Sendable, Hashable {
    var topLeft: String, topRight: String, bottomLeft: String, bottomRight: String
    var horizontal: String, vertical: String
    /// The query point ("you").
    var center: String
    /// The query point's cell when places lie in it too: "you" and those places in one mark.
    var centerWithPlaces: String
    /// A ring cell.
    var ring: String
    /// Put before a count of places sharing a cell: `×3`.
    var count: String
    /// A place or cell whose mark has no room on the map.
    var cluster: String
    /// A closed place, on a map that shows opening states (open places show their number).
    var closed: String
    /// A place whose hours are unknown, on a map that shows opening states.
    var unknown: String
    /// Drawn under "N".
    var northArrow: String
    var northShaft: String
    /// Scale bar: left end, bar, right end.
    var scaleLeft: String, scaleBar: String, scaleRight: String
    /// Marks a name cut short in the list.
    var ellipsis: String

    static let unicode = MapGlyphs(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│",
        center: "◉", centerWithPlaces: "◈", ring: "·", count: "×", cluster: "◆", closed: "○", unknown: "?",
        northArrow: "▲", northShaft: "│",
        scaleLeft: "├", scaleBar: "─",
        scaleRight: "┤", ellipsis: "…")

    static let ascii = MapGlyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        center: "@", centerWithPlaces: "&", ring: ".", count: "x", cluster: "#", closed: "o", unknown: "?",
        northArrow: "^", northShaft: "|",
        scaleLeft: "|", scaleBar: "-",
        scaleRight: "|", ellipsis: "...")

    static func of(_ characters: MapStyle.Characters) -> MapGlyphs {
        characters == .unicode ? unicode : ascii
    }
}
