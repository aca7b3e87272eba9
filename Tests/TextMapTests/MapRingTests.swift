import Testing

@testable import TextMap

@Suite struct MapRingTests {
    @Test(arguments: [1.0, 1.5, 2.5, 3.3, 4.58, 5.417, 7.08, 12.0, 30.3])
    func ringIsSymmetricUnbrokenAndOnTheCircle(radiusCells: Double) {
        for (columnsPerCell, linesPerCell) in [(2, 1), (4, 2)] {
            let ring = MapRing(radiusCells: radiusCells, columnsPerCell: columnsPerCell, linesPerCell: linesPerCell)
            let dots = ring.dots(maxColumn: 1000, maxLine: 1000)
            #expect(!dots.isEmpty)
            for dot in dots {
                #expect(dots.contains(MapRing.Dot(column: -dot.column, line: dot.line)))
                #expect(dots.contains(MapRing.Dot(column: dot.column, line: -dot.line)))
                // Within a line (half a line of rounding, one more at a flattened apex) of the circle.
                let east = Double(dot.column) / Double(columnsPerCell)
                let south = Double(dot.line) / Double(linesPerCell)
                let error = abs((east * east + south * south).squareRoot() - radiusCells)
                #expect(error <= 1.0 / Double(linesPerCell) + 1e-9, "\(dot) is \(error) cells off")
                // Unbroken: another dot within a line and two columns.
                let neighbours = dots.filter {
                    $0 != dot && abs($0.line - dot.line) <= 1 && abs($0.column - dot.column) <= 2
                }
                #expect(neighbours.count >= 2, "\(dot) has \(neighbours.count) neighbours")
            }
        }
    }

    @Test func ringInsideTheCentreCellIsNotDrawn() {
        #expect(MapRing(radiusCells: 0.9, columnsPerCell: 2, linesPerCell: 1).dots(maxColumn: 9, maxLine: 9).isEmpty)
    }

    @Test func ringIsClippedToTheMap() {
        let dots = MapRing(radiusCells: 10, columnsPerCell: 2, linesPerCell: 1).dots(maxColumn: 9, maxLine: 4)
        #expect(dots.allSatisfy { abs($0.column) <= 9 && abs($0.line) <= 4 })
        #expect(dots.isEmpty)
    }
}
