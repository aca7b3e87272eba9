import Foundation

/// An entry of a run or a bucket as the merge hands it on: its fields, and its bytes as a bucket
/// holds them.
struct MergedEntry {
    var id: UnsafeBufferPointer<UInt8>
    var name: UnsafeBufferPointer<UInt8>
    var latitude: Double
    var longitude: Double
    var attributes: UnsafeBufferPointer<UInt8>
    var raw: UnsafeBufferPointer<UInt8>
}

/// Reads the fields of one bucket entry, in a bucket (`BucketReader`) or an import's run.
enum BucketEntryParser {
    /// The entry's id (the first field).
    static func id(in bytes: UnsafeRawBufferPointer) throws(SQLiteStoreError) -> UnsafeBufferPointer<UInt8> {
        var offset = 0
        return try text(bytes, &offset)
    }

    /// The entry starting at `offset`, which moves past it.
    static func entry(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) throws(SQLiteStoreError) -> MergedEntry {
        let start = offset
        let id = try text(bytes, &offset)
        let name = try text(bytes, &offset)
        guard bytes.count - offset >= 16 else { throw .corrupt("a stored place cut short") }
        let latitude = Double(
            bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        let longitude = Double(
            bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
        offset += 16
        let attributes = try text(bytes, &offset)
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return MergedEntry(
            id: id, name: name, latitude: latitude, longitude: longitude, attributes: attributes,
            raw: UnsafeBufferPointer(start: base + start, count: offset - start))
    }

    /// A LEB128 number at `offset`, which moves past it.
    static func number(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) throws(SQLiteStoreError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw .corrupt("a stored place cut short") }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int(truncatingIfNeeded: value) }
            shift += 7
        }
    }

    /// A text (a LEB128 length and its bytes) at `offset`, which moves past it.
    static func text(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) throws(SQLiteStoreError)
        -> UnsafeBufferPointer<UInt8>
    {
        let length = try number(bytes, &offset)
        guard length >= 0, length <= bytes.count - offset else { throw .corrupt("a stored place cut short") }
        let start = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
        offset += length
        return UnsafeBufferPointer(start: start, count: length)
    }
}
