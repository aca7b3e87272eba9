/// The search radius drawn as a ring of dots on the character grid.
///
/// Dots sit on a lattice about as fine as the screen allows — every line, and every second
/// column (2 columns ≈ 1 line on screen) — rather than one per map cell, so a ring only a few
/// cells across still reads as a circle. Where the ring runs more across than down (within 45° of
/// north or south) there is one dot per second column, at the nearest line; below the lowest line
/// that part reaches, one dot per line, at the nearest column. So the ring has no gaps and no
/// doubled stretches.
struct MapRing: Sendable {
    /// One dot, in characters from the map's centre symbol: `column` east, `line` south.
    struct Dot: Sendable, Hashable {
        var column: Int
        var line: Int
    }

    /// The ring's radius in map cells.
    let radiusCells: Double
    /// Characters per cell east–west.
    let columnsPerCell: Int
    /// Lines per cell north–south.
    let linesPerCell: Int

    /// The dots within `maxColumn` columns and `maxLine` lines of the centre; none for a ring
    /// smaller than one cell, which the centre symbol covers, nor for one wholly outside that
    /// rectangle.
    ///
    /// The work is bounded by the rectangle, not the radius: a ring that passes beyond the corners
    /// is skipped before any dot is computed, so every column and line walked is within about a
    /// line of the rectangle. (`vicinity map --extent 1e-300` trapped converting a ring of 10^300
    /// columns to `Int`, and `--radius 1000000 --extent 1` walked a million columns off screen.)
    func dots(maxColumn: Int, maxLine: Int) -> Set<Dot> {
        guard radiusCells.isFinite, radiusCells >= 1, maxColumn >= 0, maxLine >= 0 else { return [] }
        // The farthest point of the rectangle from the centre, in cells; a line of slack for the
        // dots' rounding to the nearest line or column.
        let cornerCells =
            (pow2(Double(maxColumn) / Double(columnsPerCell)) + pow2(Double(maxLine) / Double(linesPerCell)))
            .squareRoot()
        guard radiusCells <= cornerCells + 1 else { return [] }
        let columnsPerLine = Double(columnsPerCell) / Double(linesPerCell)
        let radiusColumns = radiusCells * Double(columnsPerCell)
        let radiusLines = radiusCells * Double(linesPerCell)
        let diagonal = 0.5.squareRoot()
        var dots = Set<Dot>()
        func add(_ column: Int, _ line: Int) {
            guard abs(column) <= maxColumn, abs(line) <= maxLine else { return }
            for (east, south) in [(column, line), (-column, line), (column, -line), (-column, -line)] {
                dots.insert(Dot(column: east, line: south))
            }
        }
        // Across: every second column out to one step past 45°, so that the down part starts next
        // to it, and never a step that drops more than a line (a gap the down part fills).
        var acrossLines: [Int] = []
        while Double(2 * acrossLines.count) <= radiusColumns {
            let column = 2 * acrossLines.count
            let line = Int((radiusLines * radiusLines - pow2(Double(column) / columnsPerLine)).squareRoot().rounded())
            if let last = acrossLines.last, last - line > 1 { break }
            acrossLines.append(line)
            if Double(column) >= radiusColumns * diagonal { break }
        }
        // Near the top the circle drops less than a line per step, so an apex a line above its
        // neighbours is only rounding (a lone dot sticking out): it joins their line; likewise at
        // the sides. A ring under 2 lines tall can drop a whole line in one step: it keeps its apex.
        let flattens = radiusLines >= 2 && acrossLines.count > 1
        for (step, line) in acrossLines.enumerated() {
            add(2 * step, step == 0 && flattens ? acrossLines[1] : line)
        }
        // Down: every line the across part did not reach, so the two halves meet without a gap.
        let downColumns = (0..<max(0, acrossLines.last ?? 0)).map { line in
            Int((radiusColumns * radiusColumns - pow2(Double(line) * columnsPerLine)).squareRoot().rounded())
        }
        for (line, column) in downColumns.enumerated() {
            add(line == 0 && flattens && downColumns.count > 1 ? downColumns[1] : column, line)
        }
        return dots
    }

    private func pow2(_ value: Double) -> Double { value * value }
}
