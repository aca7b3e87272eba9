import Foundation
import GRDB
import Places

extension SQLitePlaceStore {
    /// Stores an import given piece by piece, in one transaction, all or none, in memory bounded
    /// whatever the import's size (`BucketImport`).
    ///
    /// Each piece's places are set aside (in memory up to a budget, then in a temporary file) and
    /// sorted into the buckets at the end (`BucketImport`), where a kind and id
    /// written twice is found: the sink's `write` answers no repeats, its `finish` answers them
    /// all, in reading order (called here when `body` did not). With replacement, a kind's stored
    /// places not imported again are removed. The change log gets the places removed and stored.
    ///
    /// - Throws: what `body` throws, as it is; `SQLiteStoreError.writeFailed` otherwise. Nothing
    ///   of the import is then stored.
    public func storeStreaming(
        replacingKinds: Set<String>, replacingEveryKindWritten: Bool, progress: ((Int) -> Void)?,
        _ body: (any PlaceImportSink) throws -> Void
    ) throws {
        var bodyError: (any Error)?
        do {
            try bulkWrite { db in
                let importer = BucketImport(db: db, logging: true, memoryBudget: importMemoryBudget.withLock { $0 })
                let sink = BucketImportSink(importer: importer, replacingEveryKind: replacingEveryKindWritten)
                // Kinds are stored composed (`PlaceDirectory.checked`): so is a kind to replace.
                for kind in Set(replacingKinds.map(PlaceDirectory.composed)).sorted() {
                    try importer.replace(kind: kind)
                }
                do {
                    try body(sink)
                } catch {
                    bodyError = error
                    throw error
                }
                if !sink.finished { _ = try sink.finish() }
                progress?(importer.written)
            }
        } catch {
            if let bodyError { throw bodyError }
            throw error
        }
    }
}

/// The SQLite sink of a streamed import: sorts each piece aside inside the import's transaction.
private final class BucketImportSink: PlaceImportSink {
    private let importer: BucketImport
    private let replacingEveryKind: Bool
    private(set) var finished = false
    /// The kind last seen replaced.
    private var lastReplaced: String?

    init(importer: BucketImport, replacingEveryKind: Bool) {
        self.importer = importer
        self.replacingEveryKind = replacingEveryKind
    }

    func write(_ batch: PlaceImport, origins: [SourceLocation]) throws -> [(offset: Int, firstAt: SourceLocation)] {
        precondition(!finished, "a piece written after the import's end")
        precondition(origins.count == batch.places.count, "one origin per place")
        if replacingEveryKind {
            for place in batch.places where !(lastReplaced?.utf8.elementsEqual(place.kind.utf8) ?? false) {
                if !importer.isReplaced(place.kind) { try importer.replace(kind: place.kind) }
                lastReplaced = place.kind
            }
        }
        try importer.add(batch.places, origins: origins)
        return []
    }

    func finish() throws -> [PlaceRepeat] {
        precondition(!finished, "an import finished twice")
        finished = true
        return try importer.finish()
    }
}
