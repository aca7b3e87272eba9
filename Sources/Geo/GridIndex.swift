/// An in-memory spatial index of points on the WGS84 ellipsoid, keyed by dense integer handles.
///
/// Points live in a fixed global grid (`GridLayout`). Each cell owns a contiguous block of one
/// arena of entries (latitude and longitude side by side, 16 bytes, plus a 4-byte handle), and
/// blocks are laid out in row order, so a query streams through memory. Each row keeps a sorted
/// directory of its non-empty columns, so a query finds a row's cells with one binary search.
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

    /// A stored position: latitude and longitude side by side, so that a scan reads one stream.
    struct Stored {
        var latitude: Double
        var longitude: Double
    }

    /// A cell: its block of the arena and where it sits in the grid.
    struct Cell {
        var start: UInt32
        var count: UInt32
        var capacity: UInt32
        var row: Int32
        var column: Int32
    }

    /// One entry of a row's directory.
    struct ColumnEntry {
        var column: Int32
        var cell: Int32
    }

    let layout: GridLayout
    /// The approximate cell side in meters this index was built with.
    public let cellSizeMeters: Double

    // The arena: one entry per slot. A cell owns slots start ..< start + capacity, of which the
    // first `count` are live.
    var stored: [Stored] = []
    var handles: [UInt32] = []
    var cells: [Cell] = []
    /// Per row, its cells sorted by column.
    var rowDirectory: [[ColumnEntry]]
    /// Slot of each handle in the arena, or `absent`.
    var slotOfHandle: [UInt32] = []
    /// Arena slots in blocks that no cell owns any more.
    var staleSlots = 0

    /// Number of points in the index.
    public private(set) var count = 0

    /// Creates an empty index.
    ///
    /// - Parameter cellSizeMeters: approximate cell side on the ground, 10...100,000 m. The default
    ///   250 m was chosen with `vicinity bench` for 500 m queries (see BENCHMARKS.md).
    public init(cellSizeMeters: Double = 250) throws(GeoError) {
        layout = try GridLayout(cellSizeMeters: cellSizeMeters)
        self.cellSizeMeters = cellSizeMeters
        rowDirectory = Array(repeating: [], count: layout.rowCount)
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
        append(handle: handle, coordinate: coordinate, toCell: cellIndex(for: coordinate))
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
        // Count per cell, then give each cell an exact block.
        var cellOfPoint = [Int32]()
        cellOfPoint.reserveCapacity(all.count)
        for point in all {
            let cell = cellIndex(for: point.coordinate)
            cellOfPoint.append(Int32(cell))
            cells[cell].capacity += 1
        }
        // Blocks in row order: the cells of a row sit side by side, so a query's span of columns
        // is one stretch of memory that the hardware prefetcher streams.
        var next: UInt32 = 0
        for cell in cellsInGridOrder() {
            cells[cell].start = next
            next += cells[cell].capacity
        }
        stored = [Stored](repeating: Stored(latitude: 0, longitude: 0), count: Int(next))
        handles = [UInt32](repeating: 0, count: Int(next))
        slotOfHandle = [UInt32](repeating: GridIndex.absent, count: maxHandle + 1)
        var repeated = [(handle: UInt32, coordinate: Coordinate)]()
        for (offset, point) in all.enumerated() {
            if slotOfHandle[Int(point.handle)] != GridIndex.absent {
                repeated.append(point)
                continue
            }
            let cell = Int(cellOfPoint[offset])
            let slot = Int(cells[cell].start + cells[cell].count)
            stored[slot] = Stored(latitude: point.coordinate.latitude, longitude: point.coordinate.longitude)
            handles[slot] = point.handle
            slotOfHandle[Int(point.handle)] = UInt32(slot)
            cells[cell].count += 1
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
        let old = cellIndex(containingSlot: slot)
        let row = layout.row(latitude: coordinate.latitude)
        let column = layout.column(row: row, longitude: coordinate.longitude)
        if cells[old].row == Int32(row) && cells[old].column == Int32(column) {
            stored[slot] = Stored(latitude: coordinate.latitude, longitude: coordinate.longitude)
            return
        }
        detach(handle: handle, slot: slot, cell: old)
        append(handle: handle, coordinate: coordinate, toCell: cellIndex(for: coordinate))
    }

    /// Removes a point.
    ///
    /// - Returns: whether the handle was present.
    @discardableResult
    public mutating func remove(handle: UInt32) -> Bool {
        guard contains(handle: handle) else { return false }
        let slot = Int(slotOfHandle[Int(handle)])
        detach(handle: handle, slot: slot, cell: cellIndex(containingSlot: slot))
        count -= 1
        return true
    }

    /// Bytes held by the index's arrays (capacities, not counts), directories included.
    public var memoryFootprintBytes: Int {
        let arena = stored.capacity * MemoryLayout<Stored>.stride + handles.capacity * 4
        let cellTable = cells.capacity * MemoryLayout<Cell>.stride
        var directory = rowDirectory.capacity * MemoryLayout<[ColumnEntry]>.stride
        for row in rowDirectory where row.capacity > 0 {
            // Swift array header (32 bytes) plus elements.
            directory += 32 + row.capacity * MemoryLayout<ColumnEntry>.stride
        }
        return arena + cellTable + directory + slotOfHandle.capacity * 4 + layout.memoryBytes
    }

    // MARK: - Storage internals

    /// Position of a column in a row's directory, or where it would be inserted.
    @inline(__always)
    func directoryPosition(row: Int, column: Int) -> Int {
        let entries = rowDirectory[row]
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Int(entries[middle].column) < column { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The cell holding a live slot, found from the coordinates stored in it.
    private func cellIndex(containingSlot slot: Int) -> Int {
        let row = layout.row(latitude: stored[slot].latitude)
        let column = layout.column(row: row, longitude: stored[slot].longitude)
        let position = directoryPosition(row: row, column: column)
        return Int(rowDirectory[row][position].cell)
    }

    /// The cell for a coordinate, created (empty, with no block) if missing.
    private mutating func cellIndex(for coordinate: Coordinate) -> Int {
        let row = layout.row(latitude: coordinate.latitude)
        let column = layout.column(row: row, longitude: coordinate.longitude)
        let position = directoryPosition(row: row, column: column)
        if position < rowDirectory[row].count, Int(rowDirectory[row][position].column) == column {
            return Int(rowDirectory[row][position].cell)
        }
        let cell = cells.count
        cells.append(Cell(start: UInt32(stored.count), count: 0, capacity: 0, row: Int32(row), column: Int32(column)))
        rowDirectory[row].insert(ColumnEntry(column: Int32(column), cell: Int32(cell)), at: position)
        return cell
    }

    /// Cell indices sorted by (row, column).
    private func cellsInGridOrder() -> [Int] {
        rowDirectory.flatMap { $0.map { Int($0.cell) } }
    }

    private mutating func append(handle: UInt32, coordinate: Coordinate, toCell cell: Int) {
        if cells[cell].count == cells[cell].capacity { grow(cell: cell) }
        let slot = Int(cells[cell].start + cells[cell].count)
        stored[slot] = Stored(latitude: coordinate.latitude, longitude: coordinate.longitude)
        handles[slot] = handle
        slotOfHandle[Int(handle)] = UInt32(slot)
        cells[cell].count += 1
    }

    /// Takes a handle out of its cell by moving the cell's last entry into its slot.
    private mutating func detach(handle: UInt32, slot: Int, cell: Int) {
        let last = Int(cells[cell].start + cells[cell].count) - 1
        if slot != last {
            stored[slot] = stored[last]
            handles[slot] = handles[last]
            slotOfHandle[Int(handles[slot])] = UInt32(slot)
        }
        cells[cell].count -= 1
        slotOfHandle[Int(handle)] = GridIndex.absent
    }

    /// Moves a full cell's block to the end of the arena with twice the room.
    private mutating func grow(cell: Int) {
        // Stale blocks and the spare room of emptied cells both count: once the arena is three
        // times the live points, rewrite it (regression: churn between cells never compacted).
        if stored.count > 3 * count + 4096 { compact() }
        let oldStart = Int(cells[cell].start)
        let live = Int(cells[cell].count)
        let newCapacity = max(4, Int(cells[cell].capacity) * 2)
        let newStart = stored.count
        precondition(newStart + newCapacity < Int(UInt32.max), "GridIndex arena exceeds 2^32 slots")
        stored.append(contentsOf: repeatElement(Stored(latitude: 0, longitude: 0), count: newCapacity))
        handles.append(contentsOf: repeatElement(0, count: newCapacity))
        for offset in 0..<live {
            stored[newStart + offset] = stored[oldStart + offset]
            handles[newStart + offset] = handles[oldStart + offset]
            slotOfHandle[Int(handles[newStart + offset])] = UInt32(newStart + offset)
        }
        staleSlots += Int(cells[cell].capacity)
        cells[cell].start = UInt32(newStart)
        cells[cell].capacity = UInt32(newCapacity)
    }

    /// Rewrites the arena without stale blocks, in grid order, keeping a quarter of spare room in
    /// each cell.
    mutating func compact() {
        var newStored = [Stored]()
        var newHandles = [UInt32]()
        let total = count + count / 4 + cells.count
        newStored.reserveCapacity(total)
        newHandles.reserveCapacity(total)
        for cell in cellsInGridOrder() {
            let start = Int(cells[cell].start)
            let live = Int(cells[cell].count)
            let capacity = live == 0 ? 0 : live + live / 4 + 1
            let newStart = newStored.count
            for offset in 0..<live {
                newStored.append(stored[start + offset])
                newHandles.append(handles[start + offset])
                slotOfHandle[Int(handles[start + offset])] = UInt32(newStart + offset)
            }
            newStored.append(contentsOf: repeatElement(Stored(latitude: 0, longitude: 0), count: capacity - live))
            newHandles.append(contentsOf: repeatElement(0, count: capacity - live))
            cells[cell].start = UInt32(newStart)
            cells[cell].capacity = UInt32(capacity)
        }
        stored = newStored
        handles = newHandles
        staleSlots = 0
    }
}
