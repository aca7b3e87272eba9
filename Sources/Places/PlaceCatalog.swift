import Foundation
import Geo

/// Places from one or more files, indexed for "what is near this point" queries.
///
/// Places are grouped by kind. Each kind has its own `GridIndex`, and each place gets a handle
/// that is dense within its kind: the places of a kind have handles 0, 1, 2, … in the order they
/// were added, except that the first 1,024 or more added to a new kind at once are numbered in a
/// spatial order (nearby places, nearby in memory). A place is identified by kind and id; adding a second place with the same pair is
/// an error that names where both came from.
///
/// Queries for a kind that the catalog does not hold return no places rather than an error: an
/// empty collection (say, users when every user is private) is a normal state. Callers that want
/// to reject a misspelt kind can check `kinds`.
///
/// ```swift
/// var catalog = try PlaceCatalog()
/// try catalog.load(path: "Data/pharmacies-istanbul-example.csv", defaultKind: "pharmacy")
/// let here = try Coordinate(latitude: 41.088154, longitude: 29.015615)
/// let hits = try catalog.nearby(here, radiusMeters: 500, kind: "pharmacy")  // Omur, 131.9 m
/// ```
///
/// A value type: copies are independent. Not safe to mutate from several threads at once; any
/// number of threads may query one value.
public struct PlaceCatalog: Sendable {
    /// The places of one kind and their index.
    struct Collection: Sendable {
        var index: GridIndex
        /// `places[handle]`.
        var places: [Place] = []
        /// `origins[handle]`: where the place was read, nil if added in code.
        var origins: [SourceLocation?] = []
        var handleByID: [String: UInt32] = [:]
    }

    /// The grid cell side of every index in meters (`GridIndex`'s default unless set).
    public let cellSizeMeters: Double
    var collections: [String: Collection] = [:]
    /// An index with nothing in it: queries for an unknown kind run on it, so that they validate
    /// their arguments exactly as queries for a known kind do.
    let emptyIndex: GridIndex

    /// Creates an empty catalog.
    ///
    /// - Parameter cellSizeMeters: the grid cell side for every kind's index, 10...100,000 m; nil
    ///   for `GridIndex`'s default.
    /// - Throws: `PlacesError.geo(.invalidCellSize)`.
    public init(cellSizeMeters: Double? = nil) throws(PlacesError) {
        do throws(GeoError) {
            if let cellSizeMeters {
                emptyIndex = try GridIndex(cellSizeMeters: cellSizeMeters)
            } else {
                emptyIndex = try GridIndex()
            }
        } catch {
            throw .geo(error)
        }
        self.cellSizeMeters = emptyIndex.cellSizeMeters
    }

    /// The kinds present, sorted.
    public var kinds: [String] { collections.keys.sorted() }

    /// The number of places of all kinds.
    public var count: Int { collections.values.reduce(0) { $0 + $1.places.count } }

    /// The number of places of `kind` (0 for a kind not present).
    public func count(kind: String) -> Int { collections[kind]?.places.count ?? 0 }

    /// The handle of the place with this kind and id, or nil.
    public func handle(kind: String, id: String) -> UInt32? { collections[kind]?.handleByID[id] }

    /// The place of `kind` with this handle, or nil.
    public func place(kind: String, handle: UInt32) -> Place? {
        guard let collection = collections[kind], Int(handle) < collection.places.count else { return nil }
        return collection.places[Int(handle)]
    }

    /// The place with this kind and id, or nil.
    public func place(kind: String, id: String) -> Place? {
        handle(kind: kind, id: id).flatMap { place(kind: kind, handle: $0) }
    }

    /// Where the place with this kind and id was read, or nil if it was added in code or is absent.
    public func origin(kind: String, id: String) -> SourceLocation? {
        guard let collection = collections[kind], let handle = collection.handleByID[id] else { return nil }
        return collection.origins[Int(handle)]
    }

    // MARK: - Adding

