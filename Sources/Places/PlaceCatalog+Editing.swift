import Geo

extension PlaceCatalog {
    /// Adds a place, or replaces the one with the same kind and id (name, coordinate and
    /// attributes all take the new values; the handle stays).
    ///
    /// - Returns: the place's handle within its kind.
    @discardableResult
    public mutating func upsert(_ place: Place, origin: SourceLocation? = nil) throws(PlacesError) -> UInt32 {
        guard let handle = handle(kind: place.kind, id: place.id) else {
            guard collections[place.kind] != nil else { return try add(place, origin: origin) }
            return try append(place, origin: origin)
        }
        var collection = collections.removeValue(forKey: place.kind) ?? Collection(kind: place.kind, index: emptyIndex)
        defer { collections[place.kind] = collection }
        do { try collection.index.insert(handle: handle, at: place.coordinate) } catch { throw .geo(error) }
        if collection.texts.name(Int(handle)) != place.name {
            // The id stays, and with it the id table's slot.
            collection.texts.replace(Int(handle), id: place.id, name: place.name)
        }
        collection.setExtras(place, handle)
        collection.origins[handle] = origin
        return handle
    }

    /// Adds or replaces many places, in order (a later place of the same kind and id wins): the
    /// ones new to their kind are added together, as loading adds them, which is what makes a
    /// follower apply a 10,000-place import in milliseconds rather than one place at a time.
    public mutating func upsert(contentsOf places: [Place]) throws(PlacesError) {
        var fresh: [Place] = []
        var freshKeys = Set<String>()
        for place in places {
            let key = place.kind + "\u{0}" + place.id
            if handle(kind: place.kind, id: place.id) == nil, freshKeys.insert(key).inserted {
                fresh.append(place)
            } else if freshKeys.contains(key) {
                // Named twice in the batch: add what came before, then replace.
                try add(contentsOf: fresh)
                fresh = []
                freshKeys = []
                try upsert(place)
            } else {
                try upsert(place)
            }
        }
        try add(contentsOf: fresh)
    }

    /// Adds a place whose id its kind does not hold yet, to a kind that has places: in place, in
    /// time independent of the kind's size (`add` builds a new id table for the kind, which made
    /// adding places one at a time quadratic: 100,000 pipelined GEOADDs took minutes).
    private mutating func append(_ place: Place, origin: SourceLocation?) throws(PlacesError) -> UInt32 {
        guard var collection = collections.removeValue(forKey: place.kind) else {
            return try add(place, origin: origin)
        }
        defer { collections[place.kind] = collection }
        let handle = collection.count
        guard handle <= GridIndex.maximumHandle else { throw .geo(.handleOutOfRange(handle)) }
        do { try collection.index.insert(handle: UInt32(handle), at: place.coordinate) } catch { throw .geo(error) }
        return collection.appendColumns(place, origin: origin)
    }

    /// Removes the place with this kind and id.
    ///
    /// Handles stay dense: the last place of the kind takes the removed one's handle, so a handle
    /// held from before a removal may name another place afterwards.
    ///
    /// - Returns: the removed place, or nil if there was none.
    @discardableResult
    public mutating func remove(kind: String, id: String) -> Place? {
        guard var collection = collections.removeValue(forKey: kind) else { return nil }
        defer { if collection.count > 0 { collections[kind] = collection } }
        guard let handle = collection.handle(of: id) else { return nil }
        let removed = collection.place(handle)
        let last = UInt32(collection.count - 1)
        collection.ids.remove(handle, in: collection.texts)
        collection.index.remove(handle: handle)
        if handle != last {
            // Cannot fail: the last handle is indexed.
            guard let moved = collection.index.coordinate(of: last) else {
                preconditionFailure("handle \(last) not indexed")
            }
            collection.index.remove(handle: last)
            collection.ids.renumber(last, to: handle, in: collection.texts)
            try? collection.index.insert(handle: handle, at: moved)
        }
        let movedExtras = collection.extras.removeValue(forKey: last)
        let movedOrigin = collection.origins.removeValue(forKey: last)
        if handle != last {
            collection.extras[handle] = movedExtras
            collection.origins[handle] = movedOrigin
        }
        collection.texts.moveLast(to: Int(handle))
        return removed
    }
}
