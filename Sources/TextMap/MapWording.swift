import Foundation
import Geo

/// How distances, directions and kinds read on a map and in its list.
enum MapWording {
    /// A distance as a person reads it: whole meters below 1 km ("132 m"), one decimal below
    /// 10 km ("1.2 km"), whole kilometers above ("12 km").
    static func distance(_ meters: Double) -> String {
        guard meters.isFinite else { return "? m" }
        let wholeMeters = meters.rounded()
        if wholeMeters < 1000 { return "\(Int(wholeMeters)) m" }
        let kilometers = meters / 1000
        if (kilometers * 10).rounded() < 100 { return String(format: "%.1f km", kilometers) }
        return String(format: "%.0f km", kilometers)
    }

    /// A radius as the title, legend and empty message print it: exact meters below 1 km ("500 m",
    /// "62.5 m"), so a typed radius reads back as typed; above, kilometers as `distance` gives them
    /// but without a needless ".0" ("1.2 km", "5 km", "5000 km" rather than "5000000 m").
    static func radius(_ meters: Double) -> String {
        guard meters.isFinite else { return "? m" }
        if meters < 999.5 { return "\(plain(meters)) m" }
        let tenths = (meters / 100).rounded()
        if tenths < 100 && tenths.truncatingRemainder(dividingBy: 10) != 0 {
            return String(format: "%.1f km", tenths / 10)
        }
        return String(format: "%.0f km", meters / 1000)
    }

    /// A round length in meters as a label: "200 m", "1 km", "5000 km".
    static func roundLength(_ meters: Double) -> String {
        meters < 1000 ? "\(Int(meters)) m" : "\(Int(meters / 1000)) km"
    }

    /// The 16 compass points in words, clockwise from north, matching `Bearing.compassPoints`.
    static let compassWords = [
        "north", "north-northeast", "northeast", "east-northeast", "east", "east-southeast", "southeast",
        "south-southeast", "south", "south-southwest", "southwest", "west-southwest", "west", "west-northwest",
        "northwest", "north-northwest",
    ]

    /// "WSW", or "west-southwest" in words.
    static func direction(_ degrees: Double, inWords: Bool) -> String {
        let point = Bearing.compassPoint(degrees)
        guard inWords, let index = Bearing.compassPoints.firstIndex(of: point) else { return point }
        return compassWords[index]
    }

    /// See `TerminalText.plural`.
    static func plural(_ kind: String, _ count: Int) -> String { TerminalText.plural(kind, count) }

    /// See `TerminalText.printable`.
    static func printable(_ text: String) -> String { TerminalText.printable(text) }

    /// Where does the place lie: its compass point, or "here" for a place exactly at the centre,
    /// whose bearing means nothing.
    static func direction(of marker: MapMarker, inWords: Bool) -> String {
        marker.distanceMeters == 0 ? "here" : direction(marker.bearingDegrees, inWords: inWords)
    }

    /// "Pharmacies within 500 m of 41.088154, 29.015615", shortened to `width` columns at a word
    /// with an ellipsis after it ("Pharmacies within 500 m of 41.088154, …"): never inside a number,
    /// and "500 m" stays whole. Only a kind longer than the width is cut inside.
    static func title(kind: String, radiusMeters: Double, center: Coordinate, width: Int, ellipsis: String) -> String {
        let words = [
            capitalized(plural(printable(kind), 2)), "within", radius(radiusMeters), "of",
            "\(center.latitude),", "\(center.longitude)",
        ]
        return TerminalColumns.cut(words: words, to: width, ellipsis: ellipsis)
    }

    /// "Pharmacies" from "pharmacies".
    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// A number without needless zeros: "500", "62.5".
    static func plain(_ value: Double) -> String { NumberText.plain(value) }
}
