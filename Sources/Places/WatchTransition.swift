import Geo

/// An object a watch can hold: a place of a kind, or a user (kind `user`).
struct WatchedKey: Sendable, Hashable {
    var kind: String
    var id: String
}

/// What a watch needs to know of an object at one log position.
struct ObjectState: Sendable, Hashable {
    var name: String
    /// Nil: a user with no location (on no map). Exact: what the user themselves sees.
    var location: Coordinate?
    /// What everyone else sees (`User.publishedLocation`); `location` for a place.
    var published: Coordinate?
    /// Places are always public; users are when their visibility says so.
    var isPublic: Bool
    /// What distances to the object are rounded to for others (0: not rounded).
    var distanceStepMeters: Double
    /// The whole record, for a user (nil for a place): the changes that name a user apply to it.
    var user: User?

    init(_ place: Place) {
        name = place.name
        location = place.coordinate
        published = place.coordinate
        isPublic = true
        distanceStepMeters = 0
        user = nil
    }

    init(_ user: User) {
        name = user.name
        location = user.location
        published = user.publishedLocation
        isPublic = user.visibility == .public
        distanceStepMeters = user.effectivePrecision.cellMeters
        self.user = user
    }

    /// Whether others see it somewhere else than where it is (a user at a precision coarser than
    /// `exact`): then a watch's circle is tested against the location its principal sees.
    var isBlurred: Bool { published != location }

    /// The object as `principal` may see it in a watch of `key.kind`, or nil when it may not: a
    /// private user is seen by that user alone (the admin sees the public users only, as in
    /// `NEARBY`), and a user without a location by nobody. Only the user themselves sees their
    /// exact location; everyone else the published one, with distances rounded.
    func seen(as key: WatchedKey, by principal: Principal) -> WatchedObject? {
        guard let location else { return nil }
        let own = key.kind == PlaceDirectory.userKind && principal == .user(key.id)
        guard isPublic || own else { return nil }
        if own { return WatchedObject(id: key.id, name: name, coordinate: location) }
        return WatchedObject(
            id: key.id, name: name, coordinate: published ?? location, distanceStepMeters: distanceStepMeters)
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
        case .moveUser(let id, _, _), .setVisibility(let id, _, _), .setPrecision(let id, _),
            .forgetLocation(let id, _), .endPrivacy(let id, _):
            let key = WatchedKey(kind: userKind, id: id)
            guard let user = before(key)?.user else { return nil }
            return (key, ObjectState(PlaceDirectory.user(user, after: change)))
        case .removeUser(let id):
            return (WatchedKey(kind: userKind, id: id), nil)
        case .setAdminToken:
            return nil
        }
    }
}
