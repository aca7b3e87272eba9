import Geo

extension PlaceCatalog {
    /// Loads the places of one kind read one at a time (from a database, in any order) straight
    /// into the catalog's columns: no array of `Place` values, no second copy of the points. The
    /// grid is built once, when the loader is given back to `finish(_:)`, and the places are then
    /// renumbered in its order (`Collection.number(inGridOrderOf:)`).
    ///
    /// ```swift
    /// var loader = catalog.loader(kind: "pharmacy", reservingCapacity: rows)
    /// try loader.append(place)            // for each row
    /// catalog.finish(&loader)
    /// ```
    public struct Loader: Sendable {
        var collection: Collection
        var builder: GridIndexBuilder
        /// The last id appended while every id appended so far was ASCII and each sorted after the
        /// one before (bytewise); nil once one did not.
        var lastASCIIID: [UInt8]? = []
        /// Whether ids known to be distinct were appended without being recorded as the last.
        var lastIDUnknown = false
        /// Handles of new ids not yet in the id table, with their ids' hashes: recorded a batch at a
        /// time (`PlaceIDMap.insertAbsent(_:hashes:in:)`), before any id is looked up.
        var pendingHandles: [UInt32] = []
        var pendingHashes: [UInt64] = []
        /// Ids recorded per batch.
        static let batchSize = 32

        /// The kind of the places.
        public var kind: String { collection.kind }
        /// Number of places appended.
        public var count: Int { collection.count }

        /// Appends a place of the loader's kind.
        ///
        /// - Throws: `PlacesError.duplicateID` for an id appended before, `.geo(.handleOutOfRange)`
        ///   past `GridIndex.maximumHandle` places.
        public mutating func append(_ place: Place, distinct: Bool = false) throws(PlacesError) {
            precondition(place.kind == collection.kind, "a loader takes places of its own kind")
            let handle = UInt32(collection.count)
            var id = place.id
            var name = place.name
            var failure: PlacesError?
            id.withUTF8 { id in
                name.withUTF8 { name in
                    do throws(PlacesError) {
                        try append(id: id, name: name, at: place.coordinate, distinct: distinct)
                    } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw failure }
            collection.setExtras(place, handle)
        }

        /// Appends a place of the loader's kind without attributes, its id and name given as UTF-8
        /// bytes (a database row's columns, read in place: no `Place`, no `String`).
        ///
        /// - Parameter distinct: whether the caller knows the id's bytes differ from those of
        ///   every id appended before (a store that keeps ids unique), so that an ASCII id needs
        ///   no lookup; canonically equivalent spellings are still found.
        /// - Throws: as `append(_:)`.
        public mutating func append(
            id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, at coordinate: Coordinate,
            distinct: Bool = false
        ) throws(PlacesError) {
            let handle = UInt32(collection.count)
            guard Int(handle) <= GridIndex.maximumHandle else { throw .geo(.handleOutOfRange(Int(handle))) }
            if isNew(id, distinct: distinct) {
                pendingHandles.append(handle)
                pendingHashes.append(PlaceIDMap.hash(id))
            } else {
                recordPending()
                guard collection.ids.insert(handle, id: id, in: collection.texts) == nil else {
                    throw .duplicateID(String(decoding: id, as: UTF8.self), at: nil, firstAt: nil)
                }
            }
            do { try builder.append(handle: handle, at: coordinate) } catch {
                preconditionFailure("handle \(handle) checked above")
            }
            collection.texts.append(id: id, name: name)
            if pendingHandles.count == Self.batchSize { recordPending() }
        }

        /// Records the pending handles in the id table (their ids are in the texts already).
        mutating func recordPending() {
            guard !pendingHandles.isEmpty else { return }
            pendingHandles.withUnsafeBufferPointer { handles in
                pendingHashes.withUnsafeBufferPointer { hashes in
                    collection.ids.insertAbsent(handles, hashes: hashes, in: collection.texts)
                }
            }
            pendingHandles.removeAll(keepingCapacity: true)
            pendingHashes.removeAll(keepingCapacity: true)
        }

        /// Whether `id` is known to be new without looking: while every id so far was ASCII, an
        /// ASCII id whose bytes differ from theirs is none of them (only an ASCII id equals an
        /// ASCII id). The bytes differ when the caller says so (`distinct`), or when ids come in
        /// byte order, each after the last (recorded as the last); an id that does neither ends
        /// the shortcut for the loader.
        private mutating func isNew(_ id: UnsafeBufferPointer<UInt8>, distinct: Bool) -> Bool {
            guard lastASCIIID != nil, !id.contains(where: { $0 >= 0x80 }) else {
                lastASCIIID = nil
                return false
            }
            if distinct {
                lastIDUnknown = true
                return true
            }
            guard !lastIDUnknown, lastASCIIID?.lexicographicallyPrecedes(id) == true else {
                lastASCIIID = nil
                return false
            }
            lastASCIIID?.removeAll(keepingCapacity: true)
            lastASCIIID?.append(contentsOf: id)
            return true
        }
    }

