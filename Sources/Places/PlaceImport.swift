/// The façade's bulk path: many places checked one by one with the rules of every other write
/// (`PlaceDirectory.checked`), then stored in one transaction by a `BulkPlaceStore`. `vicinity
/// import` and the first run's seeding write through it, so no place reaches a store unchecked.
///
/// ```swift
/// var batch = PlaceImport()
/// for place in file.places { try batch.add(place) }   // the first bad place throws
/// try batch.store(into: store)
/// ```
public struct PlaceImport: Sendable {
    /// The places added so far, as they will be stored (kinds and ids in Unicode NFC).
    public private(set) var places: [Place] = []

    public init(reservingCapacity capacity: Int = 0) { places.reserveCapacity(capacity) }

    /// Adds a place once it passes the rules of `setPlace`.
    ///
    /// - Throws: the first rule it breaks (`PlacesError.invalidKind`, `.invalidValue`, …); it is
    ///   then not added.
    public mutating func add(_ place: consuming Place) throws(PlacesError) {
        places.append(try PlaceDirectory.checked(place))
    }

    /// Adds the places of `places` that pass the rules of `setPlace`, in order, each checked in
    /// place as `add` checks it (no place is copied).
    ///
    /// - Returns: the places refused, by offset in `places`, with the first rule each breaks.
    public mutating func add(contentsOf places: consuming [Place]) -> [(offset: Int, error: PlacesError)] {
        var places = places
        var refused: [(offset: Int, error: PlacesError)] = []
        for index in places.indices {
            do throws(PlacesError) {
                try PlaceDirectory.check(&places[index])
            } catch {
                refused.append((index, error))
            }
        }
        if !refused.isEmpty {
            var kept: [Place] = []
            kept.reserveCapacity(places.count - refused.count)
            var next = 0
            for (index, place) in places.enumerated() {
                if next < refused.count && refused[next].offset == index {
                    next += 1
                } else {
                    kept.append(place)
                }
            }
            places = kept
        }
        if self.places.isEmpty {
            self.places = places
        } else {
            self.places.append(contentsOf: places)
        }
        return refused
    }

    /// Appends a place that an earlier `add` has checked.
    mutating func appendChecked(_ place: Place) { places.append(place) }

    /// Takes back the place added last (an importer that finds it is a duplicate across files).
    public mutating func removeLast() { places.removeLast() }

    /// The kinds of the places added.
    public var kinds: Set<String> { Set(places.map(\.kind)) }

    /// Stores every place added in one transaction, all or none; an existing place of the same
    /// kind and id is replaced. Writing a batch is the operator's act (it has the database file),
    /// so it asks no token.
    ///
    /// - Parameters:
    ///   - replacingKinds: kinds whose stored places are deleted first, in the same transaction.
    ///   - progress: called now and then with the number of places stored so far.
    public func store(
        into store: some BulkPlaceStore, replacingKinds: Set<String> = [], progress: ((Int) -> Void)? = nil
    ) throws {
        try store.store(self, replacingKinds: replacingKinds, progress: progress)
    }
}

/// A store that takes many places in one transaction. It takes them only as a `PlaceImport`,
/// whose places have all been checked.
public protocol BulkPlaceStore: PlaceStore {
    /// Stores the batch's places in one transaction, all or none, after deleting every stored
    /// place of `replacingKinds`; returns once durable.
    func store(_ batch: PlaceImport, replacingKinds: Set<String>, progress: ((Int) -> Void)?) throws

    /// Stores an import given piece by piece through a sink, in one transaction, all or none (a
    /// default holds the pieces in memory: see the extension).
    func storeStreaming(
        replacingKinds: Set<String>, replacingEveryKindWritten: Bool, progress: ((Int) -> Void)?,
        _ body: (any PlaceImportSink) throws -> Void) throws
}
