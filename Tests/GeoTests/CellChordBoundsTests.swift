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
            // From 3,000 km on, the bound is below the distance, the old threshold: it tightens.
            if distance >= 3_000_000 { #expect(bound < distance, "\(start) → \(end) at \(distance) m") }
        }
    }

    /// A cell's lower bound is at most the chord to every point the grid files into it, and its
    /// largest chord at least the chord between any two of them, for cells of every size and
    /// place, on the ellipsoid and on spheres of 1 m to 10,000 km; half the cells are the query's
    /// own or its neighbours'.
    @Test(arguments: [10.0, 250.0, 5_000.0, 100_000.0])
    func cellBoundsHoldForEveryPoint(cellSize: Double) throws {
        var random = SplitMix64(seed: 0xC0DE_0102 &+ UInt64(cellSize))
        let layout = try GridLayout(cellSizeMeters: cellSize)
        var violations: [String] = []
        func anywhere() -> Coordinate {
            Coordinate(
                unchecked: random.chance(0.1) ? random.signed(90) : random.uniform(-90...90),
                random.chance(0.1) ? random.signed(180) : random.longitude())
        }
        for round in 0..<20_000 {
            let center = anywhere()
            // A point of the cell to bound: anywhere, or within a few cells of the query.
            let seed: Coordinate
            if round % 2 == 0 {
                seed = anywhere()
            } else {
                let latitude = min(90, max(-90, center.latitude + random.uniform(-2...2) * layout.rowHeight))
                let row = layout.row(latitude: latitude)
                var longitude = center.longitude + random.uniform(-2...2) * layout.columnWidth(row: row)
                if longitude > 180 { longitude -= 360 }
                if longitude < -180 { longitude += 360 }
                seed = Coordinate(unchecked: latitude, longitude)
            }
            let row = layout.row(latitude: seed.latitude)
            let column = layout.column(row: row, longitude: seed.longitude)
            let south = layout.south(row: row)
            let width = layout.columnWidth(row: row)
            let west = -180 + Double(column) * width
            /// A point the grid files into the cell: its edges and corners often.
            func inCell() -> Coordinate {
                while true {
                    let latitude = min(
                        90,
                        random.chance(0.3)
                            ? random.pick([south, south + layout.rowHeight]) : south + random.unit() * layout.rowHeight)
                    let longitude = min(
                        180, random.chance(0.3) ? random.pick([west, west + width]) : west + random.unit() * width)
                    let filed = layout.row(latitude: latitude)
                    if filed == row, layout.column(row: filed, longitude: longitude) == column {
                        return Coordinate(unchecked: latitude, longitude)
                    }
                }
            }
            let sphere = random.chance(0.25) ? random.logUniform(1...10_000_000) : nil
            let radius = sphere ?? WGS84.equatorialRadius
            let e2 = sphere == nil ? WGS84.eccentricitySquared : 0
            let frame = ChordFrame(center: center, equatorialRadius: radius, eccentricitySquared: e2)
            let band = frame.band(south: south, north: south + layout.rowHeight)
            let lower = frame.lowerBoundChordSquared(band: band, west: west, east: west + width)
            let largest = frame.largestChord(band: band, width: width)
            let p = inCell()
            let q = inCell()
            let toP = frame.chordSquared(latitude: p.latitude, longitude: p.longitude)
            if lower > toP {
                violations.append("lower bound \(lower) > chord² \(toP) from \(center) to \(p), R \(radius)")
            }
            let pq = ChordFrame(center: p, equatorialRadius: radius, eccentricitySquared: e2)
                .chordSquared(latitude: q.latitude, longitude: q.longitude).squareRoot()
            if largest < pq { violations.append("largest chord \(largest) < \(pq) between \(p) and \(q), R \(radius)") }
        }
        #expect(violations.isEmpty, "\(violations.prefix(5))")
    }
}
