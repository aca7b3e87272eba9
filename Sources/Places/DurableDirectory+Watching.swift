import Geo

/// Watches: standing radius queries whose subscribers get an event for every change of their set,
/// evaluated as each change is applied to memory (this directory's own writes and every other
/// writer's alike), so they work the same on one node and on many.
extension DurableDirectory {
    /// Starts a watch for `subscriber`: queues its initial set (`inside` events, nearest first,
    /// then `ready`), or with `after` the events it missed since that log position (then
    /// `ready`; when they are no longer remembered, `reset` and a fresh initial set).
    ///
    /// - Parameters:
    ///   - token: who asks (nil: anonymous); decides which users are seen, as for `NEARBY`. A
    ///     roaming watch on a user needs that user's token or the admin's.
    /// - Returns: the new watch's id.
    /// - Throws: `.invalidToken`; `.noSuchUser` (a roaming watch on a user that does not exist
    ///   or is private to the asker); `.forbidden`; `.invalidValue` for a bad kind, radius or
    ///   model; `.tooManyWatches` beyond `watchLimits`; `.closed` for a closed subscriber.
    public func watch(
        _ spec: WatchSpec, presenting token: String?, after position: LogPosition? = nil,
        for subscriber: WatchSubscriber
    ) throws(PlacesError) -> WatchID {
        try watch(spec, .token(token), after: position, for: subscriber)
    }

    /// `watch(_:presenting:after:for:)` for an established principal.
    public func watch(
        _ spec: WatchSpec, by principal: Principal, after position: LogPosition? = nil,
        for subscriber: WatchSubscriber
    ) throws(PlacesError) -> WatchID {
        try watch(spec, .principal(principal), after: position, for: subscriber)
    }

    /// Ends one of the subscriber's watches; no event follows for it. False when it holds no such
    /// watch.
    @discardableResult
    public func unwatch(_ id: WatchID, for subscriber: WatchSubscriber) -> Bool {
        watchHub.unregister(id, for: subscriber)
    }

    /// Ends every watch of the subscriber and closes it (a connection went away).
    public func unwatchAll(for subscriber: WatchSubscriber) {
        watchHub.unregisterAll(for: subscriber)
    }

    /// The limits in force; set before serving.
    public var watchLimits: WatchLimits {
        get { watchHub.lock.withLock { watchHub.limits } }
        set { watchHub.lock.withLock { watchHub.limits = newValue } }
    }

    /// Counters since start.
    public var watchStatistics: WatchStatistics { watchHub.snapshotStatistics }

    private enum WatchAsker {
        case principal(Principal)
        case token(String?)
    }

    private func watch(
        _ spec: WatchSpec, _ asker: WatchAsker, after position: LogPosition?, for subscriber: WatchSubscriber
    ) throws(PlacesError) -> WatchID {
        var spec = spec
        _ = try Vocabulary.radius.check(spec.radiusMeters)
        if case .projected = spec.model {
            throw .invalidValue(
                noun: "model", value: spec.model.name, expected: "geodesic or haversine (a watch cannot use projected)")
        }
        if spec.kind != PlaceDirectory.userKind { try PlaceDirectory.validatePlace(kind: spec.kind, id: "x") }
        spec.kind = PlaceDirectory.composed(spec.kind)
        let result = readWithPosition { directory, applied -> Result<WatchID, PlacesError> in
            do throws(PlacesError) {
                let principal: Principal
                switch asker {
                case .principal(let given): principal = given
                case .token(let token): principal = try directory.principal(presenting: token)
                }
                if case .user(let id) = spec.center {
                    guard let user = directory.registry.users[id], user.visibility == .public || principal.owns(id)
                    else { throw PlacesError.noSuchUser(id) }
                    guard principal.owns(id) else {
                        throw PlacesError.forbidden(
                            action: "a watch that follows a user needs that user's token or the admin token")
                    }
                    spec.center = .user(user.id)
                }
                return .success(
                    try watchHub.register(
                        spec, principal: principal, after: position, subscriber: subscriber, directory: directory,
                        position: applied))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
