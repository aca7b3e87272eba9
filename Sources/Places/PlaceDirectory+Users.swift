extension PlaceDirectory {
    /// Every user, public and private, in id order: for the admin alone, since the list holds
    /// private users' locations.
    ///
    /// - Throws: `PlacesError.forbidden` for any other principal.
    public func users(as principal: Principal) throws(PlacesError) -> [User] {
        guard principal == .admin else { throw .forbidden(action: "listing users needs the admin token") }
        return registry.users.values.sorted { $0.id < $1.id }
    }
}
