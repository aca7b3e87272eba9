/// The list under the map: the places drawn, under the marks the map shows them by, then those
/// outside the drawn square; or — when there are none — a sentence naming the nearest place
/// beyond the radius.
///
/// The map's marks in the order of their nearest place: a place alone in its cell under its number
/// (`3`), the places sharing a cell under their count (`×3`), one row each, nearest first, the
/// mark on the first; the places in the centre cell likewise under the merged centre symbol
/// (`◈`). A list longer than the lines it is given is cut, its last line saying how many places
/// it leaves out: "… and 4 more".
///
/// Every line fits `width` terminal columns (`TerminalColumns`: CJK and emoji count 2): names are
/// cut with an ellipsis, the empty message wraps at spaces, and in the large style directions
/// fall back from words to compass points when words leave a name too little room.
///
/// On a map with opening states each row ends in the place's state ("open until Thu 19:30",
/// "closed, opens Mon 08:30", "hours unknown"), in a column of its own; where that leaves a name
/// too little room (as for directions in words), each state goes on a line of its own under the
/// name instead, and a place is listed whole or not at all.
struct MapList: Sendable {
    let model: MapModel
    let style: MapStyle
    let glyphs: MapGlyphs
    /// Terminal columns available; long names are cut to fit.
    let width: Int

    /// The fewest columns a name is cut to while directions are in words: below that, the large
    /// style gives the name room by printing compass points (`WSW`) instead.
    static let minimumNameColumns = 8

    /// The list's lines for the places, at most `maxLines` of them (1 or more); marks in `entries`
    /// the places left out as not listed.
    ///
    /// - Parameters:
    ///   - entries: the places in list order (`RenderedMap.entries`), each with its map symbol.
    ///   - maxLines: the lines the list may take, 1 or more.
    func lines(_ entries: inout [RenderedMap.Entry], maxLines: Int) -> [StyledLine] {
        if entries.isEmpty { return emptyMessage(maxLines: maxLines) }
        let layout = columns(entries)
        let openCells = Set(
            entries.filter { $0.marker.shownOpening(model.showsOpening)?.isOpen ?? true }.compactMap(\.cell))
        // Each line with the entry it lists, nil for a blank line or a heading.
        var items: [(line: StyledLine, entry: Int?)] = []
        var previousCell: MapCell?
        for (index, entry) in entries.enumerated() {
            let first = entry.cell == nil || entry.cell != previousCell
            if entry.cell == nil && (index == 0 || entries[index - 1].cell != nil) {
                if !items.isEmpty { items.append((StyledLine(), nil)) }
                items.append((StyledLine("Outside the map:"), nil))
            }
            if style.large && first && !items.isEmpty { items.append((StyledLine(), nil)) }
            let mark = first ? (text: self.mark(entry), role: role(entry, openCells: openCells)) : nil
            for line in row(entry, mark: mark, layout) { items.append((line, index)) }
            previousCell = entry.cell
        }
        guard items.count > maxLines else { return items.map(\.line) }
        var kept = Array(items.prefix(maxLines - 1))
        // A place whose state line was cut goes whole into "… and N more".
        if let cut = items[kept.count].entry {
            while let last = kept.last, last.entry == cut { kept.removeLast() }
        }
        while let last = kept.last, last.entry == nil { kept.removeLast() }
        let listed = Set(kept.compactMap(\.entry))
        for index in entries.indices { entries[index].isListed = listed.contains(index) }
        let more = entries.count - listed.count
        let summary =
            listed.isEmpty
            ? "No room to list \(more) \(MapWording.plural(MapWording.printable(model.kind), more))"
            : "\(glyphs.ellipsis) and \(more) more"
        return kept.map(\.line) + [StyledLine(TerminalColumns.cut(summary, to: width, ellipsis: glyphs.ellipsis))]
    }

    /// "No pharmacy within 100 m. Nearest: Omur, 132 m WSW.", wrapped to the width and cut to
    /// `maxLines` lines, the last ending in an ellipsis if anything was cut.
    func emptyMessage(maxLines: Int = .max) -> [StyledLine] {
        var text = "No \(MapWording.printable(model.kind)) within \(MapWording.radius(model.radiusMeters))."
        if let nearest = model.nearestBeyondRadius {
            text += " Nearest: \(name(nearest)), \(MapWording.distance(nearest.distanceMeters)) "
            text += MapWording.direction(of: nearest, inWords: style.large)
            if let state = nearest.shownOpening(model.showsOpening) { text += " (\(state.listText))" }
            text += "."
        }
        var lines = TerminalColumns.wrap(text, to: width, ellipsis: glyphs.ellipsis)
        if lines.count > maxLines {
            lines = Array(lines.prefix(max(1, maxLines)))
            let room = width - TerminalColumns.width(glyphs.ellipsis) - 1
            lines[lines.count - 1] =
                String(TerminalColumns.prefix(lines[lines.count - 1], room)) + " " + glyphs.ellipsis
        }
        return lines.map { StyledLine($0) }
    }

    private struct Columns {
        var mark: Int
        var name: Int
        var distance: Int
        var directionInWords: Bool
        /// Columns of the widest direction, which the states beside it are aligned after.
        var direction: Int
        /// Whether the states go in a column beside the direction (else on a line under the name).
        var stateBeside: Bool
    }

