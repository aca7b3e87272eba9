/// Collects points for a new `GridIndex` in the arrays the index will keep, then sorts them into
/// their cells in place: a bulk load that never holds a second copy of the points.
///
/// `insert(contentsOf:)` takes the points as a sequence it copies first; a loader that reads
/// millions of points from a database appends them here instead, and `build(into:)`
/// hands the same arrays to the index.
///
/// ```swift
/// var builder = GridIndexBuilder(reservingCapacity: rows)
/// try builder.append(handle: 0, at: coordinate)
/// let index = builder.build(into: try GridIndex(cellSizeMeters: 250))
/// ```
public struct GridIndexBuilder: Sendable {
    var stored: [GridIndex.Stored] = []
    var handles: [UInt32] = []
    var maxHandle = -1

    /// - Parameter capacity: the number of points expected (room for them is reserved at once).
    public init(reservingCapacity capacity: Int = 0) {
        stored.reserveCapacity(capacity)
        handles.reserveCapacity(capacity)
    }

    /// Number of points appended.
    public var count: Int { handles.count }

    /// Appends a point. Each handle may be appended once.
    ///
    /// - Parameter handle: 0...`GridIndex.maximumHandle`.
    /// - Throws: `GeoError.handleOutOfRange`.
    public mutating func append(handle: UInt32, at coordinate: Coordinate) throws(GeoError) {
        guard Int(handle) <= GridIndex.maximumHandle else { throw .handleOutOfRange(Int(handle)) }
        stored.append(GridIndex.Stored(latitude: coordinate.latitude, longitude: coordinate.longitude))
        handles.append(handle)
        maxHandle = max(maxHandle, Int(handle))
    }

    /// The index holding the points appended.
    ///
    /// - Parameter index: an empty index whose layout to use.
    /// - Precondition: `index` is empty and no handle was appended twice.
    public consuming func build(into index: GridIndex) -> GridIndex {
        var index = index
        precondition(index.count == 0 && index.stored.isEmpty, "GridIndexBuilder builds into an empty index")
        let count = handles.count
        // Cells first (so positions in the rows stop moving), counting the points of each.
        for slot in 0..<count {
            let point = Coordinate(unchecked: stored[slot].latitude, stored[slot].longitude)
            let cell = index.location(creating: point)
            index.rows[cell.row][cell.position].capacity += 1
        }
        // Blocks in grid order, as `insert(contentsOf:)` lays them out.
        var next: UInt32 = 0
        for row in index.occupiedRows.map(Int.init) {
            for position in index.rows[row].indices {
                index.rows[row][position].start = next
                next += index.rows[row][position].capacity
            }
        }
        // In place, cell by cell: the entry at a cell's next free slot either belongs there or is
        // swapped to the next free slot of its own cell, where it stays.
        for row in index.occupiedRows.map(Int.init) {
            for position in index.rows[row].indices {
                let start = Int(index.rows[row][position].start)
                let capacity = index.rows[row][position].capacity
                while index.rows[row][position].count < capacity {
                    let slot = start + Int(index.rows[row][position].count)
                    let point = Coordinate(unchecked: stored[slot].latitude, stored[slot].longitude)
                    guard let home = index.location(of: point) else { preconditionFailure("cell created above") }
                    if home.row == row && home.position == position {
                        index.rows[row][position].count += 1
                    } else {
                        let target =
                            Int(index.rows[home.row][home.position].start + index.rows[home.row][home.position].count)
                        stored.swapAt(slot, target)
                        handles.swapAt(slot, target)
                        index.rows[home.row][home.position].count += 1
                    }
                }
            }
        }
        var slotOfHandle = [UInt32](repeating: GridIndex.absent, count: maxHandle + 1)
        for slot in 0..<count {
            precondition(slotOfHandle[Int(handles[slot])] == GridIndex.absent, "handle \(handles[slot]) appended twice")
            slotOfHandle[Int(handles[slot])] = UInt32(slot)
        }
        index.stored = stored
        index.handles = handles
        index.slotOfHandle = slotOfHandle
        index.count = count
        return index
    }
}
