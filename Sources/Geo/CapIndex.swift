import Foundation

/// Circles kept so that the ones containing a point are found without looking at the others: the
/// spatial index of standing queries (watches), where `GridIndex` is the index of points.
///
/// Each circle is registered in the cells of one grid level that its cap may reach: the finest of
/// a few levels (cells of 200 m up to 100 km) where it covers at most 64 cells. A point is looked up
/// in one cell per level, so `forEachCandidate` costs a few hash lookups plus the circles of those
/// cells, whatever the number of circles elsewhere. Circles too large for the coarsest level (more
/// than a few hundred km) are kept in one list that every lookup visits. Correct at the poles and
/// across ±180° (the cover is the one `GridIndex` uses for radius queries).
public struct CapIndex: Sendable {
    private struct Level: Sendable {
        let layout: GridLayout
        var cells: [Int: [UInt32]] = [:]
        var count = 0
    }

    private struct Entry: Sendable {
        var circle: Circle
        /// The level it is registered in, or -1 for the list of wide circles.
        var level: Int
    }

    /// The side of each level's cells, meters.
    static let levelSizes: [Double] = [200, 800, 3_200, 12_800, 51_200, 100_000]
    /// The most cells a circle is registered in.
    static let maximumCells = 64

    private var levels: [Level]
    private var entries: [UInt32: Entry] = [:]
    private var wide: [UInt32] = []

    public init() {
        // The sizes are valid by construction.
        levels = Self.levelSizes.map { Level(layout: try! GridLayout(cellSizeMeters: $0)) }
    }

    /// The number of circles.
    public var count: Int { entries.count }

    /// The circle registered under `id`.
    public func circle(_ id: UInt32) -> Circle? { entries[id]?.circle }

    /// Registers `circle` under `id`, replacing any circle already under it.
    public mutating func insert(_ circle: Circle, id: UInt32) {
        remove(id)
        for level in levels.indices {
            guard
                let cover = levels[level].layout.capCover(
                    center: circle.center, angularRadius: circle.angularRadius, maximumCells: Self.maximumCells)
            else { continue }
            forEachCell(of: cover.spans) { key in levels[level].cells[key, default: []].append(id) }
            levels[level].count += 1
            entries[id] = Entry(circle: circle, level: level)
            return
        }
        wide.append(id)
        entries[id] = Entry(circle: circle, level: -1)
    }

    /// Removes the circle under `id`, if there is one.
    public mutating func remove(_ id: UInt32) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        guard entry.level >= 0 else {
            wide.removeAll { $0 == id }
            return
        }
        let level = entry.level
        guard
            let cover = levels[level].layout.capCover(
                center: entry.circle.center, angularRadius: entry.circle.angularRadius,
                maximumCells: Self.maximumCells)
        else { preconditionFailure("a registered circle has a cover") }
        forEachCell(of: cover.spans) { key in
            guard var ids = levels[level].cells[key], let offset = ids.firstIndex(of: id) else { return }
            ids.swapAt(offset, ids.count - 1)
            ids.removeLast()
            levels[level].cells[key] = ids.isEmpty ? nil : ids
        }
        levels[level].count -= 1
    }

    /// Calls `body` with the id of every circle that may contain `point`: all that do, and some
    /// near ones that do not (check with `Circle.contains`).
    public func forEachCandidate(near point: Coordinate, _ body: (UInt32) -> Void) {
        for level in levels where level.count > 0 {
            let row = level.layout.row(latitude: point.latitude)
            let column = level.layout.column(row: row, longitude: point.longitude)
            guard let ids = level.cells[Self.key(row: row, column: column)] else { continue }
            for id in ids { body(id) }
        }
        for id in wide { body(id) }
    }

    /// Calls `body` with the id of every circle that contains `point`.
    public func forEachContaining(_ point: Coordinate, _ body: (UInt32) -> Void) {
        forEachCandidate(near: point) { id in
            if let entry = entries[id], entry.circle.contains(point) { body(id) }
        }
    }

    private func forEachCell(of spans: [GridLayout.ColumnSpan], _ body: (Int) -> Void) {
        for span in spans {
            for column in span.first...span.last { body(Self.key(row: span.row, column: column)) }
        }
    }

    @inline(__always)
    private static func key(row: Int, column: Int) -> Int { row << 32 | column }
}