    private func columns(_ entries: [RenderedMap.Entry]) -> Columns {
        let mark = entries.map { TerminalColumns.width(self.mark($0)) }.max() ?? 1
        let distance = entries.map { MapWording.distance($0.marker.distanceMeters).count }.max() ?? 1
        let longest = entries.map { TerminalColumns.width(name($0.marker)) }.max() ?? 0
        let state = entries.compactMap { self.state($0.marker).map { TerminalColumns.width($0.listText) } }.max()
        func direction(inWords: Bool) -> Int {
            entries.map { MapWording.direction(of: $0.marker, inWords: inWords).count }.max() ?? 1
        }
        func room(inWords: Bool, stateBeside: Bool) -> Int {
            let stateColumns = stateBeside ? state.map { $0 + 2 } ?? 0 : 0
            return width - mark - distance - direction(inWords: inWords) - 6 - stateColumns
        }
        // Words, and states beside, when they leave a name its minimum (or the longest name fits
        // anyway); states beside before words; compass points and states below when nothing does.
        let choices =
            style.large
            ? [(true, true), (false, true), (true, false), (false, false)] : [(false, true), (false, false)]
        let (inWords, stateBeside) =
            choices.first { room(inWords: $0.0, stateBeside: $0.1) >= min(longest, Self.minimumNameColumns) }
            ?? (false, false)
        // Names are cut only to fit the width, and to no less than one column.
        return Columns(
            mark: mark, name: max(1, min(longest, room(inWords: inWords, stateBeside: stateBeside))),
            distance: distance, directionInWords: inWords, direction: direction(inWords: inWords),
            stateBeside: stateBeside)
    }

    /// The entry's row, and its state's own line when states go under the names.
    private func row(_ entry: RenderedMap.Entry, mark: (text: String, role: MapRole)?, _ columns: Columns)
        -> [StyledLine]
    {
        let markText = mark?.text ?? ""
        var line = StyledLine(String(repeating: " ", count: columns.mark - TerminalColumns.width(markText)))
        line.append(markText, mark?.role ?? .plain)
        line.append("  " + fitted(name(entry.marker), columns.name))
        let distance = MapWording.distance(entry.marker.distanceMeters)
        line.append("  " + String(repeating: " ", count: columns.distance - distance.count) + distance)
        let direction = MapWording.direction(of: entry.marker, inWords: columns.directionInWords)
        line.append("  " + direction)
        guard let state = state(entry.marker) else { return [line] }
        let role: MapRole = state.isOpen ? .open : state == .unknown ? .unknown : .closed
        if columns.stateBeside {
            line.append(String(repeating: " ", count: 2 + columns.direction - direction.count))
            line.append(state.listText, role)
            return [line]
        }
        var below = StyledLine(String(repeating: " ", count: columns.mark + 2))
        below.append(TerminalColumns.cut(state.listText, to: width - below.width, ellipsis: glyphs.ellipsis), role)
        return [line, below]
    }

    /// The state the list gives the place, nil on a map without opening states.
    private func state(_ marker: MapMarker) -> MapMarker.Opening? {
        marker.shownOpening(model.showsOpening)
    }

    /// The mark the map shows the place by, or for a place outside the map its number ("7", or
    /// "[7]" in the large style) or, when it has none, its state's symbol.
    private func mark(_ entry: RenderedMap.Entry) -> String {
        if let symbol = entry.symbol { return symbol }
        if entry.number == nil, let state = state(entry.marker), !state.isOpen {
            return state == .unknown ? glyphs.unknown : glyphs.closed
        }
        let number = entry.number.map(String.init) ?? "?"
        return style.large ? "[\(number)]" : number
    }

    /// The mark's colour, as on the map: a shared cell whose places are none of them open
    /// (`openCells` lacks it) is dimmed.
    private func role(_ entry: RenderedMap.Entry, openCells: Set<MapCell>) -> MapRole {
        guard let symbol = entry.symbol else {
            // Outside the map: its number, or its state's symbol.
            guard entry.number == nil, let state = state(entry.marker), !state.isOpen else { return .marker }
            return state == .unknown ? .unknown : .closed
        }
        switch symbol {
        case glyphs.centerWithPlaces: return .center
        case glyphs.closed: return .closed
        case glyphs.unknown: return .unknown
        case glyphs.cluster: return .cluster
        default:
            guard entry.isClustered else { return .marker }
            return entry.cell.map(openCells.contains) == false ? .closed : .cluster
        }
    }

    /// The name, with the kind when it is not the map's kind ("Ayse (user)").
    private func name(_ marker: MapMarker) -> String {
        MapWording.printable(
            marker.kind == model.kind ? marker.displayName : "\(marker.displayName) (\(marker.kind))")
    }

    /// `text` padded or cut to exactly `columns` terminal columns.
    private func fitted(_ text: String, _ columns: Int) -> String {
        let cut = TerminalColumns.cut(text, to: columns, ellipsis: glyphs.ellipsis)
        return cut + String(repeating: " ", count: max(0, columns - TerminalColumns.width(cut)))
    }
}
