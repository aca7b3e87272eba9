import Geo
import Places

/// One question every surface asks the same way: what of a collection is near a point, under
/// which distance model, asked by whom. The CLI, the line protocol and the HTTP API build one
/// from their own syntax (checked with `Vocabulary`) and format the `QueryAnswer`; the answer
/// itself, privacy included, is computed once, by `PlaceDirectory.answer(_:)`.
///
/// ```swift
/// let query = PlaceQuery(
///     kind: "pharmacy", center: here, reach: .within(radiusMeters: 500, limit: nil))
/// let answer = try directory.answer(query)   // nearest first, ties by id
/// ```
public struct PlaceQuery: Sendable {
    /// What is searched.
    public enum Collection: Sendable, Hashable {
        /// People: the public users, and the asking user's own record wherever it is.
        case users
        /// Places of these kinds (one, usually); several are merged nearest first, ties by kind
        /// then id.
        case places([String])
    }

    /// How far the question reaches.
    public enum Reach: Sendable, Hashable {
        /// Everything within `radiusMeters` (inclusive, 0 to 20,000,000 m), nearest first;
        /// `limit` (1 or more) cuts the list, and `QueryAnswer.total` still counts them all.
        case within(radiusMeters: Double, limit: Int?)
        /// The `count` (1 or more) nearest, within `maxDistanceMeters` if given.
        case nearest(count: Int, maxDistanceMeters: Double?)
    }

    /// How distances and bearings of hits are computed.
    public enum Measures: Sendable, Hashable {
        /// The index's distance (within a micrometer of the model's own) and a bearing from one
        /// `BearingFrame` for every hit (within 2e-8° of the model's own below 5 km): fast, for
        /// the servers.
        case indexed
        /// The model's own distance and initial bearing for each hit (`DistanceModel.measure`),
        /// as `vicinity dist` prints them: for a person reading the figures.
        case exact
    }

    public var collection: Collection
    /// The query point.
    public var center: Coordinate
    public var reach: Reach
    public var model: DistanceModel
    /// Who asks: decides which users are seen (`PlaceDirectory` enforces it).
    public var principal: Principal
    public var measures: Measures
    /// For `within`: when nothing is within the radius, also find the nearest hit beyond it (a
    /// map names it).
    public var namesNearestBeyond: Bool
    /// For `within` with a limit: whether `QueryAnswer.total` must count every place within the
    /// radius when the limit cut the list (a second pass over the index); else it is the number
    /// of hits returned.
    public var countsAll: Bool
    /// Only the places open at this moment (on a duty spell, or open by their hours; unknown
    /// hours are not open), each hit with its `OpeningState`. For `nearest`, the nearest open
    /// places however far they are. Places only.
    public var open: OpeningMoment?
    /// Every hit with its `OpeningState` at this moment, without filtering by it (a map marks
    /// open, closed and unknown places). `open` implies it.
    public var hoursAt: OpeningMoment?
    /// Only the places whose attributes match all of these. Places only.
    public var attributes: [AttributeMatch] = []

    /// Whether the query filters places by anything but distance.
    public var filters: Bool { open != nil || !attributes.isEmpty }

    public init(
        collection: Collection, center: Coordinate, reach: Reach, model: DistanceModel = .geodesic,
        principal: Principal = .anonymous, measures: Measures = .indexed, namesNearestBeyond: Bool = false,
        countsAll: Bool = true
    ) {
        self.collection = collection
        self.center = center
        self.reach = reach
        self.model = model
        self.principal = principal
        self.measures = measures
        self.namesNearestBeyond = namesNearestBeyond
        self.countsAll = countsAll
    }

    /// A query of the collection a kind names: `user` is the people, any other kind places.
    public init(
        kind: String, center: Coordinate, reach: Reach, model: DistanceModel = .geodesic,
        principal: Principal = .anonymous, measures: Measures = .indexed, namesNearestBeyond: Bool = false,
        countsAll: Bool = true
    ) {
        self.init(
            collection: PlaceQuery.collection(kind: kind), center: center, reach: reach, model: model,
            principal: principal, measures: measures, namesNearestBeyond: namesNearestBeyond, countsAll: countsAll)
    }

    /// The query with an open time and attribute conditions, as every surface applies them: a list
    /// keeps only the places open at `open`; a map (`marking`) keeps every place, each with its
    /// state then (`hoursAt`). On users, whom no filter applies to, `open` is the filter, which
    /// `PlaceDirectory.answer` refuses.
    public func filtered(open: OpeningMoment?, attributes: [AttributeMatch], marking: Bool = false) -> PlaceQuery {
        var query = self
        if marking && collection != .users { query.hoursAt = open } else { query.open = open }
        query.attributes = attributes
        return query
    }

    /// `user` is the people; every other kind is places of that kind.
    public static func collection(kind: String) -> Collection {
        kind == PlaceDirectory.userKind ? .users : .places([kind])
    }
}
