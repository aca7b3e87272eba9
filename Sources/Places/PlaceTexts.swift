/// The ids and names of one kind's places, packed in shared byte chunks: a place costs its UTF-8
/// bytes, one or two length bytes each, and a quarter of a 4-byte offset, instead of two `String`s
/// inside a `Place` value.
///
/// An entry is `varint(id length) id varint(name length) name` (LEB128 lengths). The entries of a
/// block of `blockSize` consecutive handles lie one after another, in handle order, in one chunk;
/// `blockOffsets[block]` is where the block's first entry starts (`chunk << 20 | position`: 4,096
/// chunks, 4 GiB of text at most), and a handle's entry is found by skipping the entries before it
/// in its block (at most `blockSize - 1`, two length bytes each to read).
///
/// Blocks are written at the end of the last chunk. Chunks are 1 MiB, each reserved whole when it
/// is started, so the bytes never move and no doubling leaves unused capacity behind; a block longer
/// than a chunk gets a chunk of its own. An entry appended to a block whose bytes end where the
/// last chunk ends is written in place; otherwise (the block is in an earlier chunk, or the chunk is
/// full), and whenever an entry is replaced or dropped from the middle of its block, the whole block
/// is written anew at the end and its old bytes are left behind as garbage; `compacted()` rewrites
/// the chunks once the garbage outweighs the live bytes.
///
/// A value: every change goes through the arrays' copy-on-write, so a copy (a transaction's) never
/// sees the changes of another.
struct PlaceTexts: Sendable {
    static let chunkBits = 20
    static let chunkSize = 1 << chunkBits
    static let maximumChunks = 1 << (32 - chunkBits)
    static let blockBits = 2
    /// Handles per block: one offset is kept for each block.
    static let blockSize = 1 << blockBits
    static let blockMask = blockSize - 1

    /// The byte chunks (changed only by this type's own methods).
    var chunks: [[UInt8]] = []
    /// Where each block's first entry starts.
    private(set) var blockOffsets: [UInt32] = []
    /// Number of entries (handles 0 ..< count).
    private(set) var count = 0
    /// Bytes of entries no handle points at.
    private(set) var garbageBytes = 0
    /// Bytes of all entries, live or not.
    private(set) var usedBytes = 0

    init(reservingCapacity count: Int = 0) {
        blockOffsets.reserveCapacity((count + Self.blockMask) >> Self.blockBits)
    }

    /// Appends an entry for the next handle.
    mutating func append(id: String, name: String) {
        var id = id
        var name = name
        id.withUTF8 { id in name.withUTF8 { name in append(id: id, name: name) } }
    }

    /// Appends an entry for the next handle from UTF-8 bytes (a database row's, read in place).
    mutating func append(id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>) {
        let length = Self.entryLength(id: id.count, name: name.count)
        let block = count >> Self.blockBits
        let before = count & Self.blockMask
        if before == 0 {
            blockOffsets.append(reserve(length))
            write(id: id, name: name)
        } else if endsAtTail(block, entries: before, room: length) {
            write(id: id, name: name)
        } else {
            var bytes = blockBytes(block, entries: before).bytes
            garbageBytes += bytes.count
            Self.encode(id: id, name: name, into: &bytes)
            place(block, bytes)
        }
        count += 1
    }

    /// Points `handle` at a new entry (the old one becomes garbage).
    mutating func replace(_ handle: Int, id: String, name: String) {
        let block = handle >> Self.blockBits
        let at = handle & Self.blockMask
        let (old, bounds) = blockBytes(block, entries: entries(in: block))
        var bytes = Array(old[..<bounds[at]])
        var id = id
        var name = name
        id.withUTF8 { id in name.withUTF8 { name in Self.encode(id: id, name: name, into: &bytes) } }
        bytes.append(contentsOf: old[bounds[at + 1]...])
        garbageBytes += old.count
        place(block, bytes)
        compactIfWasteful()
    }

