import Foundation

/// Circles kept so that the ones containing a point are found without looking at the others: the
/// spatial index of standing queries (watches), where `GridIndex` is the index of points.
///
/// Each circle is registered in the cells of one grid level that its cap may reach: the finest of
/// a few levels (cells of 200 m up to 100 km) where it covers at most 16 cells, each cell holding
/// a packed copy of what the test needs (48 bytes). A point is looked up in one cell per level and
/// the cell's entries are scanned in order, so `forEachContaining` costs a few hash lookups and a
/// sequential scan, whatever the number of circles elsewhere, and never a random access per
/// circle. Circles too large for the coarsest level (more
/// than a few hundred km) are kept in one list that every lookup visits. Correct at the poles and
/// across ±180° (the cover is the one `GridIndex` uses for radius queries).
public struct CapIndex: Sendable {
    private struct Level: Sendable {
        let layout: GridLayout
        var cells: [Int: [Disc]] = [:]
        var count = 0
    }

    /// What the test of a point needs of a circle, packed so that a lookup reads one cache line
    /// per candidate: the centre's Cartesian coordinates (meters on the ellipsoid, or on the unit
    /// sphere for the haversine model) and the squared-chord thresholds (scaled to the unit
    /// sphere likewise).
    private struct Disc: Sendable {
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var accept = -1.0
        var reject = -1.0
        var id: UInt32 = 0
        var spherical = false
    }

    /// The side of each level's cells, meters.
    static let levelSizes: [Double] = [200, 800, 3_200, 12_800, 51_200, 100_000]
    /// The most cells a circle is registered in.
    static let maximumCells = 16

    private var levels: [Level]
    /// By id: the circle, and the level it is registered in (-1: the wide list).
    private var circles: [Circle?] = []
    private var levelOf: [Int8] = []
    private var wide: [Disc] = []
    public private(set) var count = 0

    public init() {
        // The sizes are valid by construction.
        levels = Self.levelSizes.map { Level(layout: try! GridLayout(cellSizeMeters: $0)) }
    }

    /// The circle registered under `id`.
    public func circle(_ id: UInt32) -> Circle? { Int(id) < circles.count ? circles[Int(id)] : nil }

    /// Registers `circle` under `id`, replacing any circle already under it. Ids are small numbers
    /// (the index keeps a table as long as the largest).
    public mutating func insert(_ circle: Circle, id: UInt32) {
        remove(id)
        let slot = Int(id)
        if slot >= circles.count {
            circles.append(contentsOf: repeatElement(nil, count: slot + 1 - circles.count))
            levelOf.append(contentsOf: repeatElement(-1, count: slot + 1 - levelOf.count))
        }
        let center = EarthPoint(circle.center)
        let disc: Disc
        if let radius = circle.sphereRadius {
            let scale = 1 / (radius * radius)
            disc = Disc(
                x: center.unitX, y: center.unitY, z: center.unitZ, accept: circle.accept * scale,
                reject: circle.reject * scale, id: id, spherical: true)
        } else {
            disc = Disc(
                x: center.x, y: center.y, z: center.z, accept: circle.accept, reject: circle.reject, id: id,
                spherical: false)
        }
        circles[slot] = circle
        count += 1
        for level in levels.indices {
            guard
                let cover = levels[level].layout.capCover(
                    center: circle.center, angularRadius: circle.angularRadius, maximumCells: Self.maximumCells)
            else { continue }
            forEachCell(of: cover.spans) { key in levels[level].cells[key, default: []].append(disc) }
            levels[level].count += 1
            levelOf[slot] = Int8(level)
            return
        }
        wide.append(disc)
        levelOf[slot] = -1
    }

    /// Removes the circle under `id`, if there is one.
    public mutating func remove(_ id: UInt32) {
        let slot = Int(id)
        guard slot < circles.count, let circle = circles[slot] else { return }
        circles[slot] = nil
        count -= 1
        let level = Int(levelOf[slot])
        guard level >= 0 else {
            wide.removeAll { $0.id == id }
            return
        }
        guard
            let cover = levels[level].layout.capCover(
                center: circle.center, angularRadius: circle.angularRadius, maximumCells: Self.maximumCells)
        else { preconditionFailure("a registered circle has a cover") }
        forEachCell(of: cover.spans) { key in
            guard var ids = levels[level].cells[key], let offset = ids.firstIndex(where: { $0.id == id }) else {
                return
            }
            ids.swapAt(offset, ids.count - 1)
            ids.removeLast()
            levels[level].cells[key] = ids.isEmpty ? nil : ids
        }
        levels[level].count -= 1
    }

    /// Calls `body` with the id of every circle that contains `point` (distance ≤ radius under
    /// its model), each once: one cell per level is scanned, its circles tested by their packed
    /// chord thresholds, and the model's own distance is computed only in the thin band where they
    /// cannot tell.
    public func forEachContaining(_ point: Coordinate, _ body: (UInt32) -> Void) {
        let here = EarthPoint(point)
        func test(_ discs: [Disc]) {
            for disc in discs {
                let chord2: Double
                if disc.spherical {
                    let (dx, dy, dz) = (here.unitX - disc.x, here.unitY - disc.y, here.unitZ - disc.z)
                    chord2 = dx * dx + dy * dy + dz * dz
                } else {
                    let (dx, dy, dz) = (here.x - disc.x, here.y - disc.y, here.z - disc.z)
                    chord2 = dx * dx + dy * dy + dz * dz
                }
                if chord2 <= disc.accept {
                    body(disc.id)
                } else if chord2 <= disc.reject, let circle = circles[Int(disc.id)],
                    circle.exactDistance(to: point) <= circle.radiusMeters
                {
                    body(disc.id)
                }
            }
        }
        for level in levels where level.count > 0 {
            let row = level.layout.row(latitude: point.latitude)
            let column = level.layout.column(row: row, longitude: point.longitude)
            if let discs = level.cells[Self.key(row: row, column: column)] { test(discs) }
        }
        test(wide)
    }

    private func forEachCell(of spans: [GridLayout.ColumnSpan], _ body: (Int) -> Void) {
        for span in spans {
            for column in span.first...span.last { body(Self.key(row: span.row, column: column)) }
        }
    }

    @inline(__always)
    private static func key(row: Int, column: Int) -> Int { row << 32 | column }
}
