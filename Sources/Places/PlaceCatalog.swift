import Foundation
import Geo

/// Places from one or more files, indexed for "what is near this point" queries.
///
/// Places are grouped by kind. Each kind has its own `GridIndex`, and each place gets a handle
/// that is dense within its kind: the places of a kind have handles 0, 1, 2, … in the order they
/// were added, except that the first 1,024 or more added to a new kind at once are numbered in a
/// spatial order (nearby places, nearby in memory), and a `Loader`'s places are numbered in its
/// grid's order once its kind is finished (the places of one grid cell take consecutive handles). A place
/// is identified by kind and id; adding a second place with the same pair is an error that names
/// where both came from.
///
/// The places are kept in columns, not as `Place` values: each kind's coordinates only in its
/// `GridIndex`, ids and names in shared byte chunks (`PlaceTexts`), an open-addressing id table
/// (`PlaceIDMap`), and attributes, compiled hours and origins apart, for the places that have
/// any. Every accessor makes the `Place` it returns. A place without attributes costs its index
/// entry (16 bytes of coordinates, 8 of handle and slot), its id and name in UTF-8 with a length
/// byte each, a quarter of a 4-byte text offset (one per block of four handles) and 5 bytes of id
/// table (BENCHMARKS.md, "Scale", measures the server's whole RSS).
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
    /// The places of one kind and their index, in columns: a `Place` is made on each access.
    ///
    /// The coordinates live only in the index; ids and names in `texts`; attributes and hours
    /// (`PlaceCatalog.Extras`) only for the places that have any, like the origins of places read
    /// from files. A place of a database without attributes costs its index entry, its text and
    /// its id-table slot.
    struct Collection: Sendable {
        let kind: String
        var index: GridIndex
        var texts = PlaceTexts()
        var ids = PlaceIDMap()
        /// Attributes and hours by handle, for the places that have any.
        var extras: [UInt32: Extras] = [:]
        /// Where a place was read, by handle, for the places read from a file.
        var origins: [UInt32: SourceLocation] = [:]

        init(kind: String, index: GridIndex) {
            self.kind = kind
            self.index = index
        }

        /// Number of places.
        var count: Int { texts.count }

        /// The handle of an id, or nil.
        func handle(of id: String) -> UInt32? { ids.handle(of: id, in: texts) }

        /// The place with a handle (which must be below `count`).
        func place(_ handle: UInt32) -> Place {
            guard let coordinate = index.coordinate(of: handle) else {
                preconditionFailure("handle \(handle) not indexed")
            }
            let extra = extras.isEmpty ? nil : extras[handle]
            return Place(
                id: texts.id(Int(handle)), kind: kind, name: texts.name(Int(handle)), coordinate: coordinate,
                checkedNames: extra?.names ?? [], values: extra?.values ?? [], hours: extra?.hours)
        }

        /// Every place, by handle.
        var places: [Place] { (0..<UInt32(count)).map(place) }

        /// Appends a place whose id the kind does not hold, with the next handle; the index is the
        /// caller's to update.
        mutating func appendColumns(_ place: Place, origin: SourceLocation?) -> UInt32 {
            let handle = UInt32(count)
            texts.append(id: place.id, name: place.name)
            ids.insert(handle, in: texts)
            setExtras(place, handle)
            if let origin { origins[handle] = origin }
            return handle
        }

        /// Keeps a place's attributes and hours apart, or none.
        mutating func setExtras(_ place: Place, _ handle: UInt32) {
            if place.attributeNames.isEmpty && place.hours == nil {
                if !extras.isEmpty { extras[handle] = nil }
            } else {
                extras[handle] = Extras(names: place.attributeNames, values: place.attributeValues, hours: place.hours)
            }
        }
    }

    /// A place's attributes and compiled hours, kept apart from the columns every place has.
    struct Extras: Sendable {
        var names: [String]
        var values: [String]
        var hours: PlaceHours?
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
    public var count: Int { collections.values.reduce(0) { $0 + $1.count } }

    /// The number of places of `kind` (0 for a kind not present).
    public func count(kind: String) -> Int { collections[kind]?.count ?? 0 }

    /// The handle of the place with this kind and id, or nil.
    public func handle(kind: String, id: String) -> UInt32? { collections[kind]?.handle(of: id) }

    /// The place of `kind` with this handle, or nil.
    public func place(kind: String, handle: UInt32) -> Place? {
        guard let collection = collections[kind], Int(handle) < collection.count else { return nil }
        return collection.place(handle)
    }

    /// The place with this kind and id, or nil.
    public func place(kind: String, id: String) -> Place? {
        handle(kind: kind, id: id).flatMap { place(kind: kind, handle: $0) }
    }

    /// Where the place with this kind and id was read, or nil if it was added in code or is absent.
    public func origin(kind: String, id: String) -> SourceLocation? {
        guard let collection = collections[kind], let handle = collection.handle(of: id) else { return nil }
        return collection.origins[handle]
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

        // Everything is checked, and new kinds built apart, before any kind changes: a duplicate
        // changes nothing. Existing kinds then grow in place (not on a copy of their columns).
        var built: [Collection] = []
        var growing: [(kind: String, offsets: [Int])] = []
        for (kind, offsets) in newByKind.sorted(by: { $0.key < $1.key }) {
            let existing = collections[kind]
            let firstHandle = existing?.count ?? 0
            if firstHandle + offsets.count - 1 > GridIndex.maximumHandle {
                throw .geo(.handleOutOfRange(firstHandle + offsets.count - 1))
            }
            if let existing {
                try Self.checkNew(places, offsets, origins, against: existing)
                growing.append((kind, offsets))
                continue
            }
            // A new kind of many places takes them in a spatial order, so that the places of one grid
            // cell sit together in memory: a query then reads a few runs of the columns instead of
            // missing the cache once per candidate.
            let ordered = offsets.count >= 1_024 ? Self.spatialOrder(places, offsets) : offsets
            var collection = Collection(kind: kind, index: emptyIndex)
            do {
                try Self.append(places, ordered, origins, to: &collection)
            } catch {
                guard ordered != offsets else { throw error }
                // The same duplicate as the order given would find (the first repeated id in it).
                var again = Collection(kind: kind, index: emptyIndex)
                try Self.append(places, offsets, origins, to: &again)
                throw error
            }
            var builder = GridIndexBuilder(reservingCapacity: ordered.count)
            for (position, offset) in ordered.enumerated() {
                // Cannot fail: handles were checked against `maximumHandle` above.
                try? builder.append(handle: UInt32(position), at: places[offset].coordinate)
            }
            collection.index = builder.build(into: emptyIndex)
            built.append(collection)
        }
        for (kind, offsets) in growing {
            guard var collection = collections.removeValue(forKey: kind) else { continue }
            let firstHandle = collection.count
            // Cannot fail: checked above.
            try? Self.append(places, offsets, origins, to: &collection)
            for (position, offset) in offsets.enumerated() {
                try? collection.index.insert(handle: UInt32(firstHandle + position), at: places[offset].coordinate)
            }
            collections[kind] = collection
        }
        for collection in built { collections[collection.kind] = collection }
    }

    /// Throws the first duplicate among `places[offsets]` and against `collection`.
    private static func checkNew(
        _ places: [Place], _ offsets: [Int], _ origins: [SourceLocation?], against collection: Collection
    ) throws(PlacesError) {
        var seen: [String: Int] = [:]
        for offset in offsets {
            let id = places[offset].id
            if let first = collection.handle(of: id) {
                throw .duplicateID(id, at: origins[offset], firstAt: collection.origins[first])
            }
            if let first = seen.updateValue(offset, forKey: id) {
                throw .duplicateID(id, at: origins[offset], firstAt: origins[first])
            }
        }
    }

    /// Appends the columns of `places[offsets]` to a collection (its index is the caller's to
    /// update); throws at the first id it holds already, naming both origins.
    private static func append(
        _ places: [Place], _ offsets: [Int], _ origins: [SourceLocation?], to collection: inout Collection
    ) throws(PlacesError) {
        for offset in offsets {
            let place = places[offset]
            if let first = collection.handle(of: place.id) {
                throw .duplicateID(place.id, at: origins[offset], firstAt: collection.origins[first])
            }
            _ = collection.appendColumns(place, origin: origins[offset])
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
}