    /// Gives `handle` the entry of the last handle (a move), and drops the last handle.
    mutating func moveLast(to handle: Int) {
        let last = count - 1
        let lastBlock = last >> Self.blockBits
        let (tail, tailBounds) = blockBytes(lastBlock, entries: entries(in: lastBlock))
        let moved = tail[tailBounds[last & Self.blockMask]...]
        let block = handle >> Self.blockBits
        let at = handle & Self.blockMask
        if handle == last {
            // Dropped where it lies.
            garbageBytes += moved.count
            if at == 0 { blockOffsets.removeLast() }
        } else if block == lastBlock {
            var bytes = Array(tail[..<tailBounds[at]])
            bytes.append(contentsOf: moved)
            bytes.append(contentsOf: tail[tailBounds[at + 1]..<tailBounds[last & Self.blockMask]])
            garbageBytes += tail.count
            place(block, bytes)
        } else {
            let (old, bounds) = blockBytes(block, entries: Self.blockSize)
            var bytes = Array(old[..<bounds[at]])
            bytes.append(contentsOf: moved)
            bytes.append(contentsOf: old[bounds[at + 1]...])
            garbageBytes += old.count + moved.count
            place(block, bytes)
            if last & Self.blockMask == 0 { blockOffsets.removeLast() }
        }
        count -= 1
        compactIfWasteful()
    }

    /// The id of a handle.
    func id(_ handle: Int) -> String {
        withID(handle) { String(decoding: $0, as: UTF8.self) }
    }

    /// The name of a handle.
    func name(_ handle: Int) -> String {
        withIDAndName(handle) { _, name in String(decoding: name, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of a handle's id and of its name, as stored: one look-up of the
    /// entry for both (`name` makes a `String` of the name, repairing bytes that are not UTF-8).
    @inline(__always)
    func withIDAndName<R>(_ handle: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R) -> R {
        withEntry(handle) { bytes in
            var position = 0
            let idLength = Self.readLength(bytes, &position)
            let idStart = position
            position += idLength
            let nameLength = Self.readLength(bytes, &position)
            return body(
                UnsafeBufferPointer(rebasing: bytes[idStart..<idStart + idLength]),
                UnsafeBufferPointer(rebasing: bytes[position..<position + nameLength]))
        }
    }

    /// Calls `body` with the UTF-8 bytes of a handle's id.
    @inline(__always)
    func withID<R>(_ handle: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withEntry(handle) { bytes in
            var position = 0
            let length = Self.readLength(bytes, &position)
            return body(UnsafeBufferPointer(rebasing: bytes[position..<position + length]))
        }
    }

    /// Whether a handle's id sorts before another's as `String` `<` orders them: bytewise when both
    /// are ASCII (the same order), else by comparing the strings.
    func idPrecedes(_ first: Int, _ second: Int) -> Bool {
        let ascii = withID(first) { a in
            withID(second) { b -> Bool? in
                guard !a.contains(where: { $0 >= 0x80 }), !b.contains(where: { $0 >= 0x80 }) else { return nil }
                return a.lexicographicallyPrecedes(b)
            }
        }
        return ascii ?? (id(first) < id(second))
    }

    /// The same entries without garbage, handles unchanged.
    func compacted() -> PlaceTexts {
        var fresh = PlaceTexts(reservingCapacity: count)
        for block in blockOffsets.indices { fresh.place(block, blockBytes(block, entries: entries(in: block)).bytes) }
        fresh.count = count
        return fresh
    }

    /// Bytes held: chunk capacities and the block offsets.
    var memoryBytes: Int {
        chunks.reduce(0) { $0 + $1.capacity } + blockOffsets.capacity * 4
    }
}

extension PlaceTexts {
    /// The bytes from a handle's entry to the end of its chunk.
    @inline(__always)
    private func withEntry<R>(_ handle: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let (chunk, start) = Self.split(blockOffsets[handle >> Self.blockBits])
        return chunks[chunk].withUnsafeBufferPointer { bytes in
            let position = Self.skipEntries(bytes, from: start, count: handle & Self.blockMask)
            return body(UnsafeBufferPointer(rebasing: bytes[position...]))
        }
    }

    /// The number of entries in a block: `blockSize`, or fewer in the last.
    private func entries(in block: Int) -> Int {
        min(Self.blockSize, count - block << Self.blockBits)
    }

    /// A copy of the first `entries` entries of a block and where each starts in it (`entries + 1`
    /// bounds, the last one the end).
    private func blockBytes(_ block: Int, entries: Int) -> (bytes: [UInt8], bounds: [Int]) {
        let (chunk, start) = Self.split(blockOffsets[block])
        return chunks[chunk].withUnsafeBufferPointer { bytes in
            var bounds = [0]
            var position = start
            for _ in 0..<entries {
                position = Self.skipEntry(bytes, position)
                bounds.append(position - start)
            }
            return (Array(bytes[start..<position]), bounds)
        }
    }

    /// Whether the first `entries` entries of a block end where the last chunk ends, with `room`
    /// bytes left after them in the chunk.
    private func endsAtTail(_ block: Int, entries: Int, room: Int) -> Bool {
        let (chunk, start) = Self.split(blockOffsets[block])
        guard chunk == chunks.count - 1 else { return false }
        return chunks[chunk].withUnsafeBufferPointer { bytes in
            Self.skipEntries(bytes, from: start, count: entries) == bytes.count && bytes.count + room <= Self.chunkSize
        }
    }

    /// Makes room for `length` bytes at the end of the last chunk, starting a chunk when it has
    /// too little, and returns their offset.
    private mutating func reserve(_ length: Int) -> UInt32 {
        if chunks.isEmpty || chunks[chunks.count - 1].count + length > Self.chunkSize {
            precondition(chunks.count < Self.maximumChunks, "more than 4 GiB of place ids and names in one kind")
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, length))
            chunks.append(chunk)
        }
        return UInt32((chunks.count - 1) << Self.chunkBits | chunks[chunks.count - 1].count)
    }

    /// Writes an entry at the end of the last chunk, which has room for it.
    private mutating func write(id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>) {
        Self.encode(id: id, name: name, into: &chunks[chunks.count - 1])
        usedBytes += Self.entryLength(id: id.count, name: name.count)
    }

    /// Writes a block's entries (encoded, in handle order) at the end of the chunks and points the
    /// block at them; `block` is an existing block or the next one.
    private mutating func place(_ block: Int, _ bytes: [UInt8]) {
        let offset = reserve(bytes.count)
        chunks[chunks.count - 1].append(contentsOf: bytes)
        usedBytes += bytes.count
        if block == blockOffsets.count { blockOffsets.append(offset) } else { blockOffsets[block] = offset }
    }

    private mutating func compactIfWasteful() {
        if garbageBytes > 1 << 22 && garbageBytes > usedBytes / 2 { self = compacted() }
    }

    static func entryLength(id: Int, name: Int) -> Int {
        lengthBytes(id) + id + lengthBytes(name) + name
    }

    static func encode(
        id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]
    ) {
        appendLength(id.count, to: &bytes)
        bytes.append(contentsOf: id)
        appendLength(name.count, to: &bytes)
        bytes.append(contentsOf: name)
    }

