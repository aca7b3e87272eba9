import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

/// An import into the place buckets, inside the caller's write transaction, holding about one
/// piece in memory whatever the import's size.
///
/// Each piece is sorted by kind, then by the order the buckets keep (`PlaceBucket.orderKey` of
/// the id's hash, then id bytes, then reading order), and written as runs of chunks to a temporary
/// table. `finish` merges each kind's runs: places of the same kind and id meet there, the first
/// read is kept and the others answered as repeats. A kind that was empty, or is replaced, gets a
/// new layout sized for its places and each bucket is written once, in key order; a kind that
/// holds places already is first grown to the size it will need, then each bucket the import
/// touches is read, merged and written once. The changes go to the log in the merge's order (a
/// replaced kind's places not imported again logged as removed where they would have been).
final class BucketImport {
    let db: Database
    private let logging: Bool
    private var kinds: [KindImport] = []
    /// The kinds by their exact bytes, as the store keeps them apart (two spellings of one kind
    /// that `String` holds equal must not share a record).
    private var kindIndex: [[UInt8]: Int] = [:]
    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The file of the last origin coded and its number: a piece's origins all name one file.
    private var lastFile: (name: String, index: Int)?
    private var sequence = 0
    private var runs = 0
    /// The current piece's records in reading order, and where each ends.
    private var records: [UInt8] = []
    private var recordEnds: [Int] = []
    /// The runs' chunks.
    let store: ChunkStore
    /// The places stored by `finish`, repeats left out.
    private(set) var written = 0
    /// Records per chunk of a run.
    static let recordsPerChunk = 1_024

    /// What the import holds for one kind.
    struct KindImport {
        var name: String
        var stored: StoredKind?
        var seed: UInt64
        var replaced = false
        /// Each run's number and chunks.
        var runs: [(number: Int, chunks: Int)] = []
        /// Places given, repeats included.
        var count = 0
    }

    /// Prepares the temporary tables (any left over from an earlier import are dropped).
    ///
    /// - Parameters:
    ///   - logging: whether `finish` appends the changes to the log (not for a migration).
    ///   - memoryBudget: the most bytes of sorted places held in memory before they go to disk.
    init(db: Database, logging: Bool, memoryBudget: Int = ChunkStore.defaultMemoryBudget) throws {
        self.db = db
        self.logging = logging
        store = ChunkStore(db: db, memoryBudget: memoryBudget)
        try db.execute(
            sql: """
                DROP TABLE IF EXISTS temp.vicinity_import_chunk;
                CREATE TEMP TABLE vicinity_import_chunk (key INTEGER PRIMARY KEY, data BLOB NOT NULL);
                """)
    }

    /// Drops the temporary tables.
    func drop() throws {
        try db.execute(sql: "DROP TABLE temp.vicinity_import_chunk")
    }

    /// Marks a kind as replaced: its stored places that the import does not put back are removed.
    func replace(kind: String) throws {
        kinds[try state(of: kind)].replaced = true
    }

    /// Whether `kind` is replaced.
    func isReplaced(_ kind: String) -> Bool { kindIndex[Array(kind.utf8)].map { kinds[$0].replaced } ?? false }

    private func state(of kind: String) throws -> Int {
        let key = Array(kind.utf8)
        if let index = kindIndex[key] { return index }
        let stored = try SQLitePlaceStore.storedKind(db, kind)
        kinds.append(KindImport(name: kind, stored: stored, seed: stored?.seed ?? UInt64.random(in: .min ... .max)))
        kindIndex[key] = kinds.count - 1
        return kinds.count - 1
    }

