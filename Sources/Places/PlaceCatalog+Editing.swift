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
        var collection = collections.removeValue(forKey: place.kind) ?? Collection(index: emptyIndex)
        defer { collections[place.kind] = collection }
        collection.places[Int(handle)] = place
        collection.origins[Int(handle)] = origin
        do { try collection.index.insert(handle: handle, at: place.coordinate) } catch { throw .geo(error) }
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
        let handle = collection.places.count
        guard handle <= GridIndex.maximumHandle else { throw .geo(.handleOutOfRange(handle)) }
        do { try collection.index.insert(handle: UInt32(handle), at: place.coordinate) } catch { throw .geo(error) }
        collection.places.append(place)
        collection.origins.append(origin)
        collection.handleByID[place.id] = UInt32(handle)
        return UInt32(handle)
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
        defer { if !collection.places.isEmpty { collections[kind] = collection } }
        guard let handle = collection.handleByID.removeValue(forKey: id) else { return nil }
        let removed = collection.places[Int(handle)]
        let last = UInt32(collection.places.count - 1)
        collection.index.remove(handle: handle)
        if handle != last {
            let moved = collection.places[Int(last)]
            collection.index.remove(handle: last)
            collection.places[Int(handle)] = moved
            collection.origins[Int(handle)] = collection.origins[Int(last)]
            collection.handleByID[moved.id] = handle
            // Cannot fail: the handle was valid a moment ago.
            try? collection.index.insert(handle: handle, at: moved.coordinate)
        }
        collection.places.removeLast()
        collection.origins.removeLast()
        return removed
    }
}
