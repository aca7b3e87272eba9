/// How `GridIndex` keeps its cells and arena: finding, creating, growing and compacting blocks.
extension GridIndex {
    /// The rows that have cells, each with its cells sorted by column. Sparse, in chunks of 256
    /// rows allocated on first use, so that an index (one per kind of place) costs a few KB, not
    /// 8 bytes for each of the ~80,000 rows of a 250 m grid (regression: 630 KB per kind, 3 GB
    /// for a file with 5,000 kinds), and a lookup is two array reads, no hashing.
    struct RowTable {
        private static let chunkShift = 8
        private static let chunkMask = (1 << chunkShift) - 1
        private var chunks: [[[Cell]]] = []

        /// A row's cells, empty for a row without any.
        subscript(row: Int) -> [Cell] {
            get {
                let chunk = row >> RowTable.chunkShift
                guard chunk < chunks.count, !chunks[chunk].isEmpty else { return [] }
                return chunks[chunk][row & RowTable.chunkMask]
            }
            _modify {
                let chunk = row >> RowTable.chunkShift
                if chunk >= chunks.count {
                    chunks.append(contentsOf: repeatElement([], count: chunk + 1 - chunks.count))
                }
                if chunks[chunk].isEmpty { chunks[chunk] = Array(repeating: [], count: 1 << RowTable.chunkShift) }
                yield &chunks[chunk][row & RowTable.chunkMask]
            }
        }

        /// Bytes held by the chunk tables (not the cells).
        var tableBytes: Int {
            chunks.capacity * 8 + chunks.reduce(0) { $0 + ($1.isEmpty ? 0 : 32 + $1.capacity * 8) }
        }
    }

    /// Where a cell is: its row and its position in that row's table.
    struct CellLocation {
        var row: Int
        var position: Int
    }

