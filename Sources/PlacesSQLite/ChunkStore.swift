import Foundation
import GRDB
import GRDBSQLite

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

    /// Replaces the bytes with `count` bytes that `fill` writes.
    func replace(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        if count > buffer.count {
            buffer.deallocate()
            buffer = .allocate(byteCount: max(count, 2 * buffer.count), alignment: 8)
        }
        self.count = 0
        try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        self.count = count
    }

    deinit { buffer.deallocate() }
}

/// Byte chunks an import sets aside under integer keys, each put and read once: in memory up to
/// a budget, then all in a `SpillFile` (on disk).
final class ChunkStore {
    private var memory: [Int64: OwnedBytes] = [:]
    private var memoryBytes = 0
    private var file: SpillFile?
    private var extents: [Int64: ImportPartitions.Extent] = [:]
    private let memoryBudget: Int
    /// The most bytes of chunks an import holds in memory, unless told otherwise.
    static let defaultMemoryBudget = 96 << 20

    /// - Parameter memoryBudget: the most bytes of chunks held in memory.
    init(memoryBudget: Int = ChunkStore.defaultMemoryBudget) {
        self.memoryBudget = memoryBudget
    }

    func put(_ chunk: [UInt8], key: Int64) throws {
        if file == nil && memoryBytes + chunk.count <= memoryBudget {
            let owned = OwnedBytes()
            chunk.withUnsafeBytes { owned.replace(with: $0) }
            memory[key] = owned
            memoryBytes += chunk.count
            return
        }
        let file = try self.file ?? SpillFile()
        if self.file == nil {
            self.file = file
            for (key, chunk) in memory.sorted(by: { $0.key < $1.key }) {
                extents[key] = ImportPartitions.Extent(offset: try file.append(chunk.bytes), count: chunk.count)
            }
            memory = [:]
            memoryBytes = 0
        }
        extents[key] = ImportPartitions.Extent(
            offset: try chunk.withUnsafeBytes { try file.append($0) }, count: chunk.count)
    }

    /// A chunk: the one held in memory (let go by the store: each chunk is read once), or a copy
    /// into `bytes` of the one on disk.
    func get(_ key: Int64, into bytes: OwnedBytes) throws -> OwnedBytes {
        if let chunk = memory.removeValue(forKey: key) {
            memoryBytes -= chunk.count
            return chunk
        }
        guard let file, let extent = extents.removeValue(forKey: key) else {
            throw SQLiteStoreError.writeFailed("the import's set-aside data: chunk \(key) is missing")
        }
        try bytes.replace(count: extent.count) { try file.read(at: extent.offset, into: $0) }
        return bytes
    }
}
