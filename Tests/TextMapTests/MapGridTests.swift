import Testing

@testable import TextMap

@Suite struct MapGridTests {
    let grid = MapGrid(side: 11, halfExtentMeters: 1100)  // 200 m cells

    @Test func pointsGoToTheNearestCellCentre() {
        #expect(grid.metersPerCell == 200)
        #expect(grid.cell(eastMeters: 0, northMeters: 0) == MapCell(column: 5, row: 5))
        #expect(grid.cell(eastMeters: 99, northMeters: -99) == MapCell(column: 5, row: 5))
        #expect(grid.cell(eastMeters: 101, northMeters: 301) == MapCell(column: 6, row: 3))
        #expect(grid.cell(eastMeters: -1099, northMeters: 1099) == MapCell(column: 0, row: 0))
    }

    @Test func pointsOutsideTheSquareHaveNoCell() {
        #expect(grid.cell(eastMeters: 1101, northMeters: 0) == nil)
        #expect(grid.cell(eastMeters: 0, northMeters: -1e300) == nil)
        #expect(grid.cell(eastMeters: .nan, northMeters: 0) == nil)
    }

    /// Places in the centre cell were drawn one cell away from "you", although the README promises
    /// every place at its true distance and direction: they now stay in the centre cell.
    @Test(arguments: [(0.0, 10.0), (10, 0), (-10, -10), (0, 0), (30, -5), (-1, 30), (-99.9, 99.9)])
    func placesInTheCentreCellStayThere(east: Double, north: Double) {
        #expect(grid.cell(eastMeters: east, northMeters: north) == MapCell(column: 5, row: 5))
    }

    /// The rule is the nearest cell centre; a point exactly half-way goes away from the centre.
    @Test(arguments: [(100.0, 0.0, 6, 5), (-100, 0, 4, 5), (0, 100, 5, 4), (0, -100, 5, 6), (300, -300, 7, 7)])
    func halfWayPointsRoundAwayFromTheCentre(east: Double, north: Double, column: Int, row: Int) {
        #expect(grid.cell(eastMeters: east, northMeters: north) == MapCell(column: column, row: row))
    }
}