    /// A loader for a kind the catalog does not hold yet.
    ///
    /// - Parameter capacity: the number of places expected: room for them is reserved at once, so
    ///   that no column grows by doubling.
    public func loader(kind: String, reservingCapacity capacity: Int = 0) -> Loader {
        precondition(collections[kind] == nil, "kind \(kind) is already in the catalog")
        var collection = Collection(kind: kind, index: emptyIndex)
        collection.texts = PlaceTexts(reservingCapacity: capacity)
        collection.ids = PlaceIDMap(reservingCapacity: capacity)
        return Loader(collection: collection, builder: GridIndexBuilder(reservingCapacity: capacity))
    }

    /// Adds the kind a loader holds, its grid built in place; the loader is left empty (its
    /// columns move, they are not copied).
    public mutating func finish(_ loader: inout Loader) {
        loader.recordPending()
        var collection = loader.collection
        let builder = loader.builder
        loader = self.loader(kind: collection.kind)
        guard collection.count > 0 else { return }
        precondition(collections[collection.kind] == nil, "kind \(collection.kind) is already in the catalog")
        var index = builder.build(into: emptyIndex)
        collection.number(inGridOrderOf: &index)
        collection.index = index
        collections[collection.kind] = collection
    }
}

extension PlaceCatalog.Collection {
    /// Renumbers the places so that handles ascend in `index`'s grid order, the index with them:
    /// the places of one cell get neighbouring handles, hence neighbouring entries in the texts, so
    /// that a query reads the ids and names of its hits from a few runs of memory rather than from
    /// one scattered line each. Nothing outside the process holds a handle; ids, names, attributes
    /// and origins follow their places. An index that is not packed (see
    /// `GridIndex.withSlotOfEachHandle`) leaves everything as it is.
    ///
    /// - Parameter index: this collection's places' index, as `GridIndexBuilder.build` made it.
    mutating func number(inGridOrderOf index: inout GridIndex) {
        let numbered: Void? = index.withSlotOfEachHandle { newHandles in
            texts.renumber(newHandles)
            ids.renumber(newHandles)
            extras = Self.rekeyed(extras, by: newHandles)
            origins = Self.rekeyed(origins, by: newHandles)
        }
        if numbered != nil { index.numberHandlesBySlot() }
    }

    /// `table` with each handle replaced by `newHandles[handle]`, built into one dictionary of the
    /// right size (no array of pairs beside the old one).
    private static func rekeyed<Value>(_ table: [UInt32: Value], by newHandles: UnsafeBufferPointer<UInt32>)
        -> [UInt32: Value]
    {
        guard !table.isEmpty else { return table }
        var result = [UInt32: Value](minimumCapacity: table.count)
        for (handle, value) in table { result[newHandles[Int(handle)]] = value }
        return result
    }
}
