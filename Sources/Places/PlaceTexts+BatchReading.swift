import CPrefetch

/// Reading the ids of many handles at once: opened once for all, and the memory they lie in asked
/// for ahead of the reads.
extension PlaceTexts {
    /// Calls `body` with each handle's index in `handles` and the UTF-8 bytes of its id (valid
    /// only inside `body`), in order: `withID` for many handles, with the chunks and block offsets
    /// opened once rather than once per id.
    func forEachID(_ handles: UnsafeBufferPointer<UInt32>, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        blockOffsets.withUnsafeBufferPointer { offsets in
            chunks.withUnsafeBufferPointer { chunks in
                var index = 0
                // A chunk is opened once for each run of handles in it (a search's handles lie in
                // one or two chunks), not once for each handle.
                while index < handles.count {
                    let first = Int(handles[index])
                    precondition(first < count, "handle \(first) of \(count) texts")
                    let chunk = Self.split(offsets[first >> Self.blockBits]).chunk
                    chunks[chunk].withUnsafeBufferPointer { bytes in
                        while index < handles.count {
                            let handle = Int(handles[index])
                            precondition(handle < count, "handle \(handle) of \(count) texts")
                            let (handleChunk, start) = Self.split(offsets[handle >> Self.blockBits])
                            guard handleChunk == chunk else { return }
                            var position = Self.skipEntries(bytes, from: start, count: handle & Self.blockMask)
                            let length = Self.readLength(bytes, &position)
                            body(index, UnsafeBufferPointer(rebasing: bytes[position..<position + length]))
                            index += 1
                        }
                    }
                }
            }
        }
    }

    /// Asks the processor for the first two cache lines of each handle's block (where its entry
    /// lies, for blocks of short entries) without waiting for them (`vicinity_prefetch`), a
    /// block once for a run of handles in it: call it well before `forEachID`, with other work
    /// between, so that the lines arrive meanwhile. Only the block offsets are read (loads).
    func prefetch(_ handles: UnsafeBufferPointer<UInt32>) {
        blockOffsets.withUnsafeBufferPointer { offsets in
            chunks.withUnsafeBufferPointer { chunks in
                var index = 0
                var lastBlock = -1
                // A chunk opened once for each run of handles in it, as in `forEachID`.
                while index < handles.count {
                    precondition(Int(handles[index]) < count, "handle \(handles[index]) of \(count) texts")
                    let chunk = Self.split(offsets[Int(handles[index]) >> Self.blockBits]).chunk
                    chunks[chunk].withUnsafeBufferPointer { bytes in
                        while index < handles.count {
                            let handle = Int(handles[index])
                            precondition(handle < count, "handle \(handle) of \(count) texts")
                            let block = handle >> Self.blockBits
                            let (handleChunk, position) = Self.split(offsets[block])
                            guard handleChunk == chunk else { return }
                            if block != lastBlock, let base = bytes.baseAddress {
                                lastBlock = block
                                // A hint: it never faults. The next line is asked for only
                                // when it lies inside the chunk (a pointer past it is not formed).
                                vicinity_prefetch(base + position)
                                if position + 64 < bytes.count { vicinity_prefetch(base + position + 64) }
                            }
                            index += 1
                        }
                    }
                }
            }
        }
    }

    /// Reads where each handle's entry lies, all the block offsets first and then the bytes of the
    /// blocks (the block's first 64-byte line, and the next one for a handle past the block's
    /// first), without walking the entries: loads that do not wait on each other, so that the
    /// cache misses of many handles overlap before their ids are read one by one. Returns a value
    /// derived from the bytes read (so that the reads are not optimised away).
    func touch(_ handles: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var sum: UInt32 = 0
        blockOffsets.withUnsafeBufferPointer { offsets in
            for handle in handles {
                precondition(Int(handle) < count, "handle \(handle) of \(count) texts")
                sum &+= offsets[Int(handle) >> Self.blockBits]
            }
            chunks.withUnsafeBufferPointer { chunks in
                var index = 0
                // A chunk opened once for each run of handles in it, as in `forEachID`.
                while index < handles.count {
                    let chunk = Self.split(offsets[Int(handles[index]) >> Self.blockBits]).chunk
                    chunks[chunk].withUnsafeBufferPointer { bytes in
                        while index < handles.count {
                            let handle = Int(handles[index])
                            let (handleChunk, position) = Self.split(offsets[handle >> Self.blockBits])
                            guard handleChunk == chunk else { return }
                            sum &+= UInt32(bytes[position])
                            let next = position + 64
                            if handle & Self.blockMask != 0 && next < bytes.count { sum &+= UInt32(bytes[next]) }
                            index += 1
                        }
                    }
                }
            }
        }
        return sum
    }
}