    /// Sorts a piece and writes it as runs, one per kind in it.
    ///
    /// The records are coded in reading order first, into one buffer, and then copied in sorted
    /// order: the sorted pass reads a few compact megabytes, not the piece's places.
    ///
    /// - Parameter origins: where each place was read (as long as `places`), or nil.
    func add(_ places: [Place], origins: [SourceLocation]?) throws {
        precondition(origins == nil || origins?.count == places.count, "one origin per place")
        var keys: [(order: UInt64, kind: Int, offset: Int)] = []
        keys.reserveCapacity(places.count)
        records.removeAll(keepingCapacity: true)
        recordEnds.removeAll(keepingCapacity: true)
        recordEnds.reserveCapacity(places.count)
        var last: (name: String, index: Int)?
        for (offset, place) in places.enumerated() {
            let kind: Int
            if let last, last.name.utf8.elementsEqual(place.kind.utf8) {
                kind = last.index
            } else {
                kind = try state(of: place.kind)
                last = (place.kind, kind)
            }
            try SQLitePlaceStore.checkStorable(place)
            var id = place.id
            let seed = kinds[kind].seed
            let order = PlaceBucket.orderKey(id.withUTF8 { PlaceBucket.hash($0, seed: seed) })
            keys.append((order, kind, offset))
            // A record: the order key (8 bytes), the sequence number in the import, the file
            // (1-based; 0 for none) and the position (zigzag), all LEB128, then the bucket entry.
            withUnsafeBytes(of: order.littleEndian) { records.append(contentsOf: $0) }
            BucketWriter.appendLength(sequence + offset, to: &records)
            let (file, position) = code(origins?[offset])
            BucketWriter.appendLength(file, to: &records)
            BucketWriter.appendLength(Int(bitPattern: UInt(bitPattern: position << 1 ^ position >> 63)), to: &records)
            SQLitePlaceStore.appendEntry(place, to: &records)
            recordEnds.append(records.count)
        }
        BucketImport.sort(&keys) { a, b in
            let (x, y) = (places[a].id.utf8, places[b].id.utf8)
            if !x.elementsEqual(y) { return x.lexicographicallyPrecedes(y) }
            return a < b
        }
        var start = 0
        while start < keys.count {
            var end = start
            while end < keys.count && keys[end].kind == keys[start].kind { end += 1 }
            try writeRun(keys[start..<end])
            start = end
        }
        sequence += places.count
    }

