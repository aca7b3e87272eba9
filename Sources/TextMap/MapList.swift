/// The list under the map: the places drawn, nearest first, then those outside the drawn square,
/// or — when there are none — a sentence naming the nearest place beyond the radius.
///
/// Every line fits `width` terminal columns (`TerminalColumns`: CJK and emoji count 2): names are
/// cut with an ellipsis, the empty message wraps at spaces, and in the large style directions
/// fall back from words to compass points when words leave a name too little room.
struct MapList: Sendable {
    let model: MapModel
    let style: MapStyle
    let glyphs: MapGlyphs
    /// Terminal columns available; long names are cut to fit.
    let width: Int

    /// The fewest columns a name is cut to while directions are in words: below that, the large
    /// style gives the name room by printing compass points (`WSW`) instead.
    static let minimumNameColumns = 8

    /// The list's lines for the numbered places.
    func lines(_ entries: [RenderedMap.Entry]) -> [StyledLine] {
        if entries.isEmpty { return emptyMessage() }
        let drawn = entries.filter { $0.cell != nil }
        let outside = entries.filter { $0.cell == nil }
        let layout = columns(entries)
        var lines: [StyledLine] = []
        for entry in drawn {
            if style.large && !lines.isEmpty { lines.append(StyledLine()) }
            lines.append(row(entry, layout))
        }
        if !outside.isEmpty {
            if !lines.isEmpty { lines.append(StyledLine()) }
            lines.append(StyledLine("Outside the map:"))
            for entry in outside {
                if style.large { lines.append(StyledLine()) }
                lines.append(row(entry, layout))
            }
        }
        return lines
    }

    /// How many lines `lines(entries)` gives, without formatting them.
    func lineCount(_ entries: [RenderedMap.Entry]) -> Int {
        if entries.isEmpty { return emptyMessage().count }
        let outside = entries.count { $0.cell == nil }
        let drawn = entries.count - outside
        var count = drawn + (style.large ? max(0, drawn - 1) : 0)
        if outside > 0 { count += (drawn > 0 ? 1 : 0) + 1 + outside * (style.large ? 2 : 1) }
        return count
    }

    /// "No pharmacy within 100 m. Nearest: Omur, 132 m WSW.", wrapped to the width.
    func emptyMessage() -> [StyledLine] {
        var text = "No \(MapWording.printable(model.kind)) within \(MapWording.radius(model.radiusMeters))."
        if let nearest = model.nearestBeyondRadius {
            text += " Nearest: \(name(nearest)), \(MapWording.distance(nearest.distanceMeters)) "
            text += MapWording.direction(of: nearest, inWords: style.large) + "."
        }
        return TerminalColumns.wrap(text, to: width, ellipsis: glyphs.ellipsis).map { StyledLine($0) }
    }

    private struct Columns {
        var number: Int
        var name: Int
        var distance: Int
        var directionInWords: Bool
    }

    private func columns(_ entries: [RenderedMap.Entry]) -> Columns {
        let number = entries.map { label($0.number).count }.max() ?? 1
        let distance = entries.map { MapWording.distance($0.marker.distanceMeters).count }.max() ?? 1
        let longest = entries.map { TerminalColumns.width(name($0.marker)) }.max() ?? 0
        func room(inWords: Bool) -> Int {
            let direction = entries.map { MapWording.direction(of: $0.marker, inWords: inWords).count }.max() ?? 1
            return width - number - distance - direction - 6
        }
        // Words when they leave a name its minimum (or the longest name fits anyway).
        let inWords = style.large && room(inWords: true) >= min(longest, Self.minimumNameColumns)
        // Names are cut only to fit the width, and to no less than one column.
        return Columns(
            number: number, name: max(1, min(longest, room(inWords: inWords))), distance: distance,
            directionInWords: inWords)
    }

    private func row(_ entry: RenderedMap.Entry, _ columns: Columns) -> StyledLine {
        let number = label(entry.number)
        var line = StyledLine(String(repeating: " ", count: columns.number - number.count))
        line.append(number, .marker)
        line.append("  " + fitted(name(entry.marker), columns.name))
        let distance = MapWording.distance(entry.marker.distanceMeters)
        line.append("  " + String(repeating: " ", count: columns.distance - distance.count) + distance)
        line.append("  " + MapWording.direction(of: entry.marker, inWords: columns.directionInWords))
        return line
    }

    /// "7", or "[7]" in the large style, as on the map.
    private func label(_ number: Int) -> String { style.large ? "[\(number)]" : String(number) }

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
