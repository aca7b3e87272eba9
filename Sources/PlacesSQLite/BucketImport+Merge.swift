import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

extension BucketImport {
    /// Writes a kind that was empty or is replaced under a new number: each bucket once, in key
    /// order. A new kind's buckets and log rows are made on the merge's thread; a replaced kind's
    /// old buckets are read alongside (same seed, so in the same order) for the places to log as
    /// removed, then deleted.
    func writeFresh(
        _ kind: KindImport, merge: inout PartitionMerge, log: inout ImportLogWriter,
        onRepeat: (ImportRepeat) -> Void
    ) throws -> Int {
        var record = try SQLitePlaceStore.newKind(
            db, kind.name, seed: kind.seed, layout: BucketLayout(forCount: kind.count))
        let old = try kind.stored.map { try OldBuckets(db: db, kind: $0) }
        var kindText = kind.name
        try kindText.withUTF8 { try log.start(kind: $0) }
        guard let old else {
            try merge.forEachBuilt(layout: record.layout, kind: Array(kind.name.utf8), logging: logging) { built in
                for (address, bucket) in built.buckets {
                    try SQLitePlaceStore.writeBucket(
                        db, key: PlaceBucket.key(kind: record.number, address: address), bucket)
                }
                for row in built.rows { try log.add(row: row) }
                for found in built.repeats { onRepeat(found) }
                record.count += built.placed
            }
            try SQLitePlaceStore.save(record, in: db)
            return record.count
        }
        var bucket = BucketWriter()
        var address = -1
        try merge.forEach(onRepeat: onRepeat) { entry, order in
            while let oldOrder = old.order, let oldID = old.entry?.id,
                oldOrder < order || (oldOrder == order && oldID.lexicographicallyPrecedes(entry.id))
            {
                try log.add(removing: oldID)
                try old.advance()
            }
            if let oldOrder = old.order, oldOrder == order, old.entry?.id.elementsEqual(entry.id) == true {
                try old.advance()
            }
            let target = record.layout.address(order.bitsReversed)
            if target != address {
                if address >= 0 {
                    try SQLitePlaceStore.writeBucket(
                        db, key: PlaceBucket.key(kind: record.number, address: address), bucket)
                }
                bucket = BucketWriter(reservingCapacity: 4_096)
                address = target
            }
            bucket.append(entryBytes: UnsafeRawBufferPointer(entry.raw))
            record.count += 1
            try log.add(putting: entry)
        }
        while let oldID = old.entry?.id {
            try log.add(removing: oldID)
            try old.advance()
        }
        if address >= 0 {
            try SQLitePlaceStore.writeBucket(db, key: PlaceBucket.key(kind: record.number, address: address), bucket)
        }
        if let stored = kind.stored {
            let keys = PlaceBucket.keys(ofKind: stored.number)
            try db.execute(
                sql: "DELETE FROM place_bucket WHERE key BETWEEN ? AND ?",
                arguments: [keys.lowerBound, keys.upperBound])
        }
        try SQLitePlaceStore.save(record, in: db)
        return record.count
    }

    /// Merges the import into a kind that holds places: grown first to the buckets the sum needs,
    /// then each bucket the import touches read, merged and written once.
    func mergeIntoStored(
        _ stored: StoredKind, kind: KindImport, merge: inout PartitionMerge, log: inout ImportLogWriter,
        onRepeat: (ImportRepeat) -> Void
    ) throws -> Int {
        var record = stored
        while record.layout.isCrowded(count: stored.count + kind.count) {
            try SQLitePlaceStore.split(db, kind: &record)
        }
        var group = BucketWriter()
        var groupOrders: [UInt64] = []
        var groupRanges: [Range<Int>] = []
        var address = -1
        var written = 0
        func flush() throws {
            guard address >= 0 else { return }
            let key = PlaceBucket.key(kind: record.number, address: address)
            let old = try SQLitePlaceStore.readBucket(db, key: key) ?? []
            var merged = BucketWriter(reservingCapacity: old.count + group.bytes.count)
            var next = 0
            var oldCount = 0
            try group.bytes.withUnsafeBytes { added in
                func takeAdded(upTo order: UInt64?, id: UnsafeBufferPointer<UInt8>?) throws {
                    while next < groupOrders.count {
                        let range = groupRanges[next]
                        if let order, let id {
                            let addedID = try BucketEntryParser.id(in: UnsafeRawBufferPointer(rebasing: added[range]))
                            guard
                                groupOrders[next] < order
                                    || (groupOrders[next] == order && !id.lexicographicallyPrecedes(addedID))
                            else { return }
                        }
                        merged.append(entryBytes: UnsafeRawBufferPointer(rebasing: added[range]))
                        next += 1
                    }
                }
                try old.withUnsafeBytes { raw in
                    if !raw.isEmpty {
                        var reader = try BucketReader(raw)
                        while let entry = try reader.next() {
                            oldCount += 1
                            let order = PlaceBucket.orderKey(PlaceBucket.hash(entry.id, seed: record.seed))
                            let before = next
                            try takeAdded(upTo: order, id: entry.id)
                            if next > before,
                                groupOrders[next - 1] == order,
                                try BucketEntryParser.id(
                                    in: UnsafeRawBufferPointer(rebasing: added[groupRanges[next - 1]])
                                )
                                .elementsEqual(entry.id)
                            {
                                continue
                            }
                            merged.append(entryBytes: UnsafeRawBufferPointer(rebasing: raw[entry.bytes]))
                        }
                    }
                    try takeAdded(upTo: nil, id: nil)
                }
            }
            record.count += merged.count - oldCount
            try SQLitePlaceStore.writeBucket(db, key: key, merged)
        }
        var kindText = kind.name
        try kindText.withUTF8 { try log.start(kind: $0) }
        do {
            try merge.forEach(onRepeat: onRepeat) { entry, order in
                let target = record.layout.address(order.bitsReversed)
                if target != address {
                    try flush()
                    group = BucketWriter(reservingCapacity: 4_096)
                    groupOrders.removeAll(keepingCapacity: true)
                    groupRanges.removeAll(keepingCapacity: true)
                    address = target
                }
                let start = group.bytes.count
                group.append(entryBytes: UnsafeRawBufferPointer(entry.raw))
                groupOrders.append(order)
                groupRanges.append(start..<group.bytes.count)
                written += 1
                try log.add(putting: entry)
            }
        }
        try flush()
        try SQLitePlaceStore.save(record, in: db)
        return written
    }
}
