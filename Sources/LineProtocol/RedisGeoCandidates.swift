import Geo
import RedisGeo

/// The members a GEO search may report, in no particular order, kept as two parallel arrays
/// (scores and members) so that `RedisGeoSearch.hits(candidates:)` reads plain `Double`s and
/// answers with positions.
struct RedisGeoCandidates {
    /// The members' sorted-set scores.
    private(set) var scores: [Double] = []
    /// The members, position for position with `scores`.
    private(set) var members: [String] = []

    mutating func append(score: Double, member: String) {
        scores.append(score)
        members.append(member)
    }

    /// Redis's sorted-set order for members of equal score: their UTF-8 bytes compared as
    /// unsigned (`memcmp`, a shorter prefix first).
    func memberPrecedes(_ a: Int, _ b: Int) -> Bool {
        members[a].utf8.lexicographicallyPrecedes(members[b].utf8)
    }
}
