import Foundation

/// The fixed global grid behind `GridIndex`: rows of equal height in latitude, each cut into
/// columns of equal width in longitude, with fewer columns towards the poles so that cells stay
/// roughly square on the ground (a row touching a pole has a handful of wide cells rather than
/// tens of thousands of slivers).
///
/// Row `r` spans latitudes [-90 + r·h, -90 + (r + 1)·h) with h = 180 / `rowCount` degrees (the last
/// row includes 90). Row `r` has `columnCount(row:)` columns of width 360 / n degrees starting at
/// -180 (the last column includes 180).
struct GridLayout: Sendable {
    /// Number of latitude rows.
    let rowCount: Int
    /// Row height in degrees of latitude.
    let rowHeight: Double
    /// Columns per row.
    private let columns: [Int32]
    /// Column width per row, degrees of longitude.
    private let columnWidths: [Double]

    /// Meters per degree of latitude on the IUGG mean sphere (2πR / 360), used only to turn a cell
    /// size in meters into degrees; correctness never depends on it.
    static let metersPerDegree = 2 * Double.pi * SphereRadius.iuggMean / 360

    /// - Parameter cellSizeMeters: the approximate side of a cell on the ground, 10...100,000 m.
    init(cellSizeMeters: Double) throws(GeoError) {
        guard cellSizeMeters.isFinite, cellSizeMeters >= 10, cellSizeMeters <= 100_000 else {
            throw .invalidCellSize(cellSizeMeters)
        }
        let rows = max(1, Int((180 * GridLayout.metersPerDegree / cellSizeMeters).rounded()))
        rowCount = rows
        rowHeight = 180 / Double(rows)
        var columns = [Int32]()
        var widths = [Double]()
        columns.reserveCapacity(rows)
        widths.reserveCapacity(rows)
        for row in 0..<rows {
            let south = -90 + Double(row) * rowHeight
            let north = south + rowHeight
            // The edge nearer the equator is the widest parallel of the row.
            let widest = (south <= 0 && north >= 0) ? 0 : min(abs(south), abs(north))
            let count = max(1, Int(360 * cos(widest * .pi / 180) / rowHeight))
            columns.append(Int32(count))
            widths.append(360 / Double(count))
        }
        self.columns = columns
        self.columnWidths = widths
    }

    /// The row holding a latitude in degrees (-90...90).
    @inline(__always)
    func row(latitude: Double) -> Int {
        min(rowCount - 1, max(0, Int(((latitude + 90) / rowHeight).rounded(.down))))
    }

    @inline(__always)
    func columnCount(row: Int) -> Int { Int(columns[row]) }

    @inline(__always)
    func columnWidth(row: Int) -> Double { columnWidths[row] }

    /// The column of a longitude in degrees (-180...180) within a row. A monotone function of the
    /// longitude, so that an interval of longitudes maps to an interval of columns.
    @inline(__always)
    func column(row: Int, longitude: Double) -> Int {
        let count = Int(columns[row])
        return min(count - 1, max(0, Int(((longitude + 180) / columnWidths[row]).rounded(.down))))
    }

    /// Southern edge of a row in degrees.
    func south(row: Int) -> Double { -90 + Double(row) * rowHeight }

    /// Bytes held by the layout tables.
    var memoryBytes: Int { columns.capacity * 4 + columnWidths.capacity * 8 }
}
