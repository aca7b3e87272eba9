/// The characters a style draws with. Every one is a single terminal column wide.
struct MapGlyphs: Sendable, Hashable {
    var topLeft: String, topRight: String, bottomLeft: String, bottomRight: String
    var horizontal: String, vertical: String
    /// The query point ("you").
    var center: String
    /// A ring cell.
    var ring: String
    /// Several places in one cell.
    var cluster: String
    /// Drawn under "N".
    var northArrow: String
    var northShaft: String
    /// Scale bar: left end, bar, right end.
    var scaleLeft: String, scaleBar: String, scaleRight: String
    /// Marks a name cut short in the list.
    var ellipsis: String

    static let unicode = MapGlyphs(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│",
        center: "◉", ring: "·", cluster: "◆", northArrow: "▲", northShaft: "│", scaleLeft: "├", scaleBar: "─",
        scaleRight: "┤", ellipsis: "…")

    static let ascii = MapGlyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        center: "@", ring: ".", cluster: "#", northArrow: "^", northShaft: "|", scaleLeft: "|", scaleBar: "-",
        scaleRight: "|", ellipsis: "...")

    static func of(_ characters: MapStyle.Characters) -> MapGlyphs {
        characters == .unicode ? unicode : ascii
    }
}
