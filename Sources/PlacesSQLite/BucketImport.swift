import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

/// An import into the place buckets, inside the caller's write transaction, in memory bounded
/// whatever the import's size: the places set aside take up to the budget given; at the end the
/// merge holds up to four partitions (each about 1/256 of a kind's places) and one bucket.
///
/// Each place is coded as a record and kept with the others of its kind whose order key
/// (`PlaceBucket.orderKey` of the id's hash) starts with the same bits (`ImportPartitions`: in
/// memory up to a budget, then on disk). `finish` sorts each kind's partitions in turn, by order
/// key, id bytes, then reading order (`PartitionMerge`): places of the same kind and id meet
/// there, the first read is kept and the others answered as repeats. A kind that was empty, or is
/// replaced, gets a new layout sized for its places and each bucket is written once, in key
/// order; a kind that
/// holds places already is first grown to the size it will need, then each bucket the import
/// touches is read, merged and written once. The changes go to the log in the merge's order (a
/// replaced kind's places not imported again logged as removed where they would have been).
final class BucketImport {
    let db: Database
    let logging: Bool
    private var kinds: [KindImport] = []
    /// The kinds by their exact bytes, as the store keeps them apart (two spellings of one kind
    /// that `String` holds equal must not share a record).
    private var kindIndex: [[UInt8]: Int] = [:]
    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The file of the last origin coded and its number: a piece's origins all name one file.
    private var lastFile: (name: String, index: Int)?
    private var sequence = 0
    /// The places given so far, as records.
    private var partitions: ImportPartitions
    /// The places stored by `finish`, repeats left out.
    private(set) var written = 0

    /// What the import holds for one kind.
    struct KindImport {
        var name: String
        var stored: StoredKind?
        var seed: UInt64
        var replaced = false
        /// Places given, repeats included.
        var count = 0
    }

    /// - Parameters:
    ///   - logging: whether `finish` appends the changes to the log (not for a migration).
    ///   - memoryBudget: the most bytes of places held in memory before they go to disk.
    init(db: Database, logging: Bool, memoryBudget: Int = ImportPartitions.defaultBudget) {
        self.db = db
        self.logging = logging
        partitions = ImportPartitions(budget: memoryBudget)
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

    /// Codes a piece's places as records and keeps them, in memory or on disk.
    ///
    /// - Parameter origins: where each place was read (as long as `places`), or nil.
    func add(_ places: [Place], origins: [SourceLocation]?) throws {
        precondition(origins == nil || origins?.count == places.count, "one origin per place")
        // Worked on as a local: a stored property would be checked for exclusive access at each
        // record.
        var partitions = ImportPartitions(budget: 0)
        swap(&partitions, &self.partitions)
        defer { swap(&partitions, &self.partitions) }
        var body: [UInt8] = []
        var last: (name: String, index: Int, seed: UInt64)?
        // Places of the last kind not yet counted in `kinds`.
        var uncounted = 0
        defer { if let last { kinds[last.index].count += uncounted } }
        // Each place is read where it is (`places[offset]`), not copied out of the array.
        for offset in places.indices {
            let kind: Int
            let seed: UInt64
            if let last, last.name.utf8.elementsEqual(places[offset].kind.utf8) {
                (kind, seed) = (last.index, last.seed)
            } else {
                if let last { kinds[last.index].count += uncounted }
                uncounted = 0
                kind = try state(of: places[offset].kind)
                seed = kinds[kind].seed
                partitions.reserve(kinds: kinds.count)
                last = (places[offset].kind, kind, seed)
            }
            try SQLitePlaceStore.checkStorable(places[offset])
            var id = places[offset].id
            let order = PlaceBucket.orderKey(id.withUTF8 { PlaceBucket.hash($0, seed: seed) })
            // The rest of a record: the sequence number in the import, the file (1-based; 0 for
            // none) and the position (zigzag), all LEB128, then the bucket entry.
            body.removeAll(keepingCapacity: true)
            BucketWriter.appendLength(sequence + offset, to: &body)
            let (file, position) = code(origins?[offset])
            BucketWriter.appendLength(file, to: &body)
            BucketWriter.appendLength(Int(bitPattern: UInt(bitPattern: position << 1 ^ position >> 63)), to: &body)
            SQLitePlaceStore.appendEntry(places[offset], to: &body)
            body.withUnsafeBytes { partitions.append(kind: kind, order: order, body: $0) }
            uncounted += 1
        }
        try partitions.spillIfOver()
        sequence += places.count
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

    /// Sorts every kind's places into its buckets and logs the changes.
    ///
    /// - Returns: the places left out as repeats, in reading order.
    func finish() throws -> [PlaceRepeat] {
        var repeats: [(sequence: Int, value: PlaceRepeat)] = []
        var log = ImportLogWriter(db: db, enabled: logging)
        let order = kinds.indices.sorted { kinds[$0].name.utf8.lexicographicallyPrecedes(kinds[$1].name.utf8) }
        for index in order {
            let kind = kinds[index]
            var merge = PartitionMerge(partitions.take(kind: index))
            let onRepeat = { [self] (found: ImportRepeat) in
                repeats.append(
                    (
                        found.sequence,
                        PlaceRepeat(
                            kind: kind.name, id: String(decoding: found.id, as: UTF8.self),
                            at: origin(file: found.file, position: found.position),
                            firstAt: origin(file: found.firstFile, position: found.firstPosition))
                    ))
            }
            if let stored = kind.stored, !kind.replaced {
                written += try mergeIntoStored(stored, kind: kind, merge: &merge, log: &log, onRepeat: onRepeat)
            } else {
                written += try writeFresh(kind, merge: &merge, log: &log, onRepeat: onRepeat)
            }
        }
        try log.finish()
        return repeats.sorted { $0.sequence < $1.sequence }.map(\.value)
    }
}
