/// An in-memory spatial index of points on the WGS84 ellipsoid, keyed by dense integer handles.
///
/// Points live in a fixed global grid (`GridLayout`). Each cell owns a contiguous block of one
/// arena of entries (latitude and longitude side by side, 16 bytes, plus a 4-byte handle), and
/// blocks are laid out in row order, so a query streams through memory. Each row keeps its cells
/// sorted by column (16 bytes each), so a query finds a row's cells with one binary search and
/// reads neighbouring cells' blocks as one run of the arena.
/// Insert, move and remove by handle are O(1) on average (plus a binary search in one row's
/// directory); a block that fills up moves to the end of the arena with twice the room, and the
/// arena is compacted when it grows past three times the live points.
///
/// Handles are small integers chosen by the caller (`Places` maps its string ids to them); memory
/// for the handle table grows with the largest handle, so keep them dense.
///
/// Queries (`within(radiusMeters:of:model:)`, `nearest`, `inBox`, `count`) return exactly what a
/// brute-force scan under the same distance model returns, everywhere on Earth: poles, ±180°, and
/// with the boundary inclusive (distance ≤ radius).
///
/// ```swift
/// var index = try GridIndex(cellSizeMeters: 250)
/// try index.insert(handle: 0, at: Coordinate(latitude: 41.087853, longitude: 29.014096))
/// let hits = try index.within(radiusMeters: 500, of: here, model: .geodesic)
/// ```
///
/// Mutation is not thread-safe; a value may be read from many threads at once.
public struct GridIndex: Sendable {
    /// The largest handle accepted.
    public static let maximumHandle = Int(Int32.max) - 1
    /// Marks a handle that is not in the index.
    static let absent = UInt32.max

    /// A stored position, degrees: latitude and longitude side by side, so that a scan reads one
    /// stream (`withPoints` lends them out).
    public struct Stored: Sendable {
        public var latitude: Double
        public var longitude: Double
    }

    /// A cell: its column in its row and its block of the arena.
    struct Cell {
        var column: Int32
        var count: UInt32
        var start: UInt32
        var capacity: UInt32
    }

    let layout: GridLayout
    /// The approximate cell side in meters this index was built with.
    public let cellSizeMeters: Double

    // The arena: one entry per slot. A cell owns slots start ..< start + capacity, of which the
    // first `count` are live.
    var stored: [Stored] = []
    var handles: [UInt32] = []
    /// Per row, its cells sorted by column.
    var rows = RowTable()
    /// Rows that have cells, ascending: a scan of every cell visits these, not every row.
    var occupiedRows: [Int32] = []
    /// Number of cells in all rows.
    var cellCount = 0
    /// Slot of each handle in the arena, or `absent`.
    var slotOfHandle: [UInt32] = []
    /// Arena slots in blocks that no cell owns any more.
    var staleSlots = 0

    /// Number of points in the index.
    public internal(set) var count = 0

    /// Creates an empty index.
    ///
    /// - Parameter cellSizeMeters: approximate cell side on the ground, 10...100,000 m. The default
    ///   250 m was chosen with `vicinity bench` for 500 m queries (see BENCHMARKS.md).
    public init(cellSizeMeters: Double = 250) throws(GeoError) {
        layout = try GridLayout(cellSizeMeters: cellSizeMeters)
        self.cellSizeMeters = cellSizeMeters
    }

    /// Whether a handle is in the index.
    public func contains(handle: UInt32) -> Bool {
        Int(handle) < slotOfHandle.count && slotOfHandle[Int(handle)] != GridIndex.absent
    }

    /// The coordinate stored for a handle, or nil.
    public func coordinate(of handle: UInt32) -> Coordinate? {
        guard contains(handle: handle) else { return nil }
        let slot = Int(slotOfHandle[Int(handle)])
        return Coordinate(unchecked: stored[slot].latitude, stored[slot].longitude)
    }

    /// Adds a point, or moves it if the handle is already present.
    ///
    /// - Parameters:
    ///   - handle: 0...`maximumHandle`.
    ///   - coordinate: where the point is.
    public mutating func insert(handle: UInt32, at coordinate: Coordinate) throws(GeoError) {
        guard Int(handle) <= GridIndex.maximumHandle else { throw .handleOutOfRange(Int(handle)) }
        if contains(handle: handle) {
            try move(handle: handle, to: coordinate)
            return
        }
        if Int(handle) >= slotOfHandle.count {
            let newCount = max(Int(handle) + 1, slotOfHandle.count + slotOfHandle.count / 2)
            slotOfHandle.append(contentsOf: repeatElement(GridIndex.absent, count: newCount - slotOfHandle.count))
        }
        append(handle: handle, coordinate: coordinate, to: location(creating: coordinate))
        count += 1
    }

