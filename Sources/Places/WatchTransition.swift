import Geo

/// An object a watch can hold: a place of a kind, or a user (kind `user`).
struct WatchedKey: Sendable, Hashable {
    var kind: String
    var id: String
}

/// What a watch needs to know of an object at one log position.
struct ObjectState: Sendable, Hashable {
    var name: String
    /// Nil: a user with no location (on no map).
    var location: Coordinate?
    /// Places are always public; users are when their visibility says so.
    var isPublic: Bool

    init(_ place: Place) {
        name = place.name
        location = place.coordinate
        isPublic = true
    }

    init(_ user: User) {
        name = user.name
        location = user.location
        isPublic = user.visibility == .public
    }

    /// The object as `principal` may see it in a watch of `key.kind`, or nil when it may not: a
    /// private user is seen by that user alone (the admin sees the public users only, as in
    /// `NEARBY`), and a user without a location by nobody.
    func seen(as key: WatchedKey, by principal: Principal) -> WatchedObject? {
        guard let location else { return nil }
        guard isPublic || principal == .user(key.id) else { return nil }
        return WatchedObject(id: key.id, name: name, coordinate: location)
    }
}

/// What one applied change did to one object: its state before and after (nil: absent).
struct WatchTransition: Sendable {
    var position: LogPosition
    var key: WatchedKey
    var before: ObjectState?
    var after: ObjectState?
}

extension PlaceDirectory {
    /// The state of an object now, as watches see it; nil when absent.
    func watchState(of key: WatchedKey) -> ObjectState? {
        if key.kind == PlaceDirectory.userKind { return registry.users[key.id].map(ObjectState.init) }
        return places.place(kind: key.kind, id: key.id).map(ObjectState.init)
    }

    /// The object a change touches and its state after it, given its state before; nil for a
    /// change that touches no object (the admin token) or names a user that is not there.
    static func watchEffect(of change: DirectoryChange, before: (WatchedKey) -> ObjectState?)
        -> (key: WatchedKey, after: ObjectState?)?
    {
        switch change {
        case .putPlace(let place):
            return (WatchedKey(kind: place.kind, id: place.id), ObjectState(place))
        case .removePlace(let kind, let id):
            return (WatchedKey(kind: kind, id: id), nil)
        case .addUser(let user, _), .putUser(let user, _):
            return (WatchedKey(kind: userKind, id: user.id), ObjectState(user))
        case .moveUser(let id, let location):
            let key = WatchedKey(kind: userKind, id: id)
            guard var state = before(key) else { return nil }
            state.location = location
            return (key, state)
        case .setVisibility(let id, let visibility):
            let key = WatchedKey(kind: userKind, id: id)
            guard var state = before(key) else { return nil }
            state.isPublic = visibility == .public
            return (key, state)
        case .removeUser(let id):
            return (WatchedKey(kind: userKind, id: id), nil)
        case .setAdminToken:
            return nil
        }
    }
}