    /// Position of a column in a row's table, or where it would be inserted.
    ///
    /// Rows in populated areas are nearly dense in columns, so the position is first guessed by
    /// interpolation between the row's first and last column (three independent loads instead of
    /// a binary search's chain of dependent cache misses), then settled by a short walk, or by
    /// binary search when the guess is far off.
    @inline(__always)
    func position(row: Int, column: Int) -> Int {
        rows[row].withUnsafeBufferPointer { cells in
            let count = cells.count
            guard count > 0 else { return 0 }
            let first = Int(cells[0].column)
            let last = Int(cells[count - 1].column)
            if column <= first { return 0 }
            if column > last { return count }
            // first < column ≤ last, so count ≥ 2 and the answer is in 1...count-1.
            var guess = 1 + Int(Double(column - first) / Double(last - first) * Double(count - 2))
            guess = min(count - 1, max(1, guess))
            var steps = 0
            while steps < 4 {
                if Int(cells[guess].column) < column {
                    guess += 1
                } else if Int(cells[guess - 1].column) >= column {
                    guess -= 1
                } else {
                    return guess
                }
                steps += 1
            }
            var low = 1
            var high = count - 1
            while low < high {
                let middle = (low + high) / 2
                if Int(cells[middle].column) < column { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The cell for a coordinate, or nil if there is none.
    func location(of coordinate: Coordinate) -> CellLocation? {
        let row = layout.row(latitude: coordinate.latitude)
        let column = layout.column(row: row, longitude: coordinate.longitude)
        let position = position(row: row, column: column)
        guard position < rows[row].count, Int(rows[row][position].column) == column else { return nil }
        return CellLocation(row: row, position: position)
    }

    /// The cell holding a live slot, found from the coordinates stored in it.
    func location(containingSlot slot: Int) -> CellLocation {
        let point = Coordinate(unchecked: stored[slot].latitude, stored[slot].longitude)
        guard let cell = location(of: point) else { preconditionFailure("slot \(slot) is not in a cell") }
        return cell
    }

    /// The cell for a coordinate, created (empty, with no block) if missing.
    mutating func location(creating coordinate: Coordinate) -> CellLocation {
        let row = layout.row(latitude: coordinate.latitude)
        let column = layout.column(row: row, longitude: coordinate.longitude)
        let position = position(row: row, column: column)
        if position == rows[row].count || Int(rows[row][position].column) != column {
            if rows[row].isEmpty {
                var low = 0
                var high = occupiedRows.count
                while low < high {
                    let middle = (low + high) / 2
                    if Int(occupiedRows[middle]) < row { low = middle + 1 } else { high = middle }
                }
                occupiedRows.insert(Int32(row), at: low)
            }
            let cell = Cell(column: Int32(column), count: 0, start: UInt32(stored.count), capacity: 0)
            rows[row].insert(cell, at: position)
            cellCount += 1
        }
        return CellLocation(row: row, position: position)
    }

    mutating func append(handle: UInt32, coordinate: Coordinate, to cell: CellLocation) {
        if rows[cell.row][cell.position].count == rows[cell.row][cell.position].capacity { grow(cell) }
        let slot = Int(rows[cell.row][cell.position].start + rows[cell.row][cell.position].count)
        stored[slot] = Stored(latitude: coordinate.latitude, longitude: coordinate.longitude)
        handles[slot] = handle
        slotOfHandle[Int(handle)] = UInt32(slot)
        rows[cell.row][cell.position].count += 1
    }

    /// Takes a handle out of its cell by moving the cell's last entry into its slot.
    mutating func detach(handle: UInt32, slot: Int, from cell: CellLocation) {
        let last = Int(rows[cell.row][cell.position].start + rows[cell.row][cell.position].count) - 1
        if slot != last {
            stored[slot] = stored[last]
            handles[slot] = handles[last]
            slotOfHandle[Int(handles[slot])] = UInt32(slot)
        }
        rows[cell.row][cell.position].count -= 1
        slotOfHandle[Int(handle)] = GridIndex.absent
    }

    /// Moves a full cell's block to the end of the arena with twice the room.
    mutating func grow(_ cell: CellLocation) {
        // Stale blocks and the spare room of emptied cells both count: once the arena is three
        // times the live points, rewrite it (regression: churn between cells never compacted).
        if stored.count > 3 * count + 4096 { compact() }
        let old = rows[cell.row][cell.position]
        let oldStart = Int(old.start)
        let live = Int(old.count)
        let newCapacity = max(4, Int(old.capacity) * 2)
        let newStart = stored.count
        precondition(newStart + newCapacity < Int(UInt32.max), "GridIndex arena exceeds 2^32 slots")
        stored.append(contentsOf: repeatElement(Stored(latitude: 0, longitude: 0), count: newCapacity))
        handles.append(contentsOf: repeatElement(0, count: newCapacity))
        for offset in 0..<live {
            stored[newStart + offset] = stored[oldStart + offset]
            handles[newStart + offset] = handles[oldStart + offset]
            slotOfHandle[Int(handles[newStart + offset])] = UInt32(newStart + offset)
        }
        staleSlots += Int(old.capacity)
        rows[cell.row][cell.position].start = UInt32(newStart)
        rows[cell.row][cell.position].capacity = UInt32(newCapacity)
    }

    /// Rewrites the arena without stale blocks, in grid order, keeping a quarter of spare room in
    /// each cell.
    mutating func compact() {
        var newStored = [Stored]()
        var newHandles = [UInt32]()
        let total = count + count / 4 + cellCount
        newStored.reserveCapacity(total)
        newHandles.reserveCapacity(total)
        for row in occupiedRows.map(Int.init) {
            for position in rows[row].indices {
                let cell = rows[row][position]
                let start = Int(cell.start)
                let live = Int(cell.count)
                let capacity = live == 0 ? 0 : live + live / 4 + 1
                let newStart = newStored.count
                for offset in 0..<live {
                    newStored.append(stored[start + offset])
                    newHandles.append(handles[start + offset])
                    slotOfHandle[Int(handles[start + offset])] = UInt32(newStart + offset)
                }
                newStored.append(contentsOf: repeatElement(Stored(latitude: 0, longitude: 0), count: capacity - live))
                newHandles.append(contentsOf: repeatElement(0, count: capacity - live))
                rows[row][position].start = UInt32(newStart)
                rows[row][position].capacity = UInt32(capacity)
            }
        }
        stored = newStored
        handles = newHandles
        staleSlots = 0
    }
}
