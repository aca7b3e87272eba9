/// The list under the map: the places drawn, nearest first, then those outside the drawn square,
/// or — when there are none — a sentence naming the nearest place beyond the radius.
struct MapList: Sendable {
    let model: MapModel
    let style: MapStyle
    let glyphs: MapGlyphs
    /// Terminal columns available; long names are cut to fit.
    let width: Int

    /// The list's lines for the numbered places.
    func lines(_ entries: [RenderedMap.Entry]) -> [StyledLine] {
        if entries.isEmpty { return [emptyMessage()] }
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
        if entries.isEmpty { return 1 }
        let outside = entries.count { $0.cell == nil }
        let drawn = entries.count - outside
        var count = drawn + (style.large ? max(0, drawn - 1) : 0)
        if outside > 0 { count += (drawn > 0 ? 1 : 0) + 1 + outside * (style.large ? 2 : 1) }
        return count
    }

    /// "No pharmacy within 100 m. Nearest: Omur, 132 m WSW."
    func emptyMessage() -> StyledLine {
        var text = "No \(MapWording.printable(model.kind)) within \(MapWording.plain(model.radiusMeters)) m."
        if let nearest = model.nearestBeyondRadius {
            text += " Nearest: \(name(nearest)), \(MapWording.distance(nearest.distanceMeters)) "
            text += MapWording.direction(nearest.bearingDegrees, inWords: style.large) + "."
        }
        return StyledLine(text)
    }

    private struct Columns {
        var number: Int
        var name: Int
        var distance: Int
    }

    private func columns(_ entries: [RenderedMap.Entry]) -> Columns {
        let number = entries.map { label($0.number).count }.max() ?? 1
        let distance = entries.map { MapWording.distance($0.marker.distanceMeters).count }.max() ?? 1
        let direction = entries.map { self.direction($0.marker).count }.max() ?? 1
        let longest = entries.map { name($0.marker).count }.max() ?? 0
        let room = width - number - distance - direction - 6
        // Names are cut only to fit the width, and never below 8 characters.
        return Columns(number: number, name: min(longest, max(8, room)), distance: distance)
    }

    private func row(_ entry: RenderedMap.Entry, _ columns: Columns) -> StyledLine {
        let number = label(entry.number)
        var line = StyledLine(String(repeating: " ", count: columns.number - number.count))
        line.append(number, .marker)
        line.append("  " + fitted(name(entry.marker), columns.name))
        let distance = MapWording.distance(entry.marker.distanceMeters)
        line.append("  " + String(repeating: " ", count: columns.distance - distance.count) + distance)
        line.append("  " + direction(entry.marker))
        return line
    }

    /// "7", or "[7]" in the large style, as on the map.
    private func label(_ number: Int) -> String { style.large ? "[\(number)]" : String(number) }

    private func direction(_ marker: MapMarker) -> String {
        MapWording.direction(marker.bearingDegrees, inWords: style.large)
    }

    /// The name, with the kind when it is not the map's kind ("Ayse (user)").
    private func name(_ marker: MapMarker) -> String {
        MapWording.printable(
            marker.kind == model.kind ? marker.displayName : "\(marker.displayName) (\(marker.kind))")
    }

    /// `text` padded or cut to exactly `columns` characters.
    private func fitted(_ text: String, _ columns: Int) -> String {
        if text.count <= columns { return text + String(repeating: " ", count: columns - text.count) }
        return String(text.prefix(max(0, columns - glyphs.ellipsis.count))) + glyphs.ellipsis
    }
}