    /// Reads a file with `PlaceLoader` and adds its places.
    public mutating func load(path: String, defaultKind: String) throws(PlacesError) {
        try add(contentsOf: PlaceLoader.load(path: path, defaultKind: defaultKind))
    }

    /// Adds every place of a file, or none if any of them is a duplicate.
    ///
    /// - Throws: `PlacesError.duplicateID` naming the new place's origin and the first one's.
    public mutating func add(contentsOf file: PlaceFile) throws(PlacesError) {
        try add(contentsOf: file.places, origins: file.origins.map { Optional($0) })
    }

    /// Adds places that come from no file (a database, code), all or none if any is a duplicate.
    public mutating func add(contentsOf places: [Place]) throws(PlacesError) {
        try add(contentsOf: places, origins: [SourceLocation?](repeating: nil, count: places.count))
    }

    /// Adds one place and returns its handle within its kind.
    ///
    /// - Parameter origin: where the place comes from, for messages about duplicates.
    @discardableResult
    public mutating func add(_ place: Place, origin: SourceLocation? = nil) throws(PlacesError) -> UInt32 {
        try add(contentsOf: [place], origins: [origin])
        return UInt32(count(kind: place.kind) - 1)
    }

    /// Adds places atomically: all are checked before any is added.
    mutating func add(contentsOf places: [Place], origins: [SourceLocation?]) throws(PlacesError) {
        // Group by kind; runs of one kind (a file, a table read in key order) cost one lookup.
        var newByKind: [String: [Int]] = [:]
        var runKind: String?
        var run: [Int] = []
        for (offset, place) in places.enumerated() {
            if place.kind != runKind {
                if let runKind { newByKind[runKind, default: []] += run }
                runKind = place.kind
                run = []
            }
            run.append(offset)
        }
        if let runKind { newByKind[runKind, default: []] += run }

        // Build each kind's new id table on a copy, so that a duplicate changes nothing. A large
        // new kind builds its index at the same time, on a second thread.
        var built: [(kind: String, offsets: [Int], handleByID: [String: UInt32], index: GridIndex?)] = []
        for (kind, offsets) in newByKind.sorted(by: { $0.key < $1.key }) {
            let existing = collections[kind]
            let firstHandle = existing?.places.count ?? 0
            if firstHandle + offsets.count - 1 > GridIndex.maximumHandle {
                throw .geo(.handleOutOfRange(firstHandle + offsets.count - 1))
            }
            // A new kind of many places takes them in a spatial order, so that the places of one grid
            // cell sit together in memory: a query then reads a few runs of `places` instead of
            // missing the cache once per candidate (a third of GEOSEARCH's time over the wire).
            let unordered = offsets
            let offsets = existing == nil && offsets.count >= 1_024 ? Self.spatialOrder(places, offsets) : offsets
            let table = IDTable()
            let parallel = existing == nil && offsets.count >= 100_000
            let emptyIndex = self.emptyIndex
            DispatchQueue.concurrentPerform(iterations: parallel ? 2 : 1) { task in
                if task == 0 {
                    table.set(
                        PlaceCatalog.idTable(
                            places, offsets: offsets, origins: origins, existing: existing, firstHandle: firstHandle))
                } else {
                    var index = emptyIndex
                    let points = offsets.enumerated().map { (UInt32($0.offset), places[$0.element].coordinate) }
                    // Cannot fail: handles were checked against `maximumHandle` above.
                    try? index.insert(contentsOf: points)
                    table.set(index)
                }
            }
            if case .failure = table.result, offsets != unordered {
                // The same duplicate as the order given would find (the first repeated id in it).
                _ = try Self.idTable(
                    places, offsets: unordered, origins: origins, existing: existing, firstHandle: firstHandle
                ).get()
            }
            built.append((kind, offsets, try table.result.get(), table.index))
        }
        for (kind, offsets, handleByID, index) in built {
            var collection = collections.removeValue(forKey: kind) ?? Collection(index: emptyIndex)
            let firstHandle = collection.places.count
            if firstHandle == 0 && offsets.count == places.count && offsets.elementsEqual(places.indices) {
                // Every place is of this new kind, in order: share the arrays instead of copying them.
                collection.places = places
                collection.origins = origins
            } else {
                collection.places.reserveCapacity(firstHandle + offsets.count)
                collection.origins.reserveCapacity(firstHandle + offsets.count)
                for offset in offsets {
                    collection.places.append(places[offset])
                    collection.origins.append(origins[offset])
                }
            }
            collection.handleByID = handleByID
            if let index {
                collection.index = index
            } else {
                var points: [(handle: UInt32, coordinate: Coordinate)] = []
                points.reserveCapacity(offsets.count)
                for (position, offset) in offsets.enumerated() {
                    points.append((UInt32(firstHandle + position), places[offset].coordinate))
                }
                do {
                    // On an empty index the bulk insert sizes every cell exactly.
                    try collection.index.insert(contentsOf: points)
                } catch {
                    // Unreachable: handles were checked against `maximumHandle` above.
                    throw .geo(error)
                }
            }
            collections[kind] = collection
        }
    }
}

