/// A drawn map: its lines, and where each place went.
public struct RenderedMap: Sendable, Hashable {
    /// One place as drawn on the map and listed under it.
    public struct Entry: Sendable, Hashable {
        /// The place's own number, as the map and the list show it (1 for the first listed): set for
        /// a place alone in its cell and for one outside the map; nil for a place that shares its
        /// cell or lies in the centre cell, which the list gives under the cell's mark instead, and
        /// on a map with opening states for a place that is not open.
        public var number: Int?
        /// Index of the place in `MapModel.markers`.
        public var markerIndex: Int
        /// The place.
        public var marker: MapMarker
        /// The map cell the place is drawn in: the one whose centre is nearest its position (within
        /// half a cell east–west and north–south; the centre cell included), or nil if it lies
        /// outside the drawn square (it is then listed under "Outside the map").
        public var cell: MapCell?
        /// Whether other places share the cell, which then shows their count (`×3`).
        public var isClustered: Bool
        /// What the map shows in the cell, and the mark the list gives the place under: its number
        /// (`"7"`, `"[7]"` when large), the count of places sharing the cell (`"×3"`, `"×+"` past
        /// 9), the centre symbol merged with places (`"◈"`), or the no-room symbol (`"◆"`) when a
        /// mark would run into its neighbours; on a map with opening states, a closed place's
        /// symbol (`"○"`) or an hours-unknown one (`"?"`) instead of a number; nil outside the map.
        public var symbol: String?
        /// Whether the list shows the place; false when the list was cut to the height and the place
        /// is counted in its last line, "… and N more".
        public var isListed: Bool
    }

    /// The output, top to bottom, without line terminators and without trailing spaces; with ANSI
    /// colour sequences if the style asked for colour.
    public var lines: [String]
    /// The places in the list's order: the map's marks by their nearest place, each mark's places
    /// nearest first, then the places outside the map nearest first.
    public var entries: [Entry]
    /// Cells per side of the map grid (odd).
    public var side: Int
    /// Meters covered by one cell, east–west and north–south.
    public var metersPerCell: Double

    /// The lines joined, each ending in a newline: the bytes a terminal or a golden file gets.
    public var text: String { lines.map { $0 + "\n" }.joined() }
}
