extension GridIndexBuilder {
    /// The entries of one occupied row: arena slots `start ..< end`.
    struct RowRun {
        var row: Int
        var start: Int
        var end: Int
    }

    /// Puts the entries in ascending row order, in place (an American flag sort: each entry is
    /// swapped straight to the next free slot of its row's run), and returns the run of each
    /// occupied row, ascending.
    static func sortByRow(
        _ stored: UnsafeMutableBufferPointer<GridIndex.Stored>, _ handles: UnsafeMutableBufferPointer<UInt32>,
        layout: GridLayout
    ) -> [RowRun] {
        guard !stored.isEmpty else { return [] }
        var lowest = Int.max
        var highest = Int.min
        for entry in stored {
            let row = layout.row(latitude: entry.latitude)
            lowest = min(lowest, row)
            highest = max(highest, row)
        }
        // next[bucket] is the next unsorted slot of row lowest + bucket; ends[bucket] its run's end.
        let span = highest - lowest + 1
        var next = [UInt32](repeating: 0, count: span)
        var ends = [UInt32](repeating: 0, count: span)
        for entry in stored { ends[layout.row(latitude: entry.latitude) - lowest] += 1 }
        var runs: [RowRun] = []
        var total: UInt32 = 0
        for bucket in 0..<span {
            next[bucket] = total
            total += ends[bucket]
            ends[bucket] = total
            if next[bucket] < total {
                runs.append(RowRun(row: lowest + bucket, start: Int(next[bucket]), end: Int(total)))
            }
        }
        for run in runs {
            let bucket = run.row - lowest
            var slot = Int(next[bucket])
            while slot < run.end {
                let target = layout.row(latitude: stored[slot].latitude) - lowest
                if target == bucket {
                    slot += 1
                } else {
                    let free = Int(next[target])
                    stored.swapAt(slot, free)
                    handles.swapAt(slot, free)
                    next[target] += 1
                }
            }
            next[bucket] = UInt32(run.end)
        }
        return runs
    }

    /// Makes the cells of one row's run, each with a block of exactly its entries' size in
    /// column order from the run's start, and puts the run's entries in their blocks, in place.
    ///
    /// A row whose columns are dense (the usual case) counts its entries per column in a table
    /// over its span of columns; a sparse one sorts its columns instead, so that a few points far
    /// apart do not cost a table as wide as the Earth.
    ///
    /// - Parameter columns: scratch space, reused from row to row.
    static func sortByCell(
        _ run: RowRun, _ stored: UnsafeMutableBufferPointer<GridIndex.Stored>,
        _ handles: UnsafeMutableBufferPointer<UInt32>, layout: GridLayout, columns: inout [Int32]
    ) -> [GridIndex.Cell] {
        let row = run.row
        @inline(__always)
        func column(_ slot: Int) -> Int { layout.column(row: row, longitude: stored[slot].longitude) }
        var lowest = Int.max
        var highest = Int.min
        for slot in run.start..<run.end {
            let column = column(slot)
            lowest = min(lowest, column)
            highest = max(highest, column)
        }
        let span = highest - lowest + 1
        var cells: [GridIndex.Cell] = []
        var start = UInt32(run.start)
        if span <= 4 * (run.end - run.start) + 64 {
            // Dense: entries per column, then each column's cell number in the same table.
            columns.removeAll(keepingCapacity: true)
            columns.append(contentsOf: repeatElement(0, count: span))
            for slot in run.start..<run.end { columns[column(slot) - lowest] += 1 }
            // Exactly as many cells as occupied columns: a row's table is kept as built.
            cells.reserveCapacity(columns.reduce(0) { $0 + ($1 > 0 ? 1 : 0) })
            for offset in 0..<span where columns[offset] > 0 {
                let size = UInt32(columns[offset])
                cells.append(GridIndex.Cell(column: Int32(lowest + offset), count: 0, start: start, capacity: size))
                columns[offset] = Int32(cells.count - 1)
                start += size
            }
            columns.withUnsafeBufferPointer { table in
                cells.withUnsafeMutableBufferPointer { cells in
                    distribute(cells, stored, handles) { Int(table[column($0) - lowest]) }
                }
            }
        } else {
            // Sparse: the run's columns sorted, then found by binary search.
            columns.removeAll(keepingCapacity: true)
            for slot in run.start..<run.end { columns.append(Int32(column(slot))) }
            columns.sort()
            var distinct = columns.isEmpty ? 0 : 1
            for index in columns.indices.dropFirst() where columns[index] != columns[index - 1] { distinct += 1 }
            cells.reserveCapacity(distinct)
            var index = 0
            while index < columns.count {
                var past = index + 1
                while past < columns.count && columns[past] == columns[index] { past += 1 }
                let size = UInt32(past - index)
                cells.append(GridIndex.Cell(column: columns[index], count: 0, start: start, capacity: size))
                start += size
                index = past
            }
            cells.withUnsafeMutableBufferPointer { cells in
                let found = UnsafeBufferPointer(cells)
                distribute(cells, stored, handles) { slot in
                    let wanted = Int32(column(slot))
                    var low = 0
                    var high = found.count - 1
                    while low < high {
                        let middle = (low + high) / 2
                        if found[middle].column < wanted { low = middle + 1 } else { high = middle }
                    }
                    return low
                }
            }
        }
        return cells
    }

    /// Swaps each entry of the cells' blocks into the next free slot of its own cell (`cellOf`
    /// gives the cell number of the entry at a slot), counting each cell's entries up to its
    /// capacity.
    @inline(__always)
    private static func distribute(
        _ cells: UnsafeMutableBufferPointer<GridIndex.Cell>, _ stored: UnsafeMutableBufferPointer<GridIndex.Stored>,
        _ handles: UnsafeMutableBufferPointer<UInt32>, cellOf: (Int) -> Int
    ) {
        for cell in cells.indices {
            let end = cells[cell].start + cells[cell].capacity
            while cells[cell].start + cells[cell].count < end {
                let slot = Int(cells[cell].start + cells[cell].count)
                let home = cellOf(slot)
                if home != cell {
                    let free = Int(cells[home].start + cells[home].count)
                    stored.swapAt(slot, free)
                    handles.swapAt(slot, free)
                }
                cells[home].count += 1
            }
        }
    }
}
