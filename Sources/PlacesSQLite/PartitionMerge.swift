import Foundation
import Places

/// One kind's places of an import in the buckets' order, repeats left out: its partitions
/// (`ImportPartitions`) read back and sorted on a thread of their own, ahead of the one the
/// caller writes. For a kind written whole under a new layout, that thread also makes the buckets
/// and the change-log rows (`forEachBuilt`), leaving the caller only the writes.
struct PartitionMerge {
    private var kind: ImportPartitions.Kind?

    /// A partition's records in reading order, and where each starts in the buckets' order.
    struct Sorted: Sendable {
        var bytes: [UInt8]
        var starts: [Int]
    }

    /// What the sorting thread made of one partition or more: the buckets finished (by address),
    /// the log rows filled, the repeats found and the number of places kept.
    struct Built: Sendable {
        var buckets: [(address: Int, bucket: BucketWriter)] = []
        var rows: [PackedPlaceChanges] = []
        var repeats: [ImportRepeat] = []
        var placed = 0
    }

    init(_ kind: ImportPartitions.Kind) {
        self.kind = kind
    }

    /// Hands on every place in order, the first read of each id only (`onRepeat` gets the
    /// others). The entry's bytes last until `body` returns. One `forEach…` is called, once.
    mutating func forEach(
        onRepeat: (ImportRepeat) -> Void, _ body: (MergedEntry, UInt64) throws -> Void
    ) throws {
        try run(
            make: { kind, pipeline in
                try Self.forEachSorted(&kind) { try pipeline.put($0) }
            },
            use: { sorted in
                try Self.forEachRecord(in: sorted) { record in
                    try body(record.entry, record.order)
                } onRepeat: {
                    onRepeat($0)
                }
            })
    }

    /// Hands on the kind's places made into the buckets of `layout` and, with `logging`, into
    /// change-log rows (`PackedPlaceChanges`) of kind `kind` (UTF-8 bytes), in key order, with the
    /// repeats found. One `forEach…` is called, once.
    mutating func forEachBuilt(
        layout: BucketLayout, kind name: [UInt8], logging: Bool, _ body: (Built) throws -> Void
    ) throws {
        try run(
            make: { kind, pipeline in
                var built = Built()
                var bucket = BucketWriter()
                var address = -1
                var packed = name.withUnsafeBufferPointer { PackedPlaceChanges(kind: $0) }
                try Self.forEachSorted(&kind) { sorted in
                    try Self.forEachRecord(in: sorted) { record in
                        let target = layout.address(record.order.bitsReversed)
                        if target != address {
                            if address >= 0 { built.buckets.append((address, bucket)) }
                            bucket = BucketWriter(reservingCapacity: 4_096)
                            address = target
                        }
                        bucket.append(entryBytes: UnsafeRawBufferPointer(record.entry.raw))
                        built.placed += 1
                        guard logging else { return }
                        packed.appendPut(entry: UnsafeRawBufferPointer(record.entry.raw))
                        if packed.isFull {
                            built.rows.append(packed)
                            name.withUnsafeBufferPointer { packed.start(kind: $0) }
                        }
                    } onRepeat: {
                        built.repeats.append($0)
                    }
                    try pipeline.put(built)
                    built = Built()
                }
                if address >= 0 { built.buckets.append((address, bucket)) }
                if packed.count > 0 { built.rows.append(packed) }
                try pipeline.put(built)
            }, use: body)
    }

