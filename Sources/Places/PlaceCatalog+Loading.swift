import Geo

extension PlaceCatalog {
    /// Loads the places of one kind read one at a time (from a database, in any order) straight
    /// into the catalog's columns: no array of `Place` values, no second copy of the points. The
    /// grid is built once, when the loader is given back to `finish(_:)`.
    ///
    /// ```swift
    /// var loader = catalog.loader(kind: "pharmacy", reservingCapacity: rows)
    /// try loader.append(place)            // for each row
    /// catalog.finish(&loader)
    /// ```
    public struct Loader: Sendable {
        var collection: Collection
        var builder: GridIndexBuilder

        /// The kind of the places.
        public var kind: String { collection.kind }
        /// Number of places appended.
        public var count: Int { collection.count }

        /// Appends a place of the loader's kind.
        ///
        /// - Throws: `PlacesError.duplicateID` for an id appended before, `.geo(.handleOutOfRange)`
        ///   past `GridIndex.maximumHandle` places.
        public mutating func append(_ place: Place) throws(PlacesError) {
            precondition(place.kind == collection.kind, "a loader takes places of its own kind")
            let handle = UInt32(collection.count)
            guard Int(handle) <= GridIndex.maximumHandle else { throw .geo(.handleOutOfRange(Int(handle))) }
            // The id is looked up and recorded in one walk of the id table.
            guard collection.ids.insert(handle, id: place.id, in: collection.texts) == nil else {
                throw .duplicateID(place.id, at: nil, firstAt: nil)
            }
            do { try builder.append(handle: handle, at: place.coordinate) } catch {
                preconditionFailure("handle \(handle) checked above")
            }
            collection.texts.append(id: place.id, name: place.name)
            collection.setExtras(place, handle)
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
        var collection = loader.collection
        let builder = loader.builder
        loader = self.loader(kind: collection.kind)
        guard collection.count > 0 else { return }
        precondition(collections[collection.kind] == nil, "kind \(collection.kind) is already in the catalog")
        collection.index = builder.build(into: emptyIndex)
        collections[collection.kind] = collection
    }
}
