/// A group of writes planned one after another against a private copy of the directory, stored in
/// one store transaction: what `DurableDirectory.transact(_:completion:)` hands its body.
///
/// Each `perform` plans its request against the copy as the earlier ones left it (so a second
/// write to a record sees the first), and `DurableDirectory.read` called on the writer thread
/// inside the body reads that copy too: the body sees its own writes, other threads do not see
/// them until the whole group is stored. A request refused by `PlaceDirectory.plan` changes
/// nothing and throws; the caller decides whether that ends the group (`rollBack()`).
///
/// Used only on the writer thread, inside the body; not safe to keep or share.
public final class DirectoryTransaction: @unchecked Sendable {
    /// The directory as this group's writes so far left it.
    public private(set) var directory: PlaceDirectory
    /// The changes to store, in order.
    private(set) var changes: [DirectoryChange] = []
    /// Set by `rollBack()`: nothing is stored.
    public private(set) var isRolledBack = false
    private let versions: [String: UInt64]

    init(directory: PlaceDirectory, versions: [String: UInt64]) {
        self.directory = directory
        self.versions = versions
    }

    /// Plans a write against the directory as the group left it and applies it to the copy.
    ///
    /// - Parameter token: the token presented (nil for none), resolved against the copy.
    /// - Returns: what the write tells its writer once the group is stored.
    /// - Throws: what `PlaceDirectory.principal(presenting:)` and `plan` throw; nothing changed.
    @discardableResult
    public func perform(_ request: DirectoryRequest, presenting token: String?) throws(PlacesError) -> WriteReceipt {
        try perform(request, by: try directory.principal(presenting: token))
    }

    /// `perform(_:presenting:)` for a principal the caller has established itself.
    @discardableResult
    public func perform(_ request: DirectoryRequest, by principal: Principal) throws(PlacesError) -> WriteReceipt {
        let plan = try directory.plan(request, by: principal)
        try directory.apply(plan.change)
        changes.append(plan.change)
        return plan.receipt
    }

    /// Drops every write of the group: the store is not touched.
    public func rollBack() {
        isRolledBack = true
        changes = []
    }

    /// The change counter of a key (a place kind, or `PlaceDirectory.userKind` for every user) as
    /// it stood when the group started: it grows with every stored change to that key, so a
    /// counter read earlier (`DurableDirectory.version(ofKey:)`) that differs means the key changed.
    public func version(ofKey key: String) -> UInt64 { versions[key] ?? 0 }
}
