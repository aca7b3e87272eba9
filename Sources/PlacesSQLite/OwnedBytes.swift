import Foundation
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

    deinit { buffer.deallocate() }
}
