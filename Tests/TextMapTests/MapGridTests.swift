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

    @Test(arguments: [
        (0.0, 10.0, 5, 4), (10, 0, 6, 5), (-10, -10, 4, 6), (0, 0, 5, 4), (30, -5, 6, 5), (-1, 30, 5, 4),
    ])
    func placesInTheCentreCellMoveBesideIt(east: Double, north: Double, column: Int, row: Int) {
        #expect(grid.drawnCell(eastMeters: east, northMeters: north) == MapCell(column: column, row: row))
    }
}
