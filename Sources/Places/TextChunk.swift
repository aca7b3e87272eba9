/// One chunk of `PlaceTexts`: a byte buffer allocated once at its full capacity, so that its
/// address never changes and reads need neither a copy nor a reference count of an array.
///
/// Bytes are only ever appended, past `count`; bytes below `count` are never written again. Values
/// of `PlaceTexts` copied from one another share their chunks: a copy reads only bytes written
/// before it was made, and appends only when no other copy has appended to the chunk since (see
/// `PlaceTexts.write`), so no byte is read while it is written.
final class TextChunk: @unchecked Sendable {
    /// The buffer, `capacity` bytes.
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes allocated.
    let capacity: Int
    /// Bytes written, from `base`.
    private(set) var count = 0

    /// Allocates a chunk of `capacity` bytes (1 or more).
    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Bytes left to write.
    var free: Int { capacity - count }

    /// Appends bytes; they must fit (`free`).
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= free, "text chunk overflow")
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a length as LEB128 (7 bits a byte, low group first); it must fit.
    func appendLength(_ value: Int) {
        var value = value
        while value >= 0x80 {
            appendByte(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        appendByte(UInt8(value))
    }

    private func appendByte(_ byte: UInt8) {
        precondition(count < capacity, "text chunk overflow")
        (base + count).initialize(to: byte)
        count += 1
    }
}
