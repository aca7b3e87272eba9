import Foundation
import GRDB
import GRDBSQLite

/// A record of an import's run: a place with its order key, its sequence number in the import and
/// where it was read (`BucketImport`'s codes).
struct RunRecord {
    var order: UInt64
    var sequence: Int
    var file: Int
    var position: Int
    var entry: MergedEntry
}

/// Bytes owned by a reader, read from SQLite and kept until the next read.
final class OwnedBytes {
    private(set) var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private(set) var count = 0

    /// The bytes held.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[0..<count]) }

    /// Replaces the bytes with a copy of `source`.
    func replace(with source: UnsafeRawBufferPointer) {
        if source.count > buffer.count {
            buffer.deallocate()
            buffer = .allocate(byteCount: max(source.count, 2 * buffer.count), alignment: 8)
        }
        if let base = source.baseAddress, source.count > 0 {
            buffer.baseAddress!.copyMemory(from: base, byteCount: source.count)
        }
        count = source.count
    }

    /// Replaces the bytes with a blob column (0-based) of a statement's current row.
    func replace(withColumn column: Int32, of statement: OpaquePointer?) {
        let count = Int(sqlite3_column_bytes(statement, column))
        replace(with: UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, column), count: count))
    }

    deinit { buffer.deallocate() }
}

/// An import's run chunks: in memory up to a budget, then all on a temporary table (on disk).
final class ChunkStore {
    private let db: Database
    private var memory: [Int64: OwnedBytes] = [:]
    private var memoryBytes = 0
    private var spilled = false
    private let memoryBudget: Int
    /// The most bytes of chunks an import holds in memory, unless told otherwise.
    static let defaultMemoryBudget = 96 << 20

    /// - Parameter memoryBudget: the most bytes of chunks held in memory.
    init(db: Database, memoryBudget: Int = ChunkStore.defaultMemoryBudget) {
        self.db = db
        self.memoryBudget = memoryBudget
    }

    func put(_ chunk: [UInt8], key: Int64) throws {
        if !spilled && memoryBytes + chunk.count <= memoryBudget {
            let owned = OwnedBytes()
            chunk.withUnsafeBytes { owned.replace(with: $0) }
            memory[key] = owned
            memoryBytes += chunk.count
            return
        }
        if !spilled {
            spilled = true
            for (key, chunk) in memory.sorted(by: { $0.key < $1.key }) { try insert(chunk.bytes, key: key) }
            memory = [:]
            memoryBytes = 0
        }
        try chunk.withUnsafeBytes { try insert($0, key: key) }
    }

