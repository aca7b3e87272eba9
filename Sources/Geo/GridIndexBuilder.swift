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
    /// The entries are put in grid order in place, in two steps that each touch little memory at
    /// a time: by row first (one write position per occupied row), then each row's run by cell
    /// (within a run small enough for the cache), so the cost per point does not grow with the
    /// number of points.
    ///
    /// - Parameter index: an empty index whose layout to use.
    /// - Precondition: `index` is empty and no handle was appended twice.
    public consuming func build(into index: GridIndex) -> GridIndex {
        var index = index
        precondition(index.count == 0 && index.stored.isEmpty, "GridIndexBuilder builds into an empty index")
        let count = handles.count
        let layout = index.layout
        // Moved out (not copied), so that the index takes the same arrays.
        var stored: [GridIndex.Stored] = []
        var handles: [UInt32] = []
        swap(&stored, &self.stored)
        swap(&handles, &self.handles)
        stored.withUnsafeMutableBufferPointer { stored in
            handles.withUnsafeMutableBufferPointer { handles in
                var columns: [Int32] = []
                for run in Self.sortByRow(stored, handles, layout: layout) {
                    let cells = Self.sortByCell(run, stored, handles, layout: layout, columns: &columns)
                    index.rows[run.row] = cells
                    index.occupiedRows.append(Int32(run.row))
                    index.cellCount += cells.count
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
