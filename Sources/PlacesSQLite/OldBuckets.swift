import Foundation
import GRDB
import GRDBSQLite

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
