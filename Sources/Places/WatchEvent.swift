import Geo

/// An object as a watch reports it.
public struct WatchedObject: Sendable, Hashable {
    /// The place's or user's id.
    public var id: String
    public var name: String
    /// WGS84 degrees: for a user seen by anyone else, their published location.
    public var coordinate: Coordinate
    /// What distances to it are rounded to (a user's `LocationPrecision.cellMeters`; 0: not).
    public var distanceStepMeters: Double

    public init(id: String, name: String, coordinate: Coordinate, distanceStepMeters: Double = 0) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.distanceStepMeters = distanceStepMeters
    }
}

/// One thing a watch tells its subscriber, caused by the change at `position` of the log.
///
/// A subscriber that keeps a set — `inside`/`enter`/`move` put the object (by id), `exit`
/// removes it — holds after the events of each position exactly what `NEARBY` would return at
/// that position, with the same distances and bearings (`measure()`).
public struct WatchEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// In the initial set (one per object, nearest first, ties by id), before `ready`.
        case inside
        /// The initial set is complete (or, after a resume, the replay is).
        case ready
        /// Came within the radius (or into view: turned public, was added).
        case enter
        /// Left: moved out of range, or turned private, forgot its location, was removed. The
        /// object is as last reported, so no cause can be told from another.
        case exit
        /// Still inside, and its coordinate, name, distance or bearing changed.
        case move
        /// A roaming watch's centre moved (`object` nil; `center` nil when the user has no
        /// location any more): its exits come before, its enters and moves after.
        case center
        /// A resume could not replay what was missed (the log position is no longer held): the
        /// subscriber must drop its set; a fresh snapshot (`inside`…, `ready`) follows.
        case reset
        /// The watch ended (its user was removed, the token that made it stopped working, the
        /// subscriber fell too far behind); `message` says why. No event follows for it.
        case closed
    }

    /// The watch this event is for.
    public var watch: WatchID
    public var kind: Kind
    /// The log position of the change that caused it (for `inside`/`ready`/`reset`: the position
    /// the snapshot reflects).
    public var position: LogPosition
    /// For `inside`, `enter`, `exit` and `move`.
    public var object: WatchedObject?
    /// The centre `object` is measured from (for `center`: the new one).
    public var center: Coordinate?
    /// The watch's distance model.
    public var model: DistanceModel
    /// For `reset` and `closed`: why, in words.
    public var message: String?

    public init(
        watch: WatchID, kind: Kind, position: LogPosition, object: WatchedObject? = nil, center: Coordinate? = nil,
        model: DistanceModel = .geodesic, message: String? = nil
    ) {
        self.watch = watch
        self.kind = kind
        self.position = position
        self.object = object
        self.center = center
        self.model = model
        self.message = message
    }

    /// Meters from the centre to the object under the watch's model, and the initial bearing in
    /// degrees clockwise from north in [0, 360) — `DistanceModel.measure`, as `vicinity dist`
    /// computes them, the distance rounded as `object.distanceStepMeters` says, the bearing 0 for
    /// an object under half a millimetre away; nil for an event without an object.
    public func measure() -> (distanceMeters: Double, bearingDegrees: Double)? {
        guard let object, let center else { return nil }
        guard let measured = try? model.measure(center, object.coordinate) else { return nil }
        let distance = LocationPrecision.rounded(measured.distanceMeters, toMultipleOf: object.distanceStepMeters)
        // Under half a millimetre away (served as 0 m) the bearing is 0, as in query answers.
        return (distance, ServedPrecision.distance(measured.distanceMeters) == 0 ? 0 : measured.bearing)
    }
}
