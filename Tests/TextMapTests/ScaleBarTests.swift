import Testing

@testable import TextMap

@Suite struct ScaleBarTests {
    /// The longest 1-2-5 × 10^k length that fits, spanning the nearest whole number of columns.
    @Test(arguments: [
        (31.58, 12, 200.0, 6, "200 m"), (46.15, 12, 500.0, 11, "500 m"), (2.4, 12, 20.0, 8, "20 m"),
        (600.0, 12, 5000.0, 8, "5 km"), (0.05, 12, 0.5, 10, "0.5 m"), (41.67, 16, 500.0, 12, "500 m"),
    ])
    func chosenLengthIsRoundAndFits(
        metersPerColumn: Double, maxColumns: Int, meters: Double, columns: Int, label: String
    ) {
        let bar = ScaleBar(metersPerColumn: metersPerColumn, maxColumns: maxColumns)
        #expect(bar.meters == meters)
        #expect(bar.columns == columns)
        #expect(bar.label == label)
        #expect(Double(bar.columns) * metersPerColumn <= Double(maxColumns) * metersPerColumn + metersPerColumn / 2)
    }

    @Test func drawnWithBothEndMarks() {
        let bar = ScaleBar(metersPerColumn: 46.15, maxColumns: 12)
        #expect(bar.line(.ascii).rendered(nil) == "|----------| 500 m")
        #expect(bar.line(.unicode).rendered(nil) == "├──────────┤ 500 m")
    }
}
