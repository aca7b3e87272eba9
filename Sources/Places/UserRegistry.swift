import Geo

/// Users and the index of the ones on maps.
///
/// The index holds public users with a location and nobody else: a private user, or one whose
/// location is unknown, is not in it at all, so no query can return them by mistake. Handles are
/// dense and reused, so the index's handle table stays as small as the number of users.
struct UserRegistry: Sendable {
    private(set) var users: [String: User] = [:]
    private var handleOfUser: [String: UInt32] = [:]
    private var userOfHandle: [String?] = []
    private var freeHandles: [UInt32] = []
    private(set) var index: GridIndex

    init(index: GridIndex) { self.index = index }

    /// The id behind an index handle.
    func id(of handle: UInt32) -> String? { Int(handle) < userOfHandle.count ? userOfHandle[Int(handle)] : nil }

    /// Stores a user (new or changed) and brings the index in line with it.
    mutating func put(_ user: User) throws(PlacesError) {
        users[user.id] = user
        try reindex(user.id)
    }

    /// Forgets a user.
    mutating func remove(_ id: String) throws(PlacesError) {
        users[id] = nil
        try reindex(id)
    }

    private mutating func reindex(_ id: String) throws(PlacesError) {
        let user = users[id]
        if let user, user.isOnMaps, let location = user.location {
            let handle: UInt32
            if let existing = handleOfUser[id] {
                handle = existing
            } else if let reused = freeHandles.popLast() {
                handle = reused
            } else {
                handle = UInt32(userOfHandle.count)
                userOfHandle.append(nil)
            }
            do { try index.insert(handle: handle, at: location) } catch { throw .geo(error) }
            handleOfUser[id] = handle
            userOfHandle[Int(handle)] = id
        } else if let handle = handleOfUser.removeValue(forKey: id) {
            index.remove(handle: handle)
            userOfHandle[Int(handle)] = nil
            freeHandles.append(handle)
        }
    }
}
