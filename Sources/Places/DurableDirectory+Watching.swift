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
        fatalError("not yet")
    }

    /// `watch(_:presenting:after:for:)` for an established principal.
    public func watch(
        _ spec: WatchSpec, by principal: Principal, after position: LogPosition? = nil,
        for subscriber: WatchSubscriber
    ) throws(PlacesError) -> WatchID {
        fatalError("not yet")
    }

    /// Ends one of the subscriber's watches; no event follows for it. False when it holds no such
    /// watch.
    @discardableResult
    public func unwatch(_ id: WatchID, for subscriber: WatchSubscriber) -> Bool {
        fatalError("not yet")
    }

    /// Ends every watch of the subscriber and closes it (a connection went away).
    public func unwatchAll(for subscriber: WatchSubscriber) {
        fatalError("not yet")
    }

    /// The limits in force; set before serving.
    public var watchLimits: WatchLimits {
        get { fatalError("not yet") }
        set { fatalError("not yet") }
    }

    /// Counters since start.
    public var watchStatistics: WatchStatistics { fatalError("not yet") }
}