    /// Adds many points at once. On an empty index each cell gets a block of exactly the right size,
    /// which is what makes the bulk-loaded footprint small; otherwise this inserts one by one. A
    /// handle given twice ends at its last position.
    public mutating func insert<S: Sequence>(contentsOf points: S) throws(GeoError)
    where S.Element == (handle: UInt32, coordinate: Coordinate) {
        guard count == 0, stored.isEmpty else {
            for point in points { try insert(handle: point.handle, at: point.coordinate) }
            return
        }
        let all = Array(points)
        var maxHandle = -1
        for point in all {
            guard Int(point.handle) <= GridIndex.maximumHandle else { throw .handleOutOfRange(Int(point.handle)) }
            maxHandle = max(maxHandle, Int(point.handle))
        }
        // Create every cell first (so positions in the rows stop moving), counting points per cell.
        for point in all {
            let cell = location(creating: point.coordinate)
            rows[cell.row][cell.position].capacity += 1
        }
        // Blocks in grid order: the cells of a row sit side by side, so a query's span of columns
        // is one stretch of memory that the hardware prefetcher streams.
        var next: UInt32 = 0
        for row in occupiedRows.map(Int.init) {
            for position in rows[row].indices {
                rows[row][position].start = next
                next += rows[row][position].capacity
            }
        }
        stored = [Stored](repeating: Stored(latitude: 0, longitude: 0), count: Int(next))
        handles = [UInt32](repeating: 0, count: Int(next))
        slotOfHandle = [UInt32](repeating: GridIndex.absent, count: maxHandle + 1)
        var repeated = [(handle: UInt32, coordinate: Coordinate)]()
        for point in all {
            if slotOfHandle[Int(point.handle)] != GridIndex.absent {
                repeated.append(point)
                continue
            }
            guard let cell = location(of: point.coordinate) else { preconditionFailure("cell created above") }
            let slot = Int(rows[cell.row][cell.position].start + rows[cell.row][cell.position].count)
            stored[slot] = Stored(latitude: point.coordinate.latitude, longitude: point.coordinate.longitude)
            handles[slot] = point.handle
            slotOfHandle[Int(point.handle)] = UInt32(slot)
            rows[cell.row][cell.position].count += 1
            count += 1
        }
        for point in repeated { try move(handle: point.handle, to: point.coordinate) }
    }

    /// Moves a point. Within the same cell this is an overwrite; otherwise remove and add.
    ///
    /// - Throws: `GeoError.unknownHandle` if the handle is not in the index.
    public mutating func move(handle: UInt32, to coordinate: Coordinate) throws(GeoError) {
        guard contains(handle: handle) else { throw .unknownHandle(handle) }
        let slot = Int(slotOfHandle[Int(handle)])
        let old = location(containingSlot: slot)
        let row = layout.row(latitude: coordinate.latitude)
        let column = layout.column(row: row, longitude: coordinate.longitude)
        if old.row == row && Int(rows[row][old.position].column) == column {
            stored[slot] = Stored(latitude: coordinate.latitude, longitude: coordinate.longitude)
            return
        }
        detach(handle: handle, slot: slot, from: old)
        append(handle: handle, coordinate: coordinate, to: location(creating: coordinate))
    }

    /// Removes a point.
    ///
    /// - Returns: whether the handle was present.
    @discardableResult
    public mutating func remove(handle: UInt32) -> Bool {
        guard contains(handle: handle) else { return false }
        let slot = Int(slotOfHandle[Int(handle)])
        detach(handle: handle, slot: slot, from: location(containingSlot: slot))
        count -= 1
        return true
    }

    /// Bytes held by the index's arrays (capacities, not counts), the row tables included.
    public var memoryFootprintBytes: Int {
        let arena = stored.capacity * MemoryLayout<Stored>.stride + handles.capacity * 4
        var rowTables = rows.tableBytes
        for row in occupiedRows {
            // Swift array header (32 bytes) plus elements.
            rowTables += 32 + rows[Int(row)].capacity * MemoryLayout<Cell>.stride
        }
        return arena + rowTables + occupiedRows.capacity * 4 + slotOfHandle.capacity * 4 + layout.memoryBytes
    }
}
