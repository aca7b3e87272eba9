import Geo

/// The objects as they were at one log position: the directory as it is now, with the objects
/// that changed since then (`overlay`) as they were. With an empty overlay, the directory now.
struct WatchView {
    let directory: PlaceDirectory
    /// The state at the view's position of each object changed after it (nil: absent then).
    var overlay: [WatchedKey: ObjectState?] = [:]

    func state(of key: WatchedKey) -> ObjectState? {
        if let overridden = overlay[key] { return overridden }
        return directory.watchState(of: key)
    }

    /// What a watch centred at `center` holds: the objects of its kind its principal sees within
    /// its circle, nearest first, ties by id — as `NEARBY` answers.
    func members(of kind: String, in circle: Circle, principal: Principal) -> [WatchedObject] {
        var found: [(object: WatchedObject, distance: Double)] = []
        if kind == PlaceDirectory.userKind {
            let hits =
                (try? directory.nearbyUsers(
                    circle.center, radiusMeters: circle.radiusMeters, model: circle.model, as: principal)) ?? []
            for hit in hits where overlay[WatchedKey(kind: kind, id: hit.user.id)] == nil {
                guard let location = hit.user.location else { continue }
                let object = WatchedObject(
                    id: hit.user.id, name: hit.user.name, coordinate: location,
                    distanceStepMeters: hit.distanceStepMeters)
                found.append((object, hit.distanceMeters))
            }
        } else {
            let hits =
                (try? directory.places.nearby(
                    circle.center, radiusMeters: circle.radiusMeters, kind: kind, model: circle.model)) ?? []
            for hit in hits where overlay[WatchedKey(kind: kind, id: hit.place.id)] == nil {
                found.append(
                    (
                        WatchedObject(id: hit.place.id, name: hit.place.name, coordinate: hit.place.coordinate),
                        hit.distanceMeters
                    ))
            }
        }
        var added = false
        for (key, state) in overlay where key.kind == kind {
            guard let object = state?.seen(as: key, by: principal), circle.contains(object.coordinate) else {
                continue
            }
            found.append((object, circle.exactDistance(to: object.coordinate)))
            added = true
        }
        if added {
            found.sort {
                $0.distance < $1.distance || ($0.distance == $1.distance && $0.object.id < $1.object.id)
            }
        }
        return found.map(\.object)
    }
}
