import Foundation
import Geo

/// How SQLite stores a kind's places: in buckets, blobs of a few dozen places each, not one row a
/// place. A place's bucket follows from a 64-bit hash of its id (seeded per kind) by linear
/// hashing (`BucketLayout`), so that an edit rewrites one small blob and a kind grows one bucket at
/// a time, while an import writes each bucket once.
///
/// A bucket blob is a format byte (1), the number of places (4 bytes, little-endian), then each
/// place: the id, the name (each a LEB128 length and UTF-8 bytes), latitude and longitude
/// (IEEE 754 binary64, little-endian bit patterns, degrees) and the attributes as
/// `AttributeCoding` text (a LEB128 length and the bytes; none for no attribute). Places are in
/// order of `orderKey(hash)`, then id bytes: an id appears once per bucket, and the buckets of a
/// kind, in key order (`key(kind:address:)`), hold its places in one order, that of an import's
/// merge.
enum PlaceBucket {
    /// The format byte of a bucket blob.
    static let format: UInt8 = 1
    /// Bytes before the first place: the format byte and the count.
    static let headerBytes = 5
    /// The most places a kind's buckets hold on average before one more bucket is made.
    static let placesPerBucket = 64

    /// A 64-bit hash of an id's UTF-8 bytes under a kind's seed. It decides where places are
    /// stored, so it must never change: words of eight bytes are mixed in by a multiply and a
    /// rotation, then the result goes through the 64-bit finalizer of MurmurHash3 (constants from
    /// Austin Appleby's public-domain MurmurHash3).
    static func hash(_ id: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var state = seed ^ (UInt64(id.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        let raw = UnsafeRawBufferPointer(id)
        while offset + 8 <= id.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            state = mix(state, word)
            offset += 8
        }
        if offset < id.count {
            var word: UInt64 = 0
            for index in offset..<id.count { word |= UInt64(id[index]) << (8 * UInt64(index - offset)) }
            state = mix(state, word)
        }
        state ^= state >> 33
        state &*= 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        state &*= 0xC4CE_B9FE_1A85_EC53
        state ^= state >> 33
        return state
    }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return product << 29 | product >> 35
    }

    /// The order places are kept in: the hash's bits reversed. Every bucket of every layout holds
    /// one contiguous range of these keys (a bucket is a set of the hash's low bits, which are the
    /// key's high bits).
    @inline(__always)
    static func orderKey(_ hash: UInt64) -> UInt64 { hash.bitsReversed }

    /// The SQLite row key of a kind's bucket: the kind's number in the high half, and in the low
    /// half the bucket's address with its 32 bits reversed, which is where its range of order keys
    /// starts. A kind's rows in key order therefore hold its places in order-key order, and a
    /// bucket that splits keeps its key.
    static func key(kind number: Int64, address: Int) -> Int64 {
        precondition(address >= 0 && address <= Int(UInt32.max), "bucket address \(address) out of range")
        return number << 32 | Int64(UInt32(address).bitsReversed)
    }

    /// The bucket address a row key holds (inverse of `key(kind:address:)`).
    static func address(ofKey key: Int64) -> Int { Int(UInt32(truncatingIfNeeded: key).bitsReversed) }

    /// The first and last row keys of a kind's buckets.
    static func keys(ofKind number: Int64) -> ClosedRange<Int64> { (number << 32)...(number << 32 | 0xFFFF_FFFF) }
}

/// A kind's buckets under linear hashing: `buckets` of them, 2^level ≤ buckets < 2^(level+1). A
/// hash goes to `hash mod 2^level`, or, when that bucket has been split already this round (it is
/// below `buckets - 2^level`), to `hash mod 2^(level+1)`.
struct BucketLayout: Equatable, Sendable {
    /// The number of buckets, ≥ 1.
    private(set) var buckets: Int

    init(buckets: Int) {
        precondition(buckets >= 1 && buckets <= Int(UInt32.max), "bucket count \(buckets) out of range")
        self.buckets = buckets
    }

    /// The layout an import of `count` places into an empty kind starts with: a power of two, so
    /// that a bucket holds between a quarter and three quarters of `placesPerBucket` on average.
    init(forCount count: Int) {
        let target = max(1, (count * 4 + PlaceBucket.placesPerBucket * 3 - 1) / (PlaceBucket.placesPerBucket * 3))
        self.init(buckets: min(1 << 31, 1 << (Int.bitWidth - (target - 1).leadingZeroBitCount)))
    }

    /// 2^level, the number of buckets at the start of this round of splits.
    var roundStart: Int { 1 << (Int.bitWidth - 1 - buckets.leadingZeroBitCount) }

    /// The bucket a hash belongs to.
    @inline(__always)
    func address(_ hash: UInt64) -> Int {
        let low = roundStart
        let address = Int(truncatingIfNeeded: hash & UInt64(low - 1))
        return address < buckets - low ? Int(truncatingIfNeeded: hash & UInt64(2 * low - 1)) : address
    }

