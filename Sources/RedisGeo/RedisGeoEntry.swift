/// A member of a GEO sorted set: its score (the 52-bit hash, as a `Double` like Redis stores it)
/// and the member itself (a name, an id or bytes: whatever the caller stores).
public struct RedisGeoEntry<Member: Sendable>: Sendable {
    /// The sorted-set score: `Double(try GeoHash.encode(longitude:latitude:))` for a GEOADDed member.
    public var score: Double
    public var member: Member

    public init(score: Double, member: Member) {
        self.score = score
        self.member = member
    }
}

extension RedisGeoEntry: Equatable where Member: Equatable {}
extension RedisGeoEntry: Hashable where Member: Hashable {}

extension RedisGeoEntry where Member: StringProtocol {
    /// Redis's sorted-set order: by score, then by the member's UTF-8 bytes compared as unsigned
    /// (`memcmp`, a shorter prefix first). Swift's `<` on strings compares Unicode canonical
    /// equivalents instead, which is not the same order.
    public func precedes(_ other: RedisGeoEntry) -> Bool {
        if score != other.score { return score < other.score }
        return member.utf8.lexicographicallyPrecedes(other.member.utf8)
    }
}

/// A member found by `RedisGeoSearch`, with what WITHDIST, WITHHASH and WITHCOORD print.
public struct RedisGeoMatch<Member: Sendable>: Sendable {
    public var member: Member
    /// The sorted-set score; WITHHASH prints `RedisGeoText.hash(score:)`.
    public var score: Double
    /// The decoded position (the centre of the member's cell), degrees; WITHCOORD prints
    /// `RedisGeoText.coordinate(_:)` of each.
    public var longitude: Double
    public var latitude: Double
    /// Distance from the search centre, meters; WITHDIST prints
    /// `RedisGeoText.distance(meters:unit:)` with the shape's unit.
    public var distanceMeters: Double
}

extension RedisGeoMatch: Equatable where Member: Equatable {}
extension RedisGeoMatch: Hashable where Member: Hashable {}

/// A member found by `RedisGeoSearch.hits(scores:order:count:)`: its position in the scores
/// searched, with what WITHDIST, WITHHASH and WITHCOORD print (see `RedisGeoMatch`).
public struct RedisGeoHit: Sendable, Hashable {
    /// The member's index in the `scores` array searched.
    public var position: Int
    /// The sorted-set score.
    public var score: Double
    /// The decoded position (the centre of the member's cell), degrees.
    public var longitude: Double
    public var latitude: Double
    /// Distance from the search centre, meters: Redis's to the bit when `distanceError` is 0,
    /// else an estimate within `distanceError` meters of it (see
    /// `RedisGeoSearch.hits(candidates:centres:order:count:membersPrecede:estimating:)`).
    public var distanceMeters: Double
    /// 0, or how far `distanceMeters` may be from Redis's distance, meters.
    public var distanceError: Double = 0
}
