import Foundation

/// An import's places as records, kept apart by kind and by the top `bits` bits of their order
/// key (`PlaceBucket.orderKey`): in memory up to a budget, then in a `SpillFile`. A partition's
/// records stay in reading order; the merge sorts one partition at a time, and the partitions of
/// a kind in turn give its places in the buckets' order.
///
/// A record is its order key (8 bytes, little-endian), the length of the rest (LEB128), then the
/// rest: what `BucketImport` codes (its sequence number, origin and bucket entry).
struct ImportPartitions {
    /// The most bytes of records an import holds in memory, unless told otherwise.
    static let defaultBudget = 128 << 20
    /// Bits of the order key that choose a record's partition.
    static let bits = 8
    /// Partitions of one kind.
    static let perKind = 1 << bits

    /// Where a partition's records written to the spill file are.
    struct Extent: Sendable {
        var offset: Int
        var count: Int
    }

    /// One kind's partitions, handed over whole to the merge.
    struct Kind: Sendable {
        /// Each partition's records still in memory (the newest).
        var buffers: [[UInt8]]
        /// Each partition's records in the spill file, oldest first.
        var extents: [[Extent]]
        let file: SpillFile?

        /// A partition's records, in reading order; its memory is let go.
        mutating func take(_ partition: Int) throws -> [UInt8] {
            let memory = buffers[partition]
            buffers[partition] = []
            guard let file, !extents[partition].isEmpty else { return memory }
            let spilled = extents[partition].reduce(0) { $0 + $1.count }
            var failure: (any Error)?
            let bytes = [UInt8](unsafeUninitializedCapacity: spilled + memory.count) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                var at = 0
                do {
                    for extent in extents[partition] {
                        try file.read(
                            at: extent.offset,
                            into: UnsafeMutableRawBufferPointer(rebasing: raw[at..<at + extent.count]))
                        at += extent.count
                    }
                } catch {
                    failure = error
                    initialized = 0
                    return
                }
                memory.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: raw[at...]).copyMemory(from: $0) }
                initialized = spilled + memory.count
            }
            extents[partition] = []
            if let failure { throw failure }
            return bytes
        }
    }

    private var buffers: [[UInt8]] = []
    private var extents: [[Extent]] = []
    private var memoryBytes = 0
    private let budget: Int
    private var file: SpillFile?

    /// - Parameter budget: the most bytes of memory the records take (their buffers' capacity);
    ///   past it, they go to disk.
    init(budget: Int) {
        self.budget = budget
    }

    /// Makes room for kind number `kinds - 1`.
    mutating func reserve(kinds: Int) {
        while buffers.count < kinds * Self.perKind {
            buffers.append([])
            extents.append([])
        }
    }

    /// Appends a record of kind number `kind` (reserved) with order key `order` and the rest
    /// `body`.
    mutating func append(kind: Int, order: UInt64, body: UnsafeRawBufferPointer) {
        let index = kind << Self.bits | Int(order >> UInt64(64 - Self.bits))
        let before = buffers[index].capacity
        withUnsafeBytes(of: order.littleEndian) { buffers[index].append(contentsOf: $0) }
        BucketWriter.appendLength(body.count, to: &buffers[index])
        buffers[index].append(contentsOf: body)
        memoryBytes += buffers[index].capacity - before
    }

    /// Writes every partition's records in memory to the spill file and lets their memory go, if
    /// the memory they take is over the budget.
    mutating func spillIfOver() throws {
        guard memoryBytes > budget else { return }
        let file = try self.file ?? SpillFile()
        self.file = file
        for index in buffers.indices where !buffers[index].isEmpty {
            let offset = try buffers[index].withUnsafeBytes { try file.append($0) }
            extents[index].append(Extent(offset: offset, count: buffers[index].count))
            buffers[index] = []
        }
        memoryBytes = 0
    }

    /// Hands over kind number `kind`'s partitions (none for a kind no place was given of); its
    /// memory here is let go.
    mutating func take(kind: Int) -> Kind {
        let range = kind * Self.perKind..<(kind + 1) * Self.perKind
        guard range.upperBound <= buffers.count else {
            return Kind(
                buffers: Array(repeating: [], count: Self.perKind), extents: Array(repeating: [], count: Self.perKind),
                file: nil)
        }
        let taken = Kind(buffers: Array(buffers[range]), extents: Array(extents[range]), file: file)
        for index in range {
            memoryBytes -= buffers[index].capacity
            buffers[index] = []
            extents[index] = []
        }
        return taken
    }
}