    /// The chunk and the position in it that an offset (`chunk << 20 | position`) names.
    @inline(__always)
    static func split(_ offset: UInt32) -> (chunk: Int, position: Int) {
        (Int(offset >> UInt32(chunkBits)), Int(offset & UInt32(chunkSize - 1)))
    }

    /// Where the entry `count` entries after the one at `start` begins.
    @inline(__always)
    static func skipEntries(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> Int {
        var position = start
        for _ in 0..<count { position = skipEntry(bytes, position) }
        return position
    }

    /// The position after the entry at `position`.
    @inline(__always)
    static func skipEntry(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int) -> Int {
        var position = position
        let idLength = readLength(bytes, &position)
        position += idLength
        let nameLength = readLength(bytes, &position)
        return position + nameLength
    }

    @inline(__always)
    static func readLength(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Int {
        // Lengths below 128 (nearly all) are one byte.
        let first = bytes[position]
        position &+= 1
        if first < 0x80 { return Int(first) }
        var value = Int(first & 0x7F)
        var shift = 7
        while true {
            let byte = bytes[position]
            position &+= 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift &+= 7
        }
    }

    private static func lengthBytes(_ value: Int) -> Int {
        var value = value >> 7
        var count = 1
        while value > 0 {
            value >>= 7
            count += 1
        }
        return count
    }

    private static func appendLength(_ value: Int, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
