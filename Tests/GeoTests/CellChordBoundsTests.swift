import Foundation
import Testing

@testable import Geo

/// The bounds that let a nearest-N search skip cells and long chords: each is checked on seeded
/// random cases against the quantity it bounds, with poles, ±180° and long distances drawn often.
@Suite struct CellChordBoundsTests {
    /// `ChordBounds.longestChord(distance:)` is at least the chord of every pair at that geodesic
    /// distance, from 50 km to nearly antipodal.
    @Test func longestChordBoundsEveryPairAtThatDistance() {
        var random = SplitMix64(seed: 0xC0DE_0101)
        var tightest = Double.infinity
        for _ in 0..<100_000 {
            let start = Coordinate(unchecked: random.uniform(-90...90), random.longitude())
            let end = Coordinate(
                unchecked: random.chance(0.1) ? random.signed(90) : random.uniform(-90...90),
                random.chance(0.1) ? random.signed(180) : random.longitude())
            let distance = Geodesic.wgs84.distance(start, end)
            guard distance >= 50_000 else { continue }
            let chord = ChordFrame(
                center: start, equatorialRadius: WGS84.equatorialRadius, eccentricitySquared: WGS84.eccentricitySquared
            ).chordSquared(latitude: end.latitude, longitude: end.longitude).squareRoot()
            let bound = ChordBounds.longestChord(distance: distance)
            #expect(chord <= bound, "\(start) → \(end): chord \(chord) m, bound \(bound) m at \(distance) m")
            tightest = min(tightest, bound - chord)
        }
        // The bound is a real bound, not 2a: somewhere it comes within 40 km of the chord.
        #expect(tightest < 40_000)
    }

    /// A cell's lower bound is at most the chord to every point in it, and its largest chord at
    /// least the chord between any two of its points, for cells of every size and place.
    @Test(arguments: [10.0, 250.0, 5_000.0, 100_000.0])
    func cellBoundsHoldForEveryPoint(cellSize: Double) throws {
        var random = SplitMix64(seed: 0xC0DE_0102 &+ UInt64(cellSize))
        let layout = try GridLayout(cellSizeMeters: cellSize)
        var violations: [String] = []
        for _ in 0..<20_000 {
            let center = Coordinate(
                unchecked: random.chance(0.1) ? random.signed(90) : random.uniform(-90...90),
                random.chance(0.1) ? random.signed(180) : random.longitude())
            let a = random.chance(0.1) ? random.signed(90) : random.uniform(-90...90)
            let b = random.chance(0.1) ? random.signed(180) : random.longitude()
            let row = layout.row(latitude: a)
            let column = layout.column(row: row, longitude: b)
            let south = layout.south(row: row)
            let width = layout.columnWidth(row: row)
            let west = -180 + Double(column) * width
            // Two points of the same cell: corners and edges often, else inside.
            func inCell() -> Coordinate {
                let latitude = min(
                    90,
                    random.chance(0.3)
                        ? random.pick([south, south + layout.rowHeight]) : south + random.unit() * layout.rowHeight)
                let longitude = min(
                    180, random.chance(0.3) ? random.pick([west, west + width]) : west + random.unit() * width)
                return Coordinate(unchecked: latitude, longitude)
            }
            let frame = ChordFrame(
                center: center, equatorialRadius: WGS84.equatorialRadius, eccentricitySquared: WGS84.eccentricitySquared
            )
            let band = frame.band(south: south, north: south + layout.rowHeight)
            let lower = frame.lowerBoundChordSquared(band: band, west: west, east: west + width)
            let largest = frame.largestChord(band: band, width: width)
            let p = inCell()
            let q = inCell()
            let toP = frame.chordSquared(latitude: p.latitude, longitude: p.longitude)
            if lower > toP { violations.append("lower bound \(lower) > chord² \(toP) from \(center) to \(p)") }
            let pq = ChordFrame(
                center: p, equatorialRadius: WGS84.equatorialRadius, eccentricitySquared: WGS84.eccentricitySquared
            ).chordSquared(latitude: q.latitude, longitude: q.longitude).squareRoot()
            if largest < pq { violations.append("largest chord \(largest) < \(pq) between \(p) and \(q)") }
        }
        #expect(violations.isEmpty, "\(violations.prefix(5))")
    }
}
