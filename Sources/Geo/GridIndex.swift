/// An in-memory spatial index of points on the WGS84 ellipsoid, keyed by dense integer handles.
///
/// Points live in a fixed global grid (`GridLayout`). Each cell owns a contiguous block of one
/// arena of entries (latitude, longitude, handle: 20 bytes), so a query scans memory in order.
/// Insert, move and remove by handle are O(1) on average; a block that fills up moves to the end
/// of the arena with twice the room, and the arena is compacted when half of it is stale.
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
/// Not thread-safe to mutate; a value may be read from many threads at once.
public struct GridIndex: Sendable {
    /// The largest handle accepted.
    public static let maximumHandle = Int(Int32.max) - 1
    /// Marks a handle that is not in the index.
    static let absent = UInt32.max

    let layout: GridLayout
    /// The approximate cell side in meters this index was built with.
    public let cellSizeMeters: Double

    // The arena: parallel arrays, one entry per slot. A cell owns slots
    // cellStart[c] ..< cellStart[c] + cellCapacity[c], of which the first cellCount[c] are live.
    var latitudes: [Double] = []
    var longitudes: [Double] = []
    var handles: [UInt32] = []

    // Cells.
    var cellIndexByKey: [Int: Int32] = [:]
    var cellKeys: [Int] = []
    var cellStart: [UInt32] = []
    var cellCount: [UInt32] = []
    var cellCapacity: [UInt32] = []

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
    }

    /// Whether a handle is in the index.
    public func contains(handle: UInt32) -> Bool {
        Int(handle) < slotOfHandle.count && slotOfHandle[Int(handle)] != GridIndex.absent
    }

    /// The coordinate stored for a handle, or nil.
    public func coordinate(of handle: UInt32) -> Coordinate? {
        guard contains(handle: handle) else { return nil }
        let slot = Int(slotOfHandle[Int(handle)])
        return Coordinate(unchecked: latitudes[slot], longitudes[slot])
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
        let cell = cellIndex(forKey: layout.key(latitude: coordinate.latitude, longitude: coordinate.longitude))
        append(handle: handle, coordinate: coordinate, toCell: cell)
        count += 1
    }

    /// Adds many points at once. On an empty index each cell gets a block of exactly the right size,
    /// which is what makes the bulk-loaded footprint small; otherwise this inserts one by one.
    public mutating func insert<S: Sequence>(contentsOf points: S) throws(GeoError)
    where S.Element == (handle: UInt32, coordinate: Coordinate) {
        guard count == 0, latitudes.isEmpty else {
            for point in points { try insert(handle: point.handle, at: point.coordinate) }
            return
        }
        let all = Array(points)
        var maxHandle = -1
        var keys = [Int]()
        keys.reserveCapacity(all.count)
        for point in all {
            guard Int(point.handle) <= GridIndex.maximumHandle else { throw .handleOutOfRange(Int(point.handle)) }
            maxHandle = max(maxHandle, Int(point.handle))
            keys.append(layout.key(latitude: point.coordinate.latitude, longitude: point.coordinate.longitude))
        }
        // Count per cell, then give each cell an exact block.
        var cellOfPoint = [Int32]()
        cellOfPoint.reserveCapacity(all.count)
        var seen = [UInt32](repeating: 0, count: maxHandle + 1)
        for key in keys {
            let cell = cellIndex(forKey: key)
            cellOfPoint.append(Int32(cell))
            cellCapacity[cell] += 1
        }
        var next: UInt32 = 0
        for cell in cellKeys.indices {
            cellStart[cell] = next
            next += cellCapacity[cell]
        }
        latitudes = [Double](repeating: 0, count: Int(next))
        longitudes = [Double](repeating: 0, count: Int(next))
        handles = [UInt32](repeating: 0, count: Int(next))
        slotOfHandle = [UInt32](repeating: GridIndex.absent, count: maxHandle + 1)
        var duplicates = [(handle: UInt32, coordinate: Coordinate)]()
        for (offset, point) in all.enumerated() {
            let handle = Int(point.handle)
            if seen[handle] != 0 {
                duplicates.append(point)  // a later position for the same handle wins, as in insert
                continue
            }
            seen[handle] = 1
            let cell = Int(cellOfPoint[offset])
            let slot = Int(cellStart[cell] + cellCount[cell])
            latitudes[slot] = point.coordinate.latitude
            longitudes[slot] = point.coordinate.longitude
            handles[slot] = point.handle
            slotOfHandle[handle] = UInt32(slot)
            cellCount[cell] += 1
            count += 1
        }
        for point in duplicates { try move(handle: point.handle, to: point.coordinate) }
    }

    /// Moves a point. Within the same cell this is an overwrite; otherwise remove and add.
    ///
    /// - Throws: `GeoError.unknownHandle` if the handle is not in the index.
    public mutating func move(handle: UInt32, to coordinate: Coordinate) throws(GeoError) {
        guard contains(handle: handle) else { throw .unknownHandle(handle) }
        let slot = Int(slotOfHandle[Int(handle)])
        let oldKey = layout.key(latitude: latitudes[slot], longitude: longitudes[slot])
        let newKey = layout.key(latitude: coordinate.latitude, longitude: coordinate.longitude)
        if oldKey == newKey {
            latitudes[slot] = coordinate.latitude
            longitudes[slot] = coordinate.longitude
            return
        }
        detach(handle: handle, slot: slot, cell: Int(cellIndexByKey[oldKey]!))
        append(handle: handle, coordinate: coordinate, toCell: cellIndex(forKey: newKey))
    }

    /// Removes a point.
    ///
    /// - Returns: whether the handle was present.
    @discardableResult
    public mutating func remove(handle: UInt32) -> Bool {
        guard contains(handle: handle) else { return false }
        let slot = Int(slotOfHandle[Int(handle)])
        let key = layout.key(latitude: latitudes[slot], longitude: longitudes[slot])
        detach(handle: handle, slot: slot, cell: Int(cellIndexByKey[key]!))
        count -= 1
        return true
    }

    /// Bytes held by the index's arrays (capacities, not counts), the cell table included. The
    /// dictionary is estimated as its bucket count times key + value + one byte of metadata.
    public var memoryFootprintBytes: Int {
        let arena = latitudes.capacity * 8 + longitudes.capacity * 8 + handles.capacity * 4
        let cells =
            cellKeys.capacity * 8 + cellStart.capacity * 4 + cellCount.capacity * 4 + cellCapacity.capacity * 4
        let dictionary = cellIndexByKey.capacity * 4 / 3 * (8 + 4 + 1)
        return arena + cells + dictionary + slotOfHandle.capacity * 4 + layout.memoryBytes
    }

    // MARK: - Storage internals

    private mutating func cellIndex(forKey key: Int) -> Int {
        if let cell = cellIndexByKey[key] { return Int(cell) }
        let cell = cellKeys.count
        cellIndexByKey[key] = Int32(cell)
        cellKeys.append(key)
        cellStart.append(UInt32(latitudes.count))
        cellCount.append(0)
        cellCapacity.append(0)
        return cell
    }

    private mutating func append(handle: UInt32, coordinate: Coordinate, toCell cell: Int) {
        if cellCount[cell] == cellCapacity[cell] { grow(cell: cell) }
        let slot = Int(cellStart[cell] + cellCount[cell])
        latitudes[slot] = coordinate.latitude
        longitudes[slot] = coordinate.longitude
        handles[slot] = handle
        slotOfHandle[Int(handle)] = UInt32(slot)
        cellCount[cell] += 1
    }

    /// Takes a handle out of its cell by moving the cell's last entry into its slot.
    private mutating func detach(handle: UInt32, slot: Int, cell: Int) {
        let last = Int(cellStart[cell] + cellCount[cell]) - 1
        if slot != last {
            latitudes[slot] = latitudes[last]
            longitudes[slot] = longitudes[last]
            handles[slot] = handles[last]
            slotOfHandle[Int(handles[slot])] = UInt32(slot)
        }
        cellCount[cell] -= 1
        slotOfHandle[Int(handle)] = GridIndex.absent
    }

    /// Moves a full cell's block to the end of the arena with twice the room.
    private mutating func grow(cell: Int) {
        if staleSlots > 4096, staleSlots * 2 > latitudes.count { compact() }
        let oldStart = Int(cellStart[cell])
        let live = Int(cellCount[cell])
        let newCapacity = max(4, Int(cellCapacity[cell]) * 2)
        let newStart = latitudes.count
        guard newStart + newCapacity < Int(UInt32.max) else { fatalError("GridIndex arena exceeds 2^32 slots") }
        latitudes.append(contentsOf: repeatElement(0, count: newCapacity))
        longitudes.append(contentsOf: repeatElement(0, count: newCapacity))
        handles.append(contentsOf: repeatElement(0, count: newCapacity))
        for offset in 0..<live {
            latitudes[newStart + offset] = latitudes[oldStart + offset]
            longitudes[newStart + offset] = longitudes[oldStart + offset]
            handles[newStart + offset] = handles[oldStart + offset]
            slotOfHandle[Int(handles[newStart + offset])] = UInt32(newStart + offset)
        }
        staleSlots += Int(cellCapacity[cell])
        cellStart[cell] = UInt32(newStart)
        cellCapacity[cell] = UInt32(newCapacity)
    }

    /// Rewrites the arena without stale blocks, keeping a quarter of spare room in each cell.
    mutating func compact() {
        var newLatitudes = [Double]()
        var newLongitudes = [Double]()
        var newHandles = [UInt32]()
        let total = count + count / 4 + cellKeys.count
        newLatitudes.reserveCapacity(total)
        newLongitudes.reserveCapacity(total)
        newHandles.reserveCapacity(total)
        for cell in cellKeys.indices {
            let start = Int(cellStart[cell])
            let live = Int(cellCount[cell])
            let capacity = live == 0 ? 0 : live + live / 4 + 1
            let newStart = newLatitudes.count
            for offset in 0..<live {
                newLatitudes.append(latitudes[start + offset])
                newLongitudes.append(longitudes[start + offset])
                newHandles.append(handles[start + offset])
                slotOfHandle[Int(handles[start + offset])] = UInt32(newStart + offset)
            }
            newLatitudes.append(contentsOf: repeatElement(0, count: capacity - live))
            newLongitudes.append(contentsOf: repeatElement(0, count: capacity - live))
            newHandles.append(contentsOf: repeatElement(0, count: capacity - live))
            cellStart[cell] = UInt32(newStart)
            cellCapacity[cell] = UInt32(capacity)
        }
        latitudes = newLatitudes
        longitudes = newLongitudes
        handles = newHandles
        staleSlots = 0
    }
}