    private func insert(_ chunk: UnsafeRawBufferPointer, key: Int64) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO temp.vicinity_import_chunk (key, data) VALUES (?, ?)")
        let raw = statement.sqliteStatement
        var status = sqlite3_bind_int64(raw, 1, key)
        status |= sqlite3_bind_blob(raw, 2, chunk.baseAddress, Int32(chunk.count), transient)
        let stepped = status == SQLITE_OK ? sqlite3_step(raw) : status
        sqlite3_reset(raw)
        guard stepped == SQLITE_DONE else {
            throw SQLiteStoreError.writeFailed(
                "the import's sorted places: " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    /// A chunk: the one held in memory (let go by the store: each chunk is read once), or a copy
    /// into `bytes` of the one on disk.
    func get(_ key: Int64, into bytes: OwnedBytes) throws -> OwnedBytes {
        if let chunk = memory.removeValue(forKey: key) {
            memoryBytes -= chunk.count
            return chunk
        }
        let statement = try db.cachedStatement(sql: "SELECT data FROM temp.vicinity_import_chunk WHERE key = ?")
        try statement.setArguments([key])
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        guard sqlite3_step(raw) == SQLITE_ROW else {
            throw SQLiteStoreError.writeFailed("the import's sorted places: chunk \(key) is missing")
        }
        bytes.replace(withColumn: 0, of: raw)
        return bytes
    }
}

/// Reads one run chunk by chunk.
private final class RunCursor {
    let run: Int
    let chunks: Int
    private var chunk = -1
    private var data = OwnedBytes()
    private var offset = 0
    private var remaining = 0
    /// The record the cursor is at.
    private(set) var record = RunRecord(
        order: 0, sequence: 0, file: 0, position: 0,
        entry: MergedEntry(
            id: .init(start: nil, count: 0), name: .init(start: nil, count: 0), latitude: 0, longitude: 0,
            attributes: .init(start: nil, count: 0), raw: .init(start: nil, count: 0)))

    init(run: Int, chunks: Int) {
        self.run = run
        self.chunks = chunks
    }

    /// Moves to the next record; false after the last.
    func advance(_ store: ChunkStore) throws -> Bool {
        while remaining == 0 {
            chunk += 1
            guard chunk < chunks else { return false }
            data = try store.get(Int64(run) << 24 | Int64(chunk), into: data)
            guard data.count >= 4 else { throw SQLiteStoreError.writeFailed("the import's sorted places: a bad chunk") }
            remaining = Int(UInt32(littleEndian: data.bytes.loadUnaligned(as: UInt32.self)))
            offset = 4
        }
        let bytes = data.bytes
        guard bytes.count - offset >= 8 else {
            throw SQLiteStoreError.writeFailed("the import's sorted places: a bad chunk")
        }
        let order = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
        let sequence = try BucketEntryParser.number(bytes, &offset)
        let file = try BucketEntryParser.number(bytes, &offset)
        let zigzag = UInt(bitPattern: try BucketEntryParser.number(bytes, &offset))
        let position = Int(bitPattern: zigzag >> 1) ^ -Int(bitPattern: zigzag & 1)
        let entry = try BucketEntryParser.entry(bytes, &offset)
        record = RunRecord(order: order, sequence: sequence, file: file, position: position, entry: entry)
        remaining -= 1
        return true
    }
}

/// Merges a kind's runs into one stream in bucket order, leaving repeats out.
struct RunMerge {
    private let store: ChunkStore
    private var cursors: [RunCursor] = []
    /// The order key of each cursor's record, for the comparisons that it decides.
    private var orders: [UInt64] = []
    /// Indexes of `cursors`, a binary min-heap by (order, id, sequence) of their records.
    private var heap: [Int] = []

    init(store: ChunkStore, runs: [(number: Int, chunks: Int)]) throws {
        self.store = store
        for run in runs {
            let cursor = RunCursor(run: run.number, chunks: run.chunks)
            if try cursor.advance(store) {
                cursors.append(cursor)
                orders.append(cursor.record.order)
                heap.append(cursors.count - 1)
                siftUp(heap.count - 1)
            }
        }
    }

    /// Hands on every place in order, the first read of each id only: `onRepeat` gets the others
    /// with the origin (file, position) of the one kept. The entry's bytes last until `body`
    /// returns.
    mutating func forEach(
        onRepeat: (RunRecord, (file: Int, position: Int)) -> Void, _ body: (MergedEntry, UInt64) throws -> Void
    ) throws {
        var lastID: [UInt8] = []
        var lastOrder: UInt64 = 0
        var lastOrigin = (file: 0, position: 0)
        var hasLast = false
        while let top = heap.first {
            let record = cursors[top].record
            if hasLast && record.order == lastOrder && record.entry.id.elementsEqual(lastID) {
                onRepeat(record, lastOrigin)
            } else {
                try body(record.entry, record.order)
                lastOrder = record.order
                lastID.removeAll(keepingCapacity: true)
                lastID.append(contentsOf: record.entry.id)
                lastOrigin = (record.file, record.position)
                hasLast = true
            }
            if try cursors[top].advance(store) {
                orders[top] = cursors[top].record.order
            } else {
                let last = heap.removeLast()
                if heap.isEmpty { break }
                heap[0] = last
            }
            siftDown(0)
        }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        if orders[a] != orders[b] { return orders[a] < orders[b] }
        let (x, y) = (cursors[a].record, cursors[b].record)
        if !x.entry.id.elementsEqual(y.entry.id) { return x.entry.id.lexicographicallyPrecedes(y.entry.id) }
        return x.sequence < y.sequence
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count && less(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard less(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}

/// A kind's stored places read bucket by bucket in key order (the order of an import's merge
/// under the same seed), one bucket in memory.
final class OldBuckets {
    private let db: Database
    private let kind: StoredKind
    private var lastKey: Int64
    private let data = OwnedBytes()
    private var reader: BucketReader?
    /// The place the reader is at, nil after the last.
    private(set) var entry: BucketEntry?
    /// The order key of `entry`.
    private(set) var order: UInt64?
    /// Places read so far, and the id of the last.
    private var read = 0
    private var lastID: [UInt8] = []

    init(db: Database, kind: StoredKind) throws {
        self.db = db
        self.kind = kind
        lastKey = PlaceBucket.keys(ofKind: kind.number).lowerBound - 1
        try advance()
    }

    /// Moves to the next place.
    func advance() throws {
        while true {
            if let next = try reader?.next() {
                let nextOrder = PlaceBucket.orderKey(PlaceBucket.hash(next.id, seed: kind.seed))
                // In order, or the removals logged beside the merge would be wrong. (The last id is
                // a copy: the bucket it was read from may have been replaced since.)
                if let order, !(order < nextOrder || (order == nextOrder && lastID.lexicographicallyPrecedes(next.id)))
                {
                    throw SQLiteStoreError.corrupt("kind \"\(kind.name)\" holds places out of order")
                }
                (entry, order) = (next, nextOrder)
                lastID.removeAll(keepingCapacity: true)
                lastID.append(contentsOf: next.id)
                read += 1
                return
            }
            let statement = try db.cachedStatement(
                sql: "SELECT key, data FROM place_bucket WHERE key > ? AND key <= ? ORDER BY key LIMIT 1")
            try statement.setArguments([lastKey, PlaceBucket.keys(ofKind: kind.number).upperBound])
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            guard sqlite3_step(raw) == SQLITE_ROW else {
                guard read == kind.count else {
                    throw SQLiteStoreError.corrupt("kind \"\(kind.name)\" holds \(read) places, not \(kind.count)")
                }
                (entry, order, reader) = (nil, nil, nil)
                return
            }
            lastKey = sqlite3_column_int64(raw, 0)
            data.replace(withColumn: 1, of: raw)
            reader = try BucketReader(data.bytes)
        }
    }
}
