extension PlaceTexts {
    /// Handles per group when entries are renumbered: a group's entries are gathered in a buffer of
    /// their own before being written in their new order (at most 65,536, a 2-byte position each).
    static let renumberingGroupSize = 1 << 14

    /// Gives the entry of each handle `h` to handle `newHandles[h]` (a permutation of 0 ..< `count`),
    /// rewriting the chunks in the new order without garbage, and without a second copy of them.
    ///
    /// The entries are read once in their old order, each chunk released once read, into one
    /// buffer per group of `groupSize` new handles (reserved to its exact size, each entry with its
    /// 2-byte position in the group); then each group's buffer is written out in new-handle order
    /// and released. Beyond the texts this holds 2 bytes an entry and the 1 byte of block offsets
    /// at most, so that a server's peak memory at start stays near what it settles at.
    ///
    /// - Parameters:
    ///   - newHandles: the new handle of every handle, each of 0 ..< `count` once.
    ///   - groupSize: handles a buffer gathers: 4 ...  65,536, a multiple of `blockSize`.
    mutating func renumber(_ newHandles: UnsafeBufferPointer<UInt32>, groupSize: Int = renumberingGroupSize) {
        precondition(newHandles.count == count, "one new handle for each of \(count) entries")
        precondition(
            groupSize >= Self.blockSize && groupSize <= 1 << 16 && groupSize & Self.blockMask == 0,
            "group size \(groupSize)")
        let total = count
        guard total > 0 else { return }
        let groups = (total + groupSize - 1) / groupSize
        var groupBytes = [Int](repeating: 0, count: groups)
        for handle in 0..<total {
            precondition(Int(newHandles[handle]) < total, "new handle \(newHandles[handle]) of \(total)")
            let length = withIDAndName(handle) { id, name in Self.entryLength(id: id.count, name: name.count) }
            groupBytes[Int(newHandles[handle]) / groupSize] += 2 + length
        }
        var buffers = groupBytes.map { bytes in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(bytes)
            return buffer
        }
        // The last block in each chunk: the chunk is released once that block is read.
        var lastBlock = [Int](repeating: -1, count: chunks.count)
        for (block, offset) in blockOffsets.enumerated() {
            let chunk = Self.split(offset).chunk
            lastBlock[chunk] = max(lastBlock[chunk], block)
        }
        for handle in 0..<total {
            let new = Int(newHandles[handle])
            precondition(new < total, "new handle \(new) of \(total)")
            let position = new % groupSize
            withIDAndName(handle) { id, name in
                buffers[new / groupSize].append(UInt8(truncatingIfNeeded: position))
                buffers[new / groupSize].append(UInt8(truncatingIfNeeded: position >> 8))
                Self.encode(id: id, name: name, into: &buffers[new / groupSize])
            }
            if handle & Self.blockMask == Self.blockMask || handle == total - 1 {
                let block = handle >> Self.blockBits
                let chunk = Self.split(blockOffsets[block]).chunk
                if lastBlock[chunk] == block { chunks[chunk] = [] }
            }
        }
        self = PlaceTexts()
        var renumbered = PlaceTexts(reservingCapacity: total)
        var starts = [Int](repeating: -1, count: groupSize)
        for group in 0..<groups {
            let buffer = buffers[group]
            buffers[group] = []
            let size = min(groupSize, total - group * groupSize)
            buffer.withUnsafeBufferPointer { bytes in
                var position = 0
                while position < bytes.count {
                    let at = Int(bytes[position]) | Int(bytes[position + 1]) << 8
                    precondition(starts[at] < 0, "new handle \(group * groupSize + at) given twice")
                    starts[at] = position + 2
                    position = Self.skipEntry(bytes, position + 2)
                }
                for at in 0..<size {
                    var position = starts[at]
                    precondition(position >= 0, "no entry for new handle \(group * groupSize + at)")
                    starts[at] = -1
                    let idLength = Self.readLength(bytes, &position)
                    let id = UnsafeBufferPointer(rebasing: bytes[position..<position + idLength])
                    position += idLength
                    let nameLength = Self.readLength(bytes, &position)
                    renumbered.append(
                        id: id, name: UnsafeBufferPointer(rebasing: bytes[position..<position + nameLength]))
                }
            }
        }
        self = renumbered
    }
}