extension PlaceCatalog {
    /// `offsets` ordered along a Z-order (Morton) curve of latitude and longitude quantized to 2^26
    /// steps (about 0.3 m by 0.6 m at the equator), ties in the order given.
    static func spatialOrder(_ places: [Place], _ offsets: [Int]) -> [Int] {
        /// The low 26 bits of `value` spread to the even bits of the result.
        func spread(_ value: UInt64) -> UInt64 {
            var bits = value & 0x3FF_FFFF
            bits = (bits | bits << 16) & 0x0000_FFFF_0000_FFFF
            bits = (bits | bits << 8) & 0x00FF_00FF_00FF_00FF
            bits = (bits | bits << 4) & 0x0F0F_0F0F_0F0F_0F0F
            bits = (bits | bits << 2) & 0x3333_3333_3333_3333
            bits = (bits | bits << 1) & 0x5555_5555_5555_5555
            return bits
        }
        func step(_ degrees: Double, _ range: Double) -> UInt64 {
            UInt64(min(max((degrees + range) / (2 * range) * 0x1p26, 0), 0x1p26 - 1))
        }
        var keyed = offsets.map { offset in
            let coordinate = places[offset].coordinate
            return (
                key: spread(step(coordinate.latitude, 90)) << 1 | spread(step(coordinate.longitude, 180)),
                offset: offset
            )
        }
        keyed.sort { ($0.key, $0.offset) < ($1.key, $1.offset) }
        return keyed.map(\.offset)
    }

    /// The id table of a kind after adding `offsets`, or the duplicate found.
    static func idTable(
        _ places: [Place], offsets: [Int], origins: [SourceLocation?], existing: Collection?, firstHandle: Int
    ) -> Result<[String: UInt32], PlacesError> {
        var handleByID = existing?.handleByID ?? [:]
        handleByID.reserveCapacity(firstHandle + offsets.count)
        for (position, offset) in offsets.enumerated() {
            let handle = UInt32(firstHandle + position)
            if let first = handleByID.updateValue(handle, forKey: places[offset].id) {
                let firstOrigin =
                    Int(first) < firstHandle
                    ? existing?.origins[Int(first)] ?? nil : origins[offsets[Int(first) - firstHandle]]
                return .failure(.duplicateID(places[offset].id, at: origins[offset], firstAt: firstOrigin))
            }
        }
        return .success(handleByID)
    }
}

/// A kind's id table and index, built on two threads.
private final class IDTable: @unchecked Sendable {
    private let lock = NSLock()
    private var table: Result<[String: UInt32], PlacesError> = .success([:])
    private var built: GridIndex?

    func set(_ table: Result<[String: UInt32], PlacesError>) { lock.withLock { self.table = table } }
    func set(_ index: GridIndex) { lock.withLock { built = index } }
    var result: Result<[String: UInt32], PlacesError> { lock.withLock { table } }
    var index: GridIndex? { lock.withLock { built } }
}
