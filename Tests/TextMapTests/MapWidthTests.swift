import Foundation
import Geo
import Testing

@testable import TextMap

/// Every output line fits the width it was given, counted in terminal columns, whatever the names:
/// `--width 30` printed a 42-column title, a 51-column empty message and (large) 37-column rows.
@Suite struct MapWidthTests {
    /// Names that are wide on a terminal (CJK, Hangul, kana, fullwidth, emoji) or hostile (format
    /// and control characters that would flip or break a line), and very long ones.
    static let names = [
        "東京駅前薬局グランドタワー店", "서울 약국 본점", "ｆｕｌｌｗｉｄｔｈ　ｐｈａｒｍａｃｙ", "🏥💊 Emoji Pharmacy 🙂🙂🙂",
        "\u{202E}ycamrahP livE", "Left\u{200E}Right\u{200F}\u{2066}iso\u{2069}", "Bell\u{07}\u{1B}[31mred\nline",
        String(repeating: "Very Long Pharmacy Name ", count: 8), "Omur", "",
    ]

    /// Categories that must never reach the terminal (colour is off here, so not even ESC).
    static let unsafe: [Unicode.GeneralCategory] = [.control, .format, .lineSeparator, .paragraphSeparator]

    static func markers(count: Int, radius: Double) -> [MapMarker] {
        (0..<count).map { index in
            let angle = Double(index) * 2.4
            let distance = radius * Double(index + 1) / Double(count + 1)
            let (east, north) = (distance * sin(angle), distance * cos(angle))
            return MapMarker(
                name: names[index % names.count], kind: index % 3 == 0 ? "ユーザー" : "pharmacy",
                distanceMeters: distance, bearingDegrees: Bearing.normalized(angle * 180 / .pi), eastMeters: east,
                northMeters: north)
        }
    }

    @Test(arguments: 30...120)
    func everyLineFitsTheWidth(width: Int) throws {
        let center = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let nearest = MapMarker(
            name: Self.names[width % Self.names.count], kind: "pharmacy", distanceMeters: 1_234_567,
            bearingDegrees: 200,
            eastMeters: -400_000, northMeters: -1_000_000)
        for radius in [100.0, 1234.5, 5_000_000] {
            for count in [0, 1, 12, 60] {
                // Box drawing on odd widths, ASCII (whose ellipsis is 3 columns) on even ones.
                let characters: MapStyle.Characters = width % 2 == 1 ? .unicode : .ascii
                for large in [false, true] {
                    let style = MapStyle(characters: characters, large: large)
                    let model = MapModel(
                        center: center, radiusMeters: radius, kind: "pharmacy",
                        markers: Self.markers(count: count, radius: radius), nearestBeyondRadius: nearest)
                    let map = try MapRenderer(width: width, height: 24 + width % 7, style: style).render(model)
                    for line in map.lines {
                        #expect(
                            TerminalColumns.width(line) <= width,
                            "\(TerminalColumns.width(line)) columns at width \(width): \(line)")
                        let unsafe = line.unicodeScalars.filter { Self.unsafe.contains($0.properties.generalCategory) }
                        #expect(unsafe.isEmpty, "\(line.debugDescription)")
                    }
                }
            }
        }
    }
}