    /// The bucket the next split divides, and the new bucket it gives part of its places to.
    var nextSplit: (bucket: Int, sibling: Int) {
        let low = roundStart
        return (buckets - low, buckets)
    }

    /// Adds the next bucket (after moving the places of `nextSplit.bucket` that now belong to it).
    mutating func grow() { buckets += 1 }

    /// Whether `count` places call for one more bucket.
    func isCrowded(count: Int) -> Bool { count > buckets * PlaceBucket.placesPerBucket }
}

/// One place of a bucket, read in place: its texts point into the blob.
struct BucketEntry {
    var id: UnsafeBufferPointer<UInt8>
    var name: UnsafeBufferPointer<UInt8>
    var latitude: Double
    var longitude: Double
    /// `AttributeCoding` text, empty for a place without attributes.
    var attributes: UnsafeBufferPointer<UInt8>
    /// The entry's bytes in the blob.
    var bytes: Range<Int>
}

/// Writes a bucket blob, place by place in order.
struct BucketWriter {
    private(set) var bytes: [UInt8]
    private(set) var count = 0

    init(reservingCapacity capacity: Int = 0) {
        bytes = [PlaceBucket.format, 0, 0, 0, 0]
        bytes.reserveCapacity(capacity + PlaceBucket.headerBytes)
    }

    /// Appends a place's fields.
    mutating func append(
        id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, latitude: Double, longitude: Double,
        attributes: UnsafeBufferPointer<UInt8>
    ) {
        BucketWriter.appendEntry(
            id: id, name: name, latitude: latitude, longitude: longitude, attributes: attributes, to: &bytes)
        count += 1
    }

    /// Appends an entry's bytes as another blob holds them.
    mutating func append(entryBytes: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: entryBytes)
        count += 1
    }

    /// The blob, its count filled in.
    consuming func finished() -> [UInt8] {
        let count = UInt32(self.count).littleEndian
        withUnsafeBytes(of: count) { for index in 0..<4 { bytes[1 + index] = $0[index] } }
        return bytes
    }

    /// Appends one entry's encoding to `bytes`.
    static func appendEntry(
        id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, latitude: Double, longitude: Double,
        attributes: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]
    ) {
        appendLength(id.count, to: &bytes)
        bytes.append(contentsOf: id)
        appendLength(name.count, to: &bytes)
        bytes.append(contentsOf: name)
        withUnsafeBytes(of: latitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: longitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        appendLength(attributes.count, to: &bytes)
        bytes.append(contentsOf: attributes)
    }

    /// Appends a LEB128 number.
    static func appendLength(_ value: Int, to bytes: inout [UInt8]) {
        var value = UInt64(value)
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}

/// Reads a bucket blob's places in order, checking its structure as it goes.
struct BucketReader {
    private let data: UnsafeRawBufferPointer
    private var offset = PlaceBucket.headerBytes
    /// Places not read yet.
    private(set) var remaining: Int

    /// - Throws: `SQLiteStoreError.corrupt` for a blob that is not a bucket.
    init(_ data: UnsafeRawBufferPointer) throws(SQLiteStoreError) {
        guard data.count >= PlaceBucket.headerBytes, data[0] == PlaceBucket.format else {
            throw .corrupt("a place bucket of an unknown format")
        }
        self.data = data
        remaining = Int(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: 1, as: UInt32.self)))
    }

    /// The next place, or nil after the last (when the blob must also end).
    mutating func next() throws(SQLiteStoreError) -> BucketEntry? {
        guard remaining > 0 else {
            guard offset == data.count else { throw .corrupt("a place bucket with bytes after its last place") }
            return nil
        }
        let start = offset
        let entry = try BucketEntryParser.entry(data, &offset)
        guard !entry.id.isEmpty else { throw .corrupt("a place bucket holding an empty id") }
        remaining -= 1
        return BucketEntry(
            id: entry.id, name: entry.name, latitude: entry.latitude, longitude: entry.longitude,
            attributes: entry.attributes, bytes: start..<offset)
    }
}

extension UInt64 {
    /// The bits in reverse order (bit 0 becomes bit 63).
    var bitsReversed: UInt64 {
        var value = self
        value = (value >> 1) & 0x5555_5555_5555_5555 | (value & 0x5555_5555_5555_5555) << 1
        value = (value >> 2) & 0x3333_3333_3333_3333 | (value & 0x3333_3333_3333_3333) << 2
        value = (value >> 4) & 0x0F0F_0F0F_0F0F_0F0F | (value & 0x0F0F_0F0F_0F0F_0F0F) << 4
        return value.byteSwapped
    }
}

extension UInt32 {
    /// The bits in reverse order (bit 0 becomes bit 31).
    var bitsReversed: UInt32 { UInt32(truncatingIfNeeded: UInt64(self).bitsReversed >> 32) }
}
