/// The ids and names of one kind's places, packed in shared byte chunks: a place costs its UTF-8
/// bytes, one or two length bytes each, and a 4-byte offset, instead of two `String`s inside a
/// `Place` value.
///
/// An entry is `varint(id length) id varint(name length) name` (LEB128 lengths). Entries are
/// appended to chunks of 1 MiB, each reserved whole when it is started, so the bytes never move
/// and no doubling leaves unused capacity behind; an entry longer than a chunk gets a chunk of its
/// own. `offsets[handle]` is `chunk << 20 | position`: 4,096 chunks, 4 GiB of text at most.
///
/// Replacing or dropping an entry leaves its bytes behind as garbage; `compacted()` rewrites the
/// chunks once the garbage outweighs the live bytes.
struct PlaceTexts: Sendable {
    static let chunkBits = 20
    static let chunkSize = 1 << chunkBits
    static let maximumChunks = 1 << (32 - chunkBits)

    private var chunks: [[UInt8]] = []
    /// Where each handle's entry starts.
    private(set) var offsets: [UInt32] = []
    /// Bytes of entries no handle points at.
    private(set) var garbageBytes = 0
    /// Bytes of all entries, live or not.
    private(set) var usedBytes = 0

    init(reservingCapacity count: Int = 0) { offsets.reserveCapacity(count) }

    /// Number of entries (handles 0 ..< count).
    var count: Int { offsets.count }

    /// Appends an entry for the next handle.
    mutating func append(id: String, name: String) {
        offsets.append(write(id: id, name: name))
    }

    /// Appends an entry for the next handle from UTF-8 bytes (a database row's, read in place).
    mutating func append(id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>) {
        offsets.append(write(id: id, name: name))
    }

    /// Points `handle` at a new entry (the old one becomes garbage).
    mutating func replace(_ handle: Int, id: String, name: String) {
        garbageBytes += entryLength(at: offsets[handle])
        offsets[handle] = write(id: id, name: name)
        if garbageBytes > 1 << 22 && garbageBytes > usedBytes / 2 { self = compacted() }
    }

    /// Gives `handle` the entry of `other` (a move), and drops the last handle.
    mutating func moveLast(to handle: Int) {
        let last = offsets.count - 1
        garbageBytes += entryLength(at: offsets[handle])
        if handle != last { offsets[handle] = offsets[last] }
        offsets.removeLast()
        if garbageBytes > 1 << 22 && garbageBytes > usedBytes / 2 { self = compacted() }
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
        withEntry(offsets[handle]) { bytes in
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
        withEntry(offsets[handle]) { bytes in
            var position = 0
            let length = Self.readLength(bytes, &position)
            return body(UnsafeBufferPointer(rebasing: bytes[position..<position + length]))
        }
    }

    /// Reads the start of each handle's entry, all the offsets first and then all the entries, so
    /// that the cache misses of many handles overlap before their ids are read one by one.
    /// Returns a value derived from the bytes read (so that the reads are not optimised away).
    func touch(_ handles: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var sum: UInt32 = 0
        offsets.withUnsafeBufferPointer { offsets in
            for handle in handles { sum &+= offsets[Int(handle)] }
            chunks.withUnsafeBufferPointer { chunks in
                for handle in handles {
                    let offset = offsets[Int(handle)]
                    let chunk = Int(offset >> UInt32(Self.chunkBits))
                    let position = Int(offset & UInt32(Self.chunkSize - 1))
                    sum &+= UInt32(chunks[chunk].withUnsafeBufferPointer { $0[position] })
                }
            }
        }
        return sum
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

    /// The bytes from an entry's start to the end of its chunk.
    @inline(__always)
    private func withEntry<R>(_ offset: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let chunk = Int(offset >> UInt32(Self.chunkBits))
        let position = Int(offset & UInt32(Self.chunkSize - 1))
        return chunks[chunk].withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[position...])) }
    }

    private func entryLength(at offset: UInt32) -> Int {
        withEntry(offset) { bytes in
            var position = 0
            position += Self.readLength(bytes, &position)
            position += Self.readLength(bytes, &position)
            return position
        }
    }

    @inline(__always)
    private static func readLength(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Int {
        var value = 0
        var shift = 0
        while true {
            let byte = bytes[position]
            position += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
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

    private static func appendLength(_ value: Int, to chunk: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            chunk.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        chunk.append(UInt8(value))
    }

    /// Writes an entry and returns its offset.
    private mutating func write(id: String, name: String) -> UInt32 {
        var id = id
        var name = name
        return id.withUTF8 { id in name.withUTF8 { name in write(id: id, name: name) } }
    }

    /// Writes an entry of UTF-8 bytes and returns its offset.
    private mutating func write(id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let idCount = id.count
        let nameCount = name.count
        let length = Self.lengthBytes(idCount) + idCount + Self.lengthBytes(nameCount) + nameCount
        if chunks.isEmpty || chunks[chunks.count - 1].count + length > Self.chunkSize {
            precondition(chunks.count < Self.maximumChunks, "more than 4 GiB of place ids and names in one kind")
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, length))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        let position = chunks[last].count
        Self.appendLength(idCount, to: &chunks[last])
        chunks[last].append(contentsOf: id)
        Self.appendLength(nameCount, to: &chunks[last])
        chunks[last].append(contentsOf: name)
        usedBytes += length
        return UInt32(last << Self.chunkBits | position)
    }

    /// The same entries without garbage, handles unchanged.
    func compacted() -> PlaceTexts {
        var fresh = PlaceTexts(reservingCapacity: count)
        for handle in 0..<count { fresh.append(id: id(handle), name: name(handle)) }
        return fresh
    }

    /// Bytes held: chunk capacities and the offset table.
    var memoryBytes: Int {
        chunks.reduce(0) { $0 + $1.capacity } + offsets.capacity * 4
    }
}