    /// Runs `make` on a thread of its own with the kind's partitions, and `use` here with each
    /// thing it puts, in order, two at most waiting; returns once that thread has ended.
    private mutating func run<Made: Sendable>(
        make: @escaping @Sendable (inout ImportPartitions.Kind, ImportPipeline<Made>) throws -> Void,
        use: (Made) throws -> Void
    ) throws {
        guard let handed = kind else { preconditionFailure("a merge run twice") }
        kind = nil
        // Held by the box alone, which the thread empties: each partition's memory goes as soon
        // as the thread has taken it.
        let box = Handover(consume handed)
        let pipeline = ImportPipeline<Made>(capacity: 2)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.current.name = "import-sort"
            var kind = box.take()
            do {
                try make(&kind, pipeline)
                pipeline.finish(throwing: nil)
            } catch {
                pipeline.finish(throwing: error)
            }
            ended.signal()
        }
        defer {
            pipeline.cancel()
            ended.wait()
        }
        while let made = try pipeline.take() { try use(made) }
    }

    /// Takes the kind's partitions in turn and calls `body` with each one that holds records,
    /// sorted.
    private static func forEachSorted(
        _ kind: inout ImportPartitions.Kind, _ body: (Sorted) throws -> Void
    ) throws {
        for partition in 0..<ImportPartitions.perKind {
            let bytes = try kind.take(partition)
            guard !bytes.isEmpty else { continue }
            try body(Sorted(bytes: bytes, starts: try sortedStarts(bytes)))
        }
    }

    /// Calls `body` with each record of a sorted partition in order, the first read of each id
    /// only; `onRepeat` gets the others.
    private static func forEachRecord(
        in sorted: Sorted, _ body: (ImportRecord) throws -> Void, onRepeat: (ImportRepeat) -> Void
    ) throws {
        try sorted.bytes.withUnsafeBytes { bytes in
            var last: ImportRecord?
            for start in sorted.starts {
                let record = try record(bytes, at: start)
                if let first = last, first.order == record.order, first.entry.id.elementsEqual(record.entry.id) {
                    onRepeat(ImportRepeat(record, first: first))
                } else {
                    try body(record)
                    last = record
                }
            }
        }
    }

    /// The record at `start` of a partition's bytes.
    static func record(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(SQLiteStoreError) -> ImportRecord {
        guard bytes.count - start >= 8 else {
            throw SQLiteStoreError.writeFailed("the import's places set aside: a bad record")
        }
        let order = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        var offset = start + 8
        _ = try BucketEntryParser.number(bytes, &offset)
        let sequence = try BucketEntryParser.number(bytes, &offset)
        let file = try BucketEntryParser.number(bytes, &offset)
        let zigzag = UInt(bitPattern: try BucketEntryParser.number(bytes, &offset))
        let position = Int(bitPattern: zigzag >> 1) ^ -Int(bitPattern: zigzag & 1)
        let entry = try BucketEntryParser.entry(bytes, &offset)
        return ImportRecord(order: order, sequence: sequence, file: file, position: position, entry: entry)
    }

    /// Where each record of a partition starts, sorted by order key, then id bytes, then reading
    /// order: by the order key's bits below the partition's with a counting sort (hashes are
    /// uniform, so a bucket holds about one record), each bucket finished by insertion.
    static func sortedStarts(_ bytes: [UInt8]) throws -> [Int] {
        try bytes.withUnsafeBytes { bytes in
            var keys: [(order: UInt64, start: Int)] = []
            var offset = 0
            while offset < bytes.count {
                guard bytes.count - offset >= 8 else {
                    throw SQLiteStoreError.writeFailed("the import's places set aside: a bad record")
                }
                let start = offset
                let order = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
                let length = try BucketEntryParser.number(bytes, &offset)
                guard length >= 0, length <= bytes.count - offset else {
                    throw SQLiteStoreError.writeFailed("the import's places set aside: a bad record")
                }
                offset += length
                keys.append((order, start))
            }
            return try sort(keys, below: ImportPartitions.bits) { a, b throws(SQLiteStoreError) in
                try id(bytes, record: a).lexicographicallyPrecedes(try id(bytes, record: b))
            }
        }
    }

    /// Sorts keys whose order keys share their top `shared` bits by order key, then `idLess` (of
    /// two starts), then start; answers the starts.
    static func sort(
        _ keys: [(order: UInt64, start: Int)], below shared: Int,
        idLess: (Int, Int) throws(SQLiteStoreError) -> Bool
    ) throws(SQLiteStoreError) -> [Int] {
        guard keys.count > 1 else { return keys.map(\.start) }
        // About one key a bucket, with at most 2^20 buckets (8 MiB of counts).
        let bits = max(1, min(20, Int.bitWidth - keys.count.leadingZeroBitCount, 64 - shared))
        let shift = UInt64(64 - shared - bits)
        let mask = (1 << bits) - 1
        var starts = [Int](repeating: 0, count: (1 << bits) + 1)
        for key in keys { starts[Int(key.order >> shift) & mask + 1] += 1 }
        for bucket in 0..<(1 << bits) { starts[bucket + 1] += starts[bucket] }
        var next = starts
        var sorted = keys
        for key in keys {
            let bucket = Int(key.order >> shift) & mask
            sorted[next[bucket]] = key
            next[bucket] += 1
        }
        func less(_ a: (order: UInt64, start: Int), _ b: (order: UInt64, start: Int)) throws(SQLiteStoreError) -> Bool {
            if a.order != b.order { return a.order < b.order }
            if try idLess(a.start, b.start) { return true }
            if try idLess(b.start, a.start) { return false }
            return a.start < b.start
        }
        for bucket in 0..<(1 << bits) where starts[bucket + 1] - starts[bucket] > 1 {
            let low = starts[bucket]
            for index in (low + 1)..<starts[bucket + 1] {
                let key = sorted[index]
                var slot = index
                while slot > low, try less(key, sorted[slot - 1]) {
                    sorted[slot] = sorted[slot - 1]
                    slot -= 1
                }
                sorted[slot] = key
            }
        }
        return sorted.map(\.start)
    }

    /// The id of the record at `start`.
    private static func id(_ bytes: UnsafeRawBufferPointer, record start: Int) throws(SQLiteStoreError)
        -> UnsafeBufferPointer<UInt8>
    {
        var offset = start + 8
        for _ in 0..<4 { _ = try BucketEntryParser.number(bytes, &offset) }
        return try BucketEntryParser.text(bytes, &offset)
    }
}

/// Hands a kind's partitions to the merge's thread without a copy staying behind.
private final class Handover: @unchecked Sendable {
    private var kind: ImportPartitions.Kind?

    init(_ kind: consuming ImportPartitions.Kind) { self.kind = kind }

    /// The partitions; called once, by the thread that uses them.
    func take() -> ImportPartitions.Kind {
        defer { kind = nil }
        return kind!
    }
}
