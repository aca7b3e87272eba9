/// Where a streamed import writes, piece by piece, inside the one transaction its store opened
/// (`BulkPlaceStore.storeStreaming`).
public protocol PlaceImportSink: AnyObject {
    /// Writes the piece's places, each already checked by `PlaceImport`, except those whose kind
    /// and id this import has written before (from this piece or an earlier one).
    ///
    /// - Parameter origins: where each place was read, as long as `places.places`.
    /// - Returns: the places left out as repeats, in order: their offset in the piece and where
    ///   the first place of that kind and id was read.
    func write(_ places: PlaceImport, origins: [SourceLocation]) throws -> [(offset: Int, firstAt: SourceLocation)]

    /// Ends the writing: a sink that finds repeats only once every piece is in (SQLite's, which
    /// sorts the pieces by key) answers them here, in the order they were read; `write` then
    /// answers none. Called once, after the last `write`; the store calls it when `body` did not.
    func finish() throws -> [PlaceRepeat]
}

/// A place left out of an import because its kind and id were read before.
public struct PlaceRepeat: Sendable, Equatable {
    public var kind: String
    public var id: String
    /// Where the repeat was read.
    public var at: SourceLocation
    /// Where the place kept (the first of that kind and id) was read.
    public var firstAt: SourceLocation

    public init(kind: String, id: String, at: SourceLocation, firstAt: SourceLocation) {
        self.kind = kind
        self.id = id
        self.at = at
        self.firstAt = firstAt
    }
}

extension BulkPlaceStore {
    /// Stores an import given piece by piece: `body` writes the pieces into the sink, and the
    /// store keeps them in one transaction, all or none — if `body` throws, nothing is stored and
    /// its error is thrown as it is.
    ///
    /// This default holds every place in memory and stores them with `store(_:replacingKinds:
    /// progress:)` at the end; a store that can (SQLite) writes each piece as it comes.
    ///
    /// - Parameters:
    ///   - replacingKinds: kinds whose stored places are deleted first.
    ///   - replacingEveryKindWritten: whether the kind of every place written is replaced too.
    ///   - progress: called now and then with the number of places stored so far.
    public func storeStreaming(
        replacingKinds: Set<String>, replacingEveryKindWritten: Bool, progress: ((Int) -> Void)?,
        _ body: (any PlaceImportSink) throws -> Void
    ) throws {
        let sink = MemoryImportSink()
        try body(sink)
        let kinds = replacingEveryKindWritten ? replacingKinds.union(sink.batch.kinds) : replacingKinds
        try store(sink.batch, replacingKinds: kinds, progress: progress)
    }
}

/// The sink of `storeStreaming`'s default: every place in memory until the end.
private final class MemoryImportSink: PlaceImportSink {
    var batch = PlaceImport()
    private var firstSeen: [PlaceKey: SourceLocation] = [:]

    func write(_ places: PlaceImport, origins: [SourceLocation]) throws -> [(offset: Int, firstAt: SourceLocation)] {
        var repeats: [(offset: Int, firstAt: SourceLocation)] = []
        for (offset, place) in places.places.enumerated() {
            let key = PlaceKey(kind: place.kind, id: place.id)
            if let first = firstSeen[key] {
                repeats.append((offset, first))
                continue
            }
            firstSeen[key] = origins[offset]
            batch.appendChecked(place)
        }
        return repeats
    }

    func finish() throws -> [PlaceRepeat] { [] }
}