    /// Sorts keys by kind, order key, then `tie` (given two offsets): by kind with a counting
    /// sort, then each kind's keys into buckets by the order key's top bits (hashes are uniform,
    /// so a bucket holds about one key), each bucket finished by insertion.
    static func sort(
        _ keys: inout [(order: UInt64, kind: Int, offset: Int)], tie: (Int, Int) -> Bool
    ) {
        guard keys.count > 1 else { return }
        func less(_ a: (order: UInt64, kind: Int, offset: Int), _ b: (order: UInt64, kind: Int, offset: Int)) -> Bool {
            a.order != b.order ? a.order < b.order : tie(a.offset, b.offset)
        }
        let kinds = (keys.map(\.kind).max() ?? 0) + 1
        var sorted = keys
        if kinds > 1 {
            var starts = [Int](repeating: 0, count: kinds + 1)
            for key in keys { starts[key.kind + 1] += 1 }
            for kind in 0..<kinds { starts[kind + 1] += starts[kind] }
            var next = starts
            for key in keys {
                sorted[next[key.kind]] = key
                next[key.kind] += 1
            }
            keys = sorted
        }
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end].kind == keys[start].kind { end += 1 }
            let count = end - start
            let bits = max(1, min(20, Int.bitWidth - count.leadingZeroBitCount))
            var starts = [Int](repeating: 0, count: (1 << bits) + 1)
            for index in start..<end { starts[Int(keys[index].order >> UInt64(64 - bits)) + 1] += 1 }
            for bucket in 0..<(1 << bits) { starts[bucket + 1] += starts[bucket] }
            var next = starts
            for index in start..<end {
                let bucket = Int(keys[index].order >> UInt64(64 - bits))
                sorted[start + next[bucket]] = keys[index]
                next[bucket] += 1
            }
            for bucket in 0..<(1 << bits) where starts[bucket + 1] - starts[bucket] > 1 {
                let low = start + starts[bucket]
                for index in (low + 1)..<(start + starts[bucket + 1]) {
                    let key = sorted[index]
                    var slot = index
                    while slot > low && less(key, sorted[slot - 1]) {
                        sorted[slot] = sorted[slot - 1]
                        slot -= 1
                    }
                    sorted[slot] = key
                }
            }
            start = end
        }
        keys = sorted
    }

    /// Writes one kind's sorted records (of `records`) as a run of chunks: the number of records
    /// (4 bytes), then the records.
    private func writeRun(_ keys: ArraySlice<(order: UInt64, kind: Int, offset: Int)>) throws {
        let run = runs
        runs += 1
        var chunks = 0
        var bytes: [UInt8] = []
        var count = 0
        func flush() throws {
            guard count > 0 else { return }
            withUnsafeBytes(of: UInt32(count).littleEndian) { for index in 0..<4 { bytes[index] = $0[index] } }
            try store.put(bytes, key: Int64(run) << 24 | Int64(chunks))
            chunks += 1
            count = 0
        }
        try records.withUnsafeBufferPointer { records in
            for key in keys {
                if count == 0 {
                    bytes.removeAll(keepingCapacity: true)
                    bytes += [0, 0, 0, 0]
                }
                let start = key.offset == 0 ? 0 : recordEnds[key.offset - 1]
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: records[start..<recordEnds[key.offset]]))
                count += 1
                if count == Self.recordsPerChunk { try flush() }
            }
        }
        try flush()
        let kind = keys.first!.kind
        kinds[kind].runs.append((run, chunks))
        kinds[kind].count += keys.count
    }

    /// An origin as two integers: its file (1-based, 0 for none), and its line (> 0), its feature
    /// (< 0: -1 is feature 0) or 0 for the whole file.
    private func code(_ origin: SourceLocation?) -> (file: Int, position: Int) {
        guard let origin else { return (0, 0) }
        let file: Int
        if let lastFile, lastFile.name == origin.file {
            file = lastFile.index
        } else if let index = fileIndex[origin.file] {
            file = index
        } else {
            files.append(origin.file)
            file = files.count
            fileIndex[origin.file] = file
        }
        lastFile = (origin.file, file)
        switch origin.position {
        case .file: return (file, 0)
        case .line(let line): return (file, line)
        case .feature(let index): return (file, -index - 1)
        }
    }

    private func origin(file: Int, position: Int) -> SourceLocation {
        let name = file > 0 && file <= files.count ? files[file - 1] : ""
        switch position {
        case 0: return SourceLocation(file: name)
        case 1...: return SourceLocation(file: name, position: .line(position))
        default: return SourceLocation(file: name, position: .feature(-position - 1))
        }
    }

    /// Merges every kind's runs into its buckets and logs the changes.
    ///
    /// - Returns: the places left out as repeats, in reading order.
    func finish() throws -> [PlaceRepeat] {
        var repeats: [(sequence: Int, value: PlaceRepeat)] = []
        var log = ImportLogBuffer(db: db, store: store, enabled: logging)
        let order = kinds.indices.sorted { kinds[$0].name.utf8.lexicographicallyPrecedes(kinds[$1].name.utf8) }
        for index in order {
            let kind = kinds[index]
            var merge = try RunMerge(store: store, runs: kind.runs)
            let onRepeat = { [self] (record: RunRecord, first: (file: Int, position: Int)) in
                repeats.append(
                    (
                        record.sequence,
                        PlaceRepeat(
                            kind: kind.name, id: String(decoding: record.entry.id, as: UTF8.self),
                            at: origin(file: record.file, position: record.position),
                            firstAt: origin(file: first.file, position: first.position))
                    ))
            }
            if let stored = kind.stored, !kind.replaced {
                written += try mergeIntoStored(stored, kind: kind, merge: &merge, log: &log, onRepeat: onRepeat)
            } else {
                written += try writeFresh(kind, merge: &merge, log: &log, onRepeat: onRepeat)
            }
        }
        try log.appendToLog()
        return repeats.sorted { $0.sequence < $1.sequence }.map(\.value)
    }
}
