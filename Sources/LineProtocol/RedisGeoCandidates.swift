import Geo
import Places
import RedisGeo

/// The members a GEO search may report, in no particular order, kept as parallel arrays (scores,
/// and members or place handles) so that `RedisGeoSearch.hits(candidates:)` reads plain `Double`s
/// and answers with positions.
///
/// Places are kept by handle: their ids are read from the catalog's bytes only for the members
/// a reply holds (`appendMember`), and for the rare comparison of two equal scores.
struct RedisGeoCandidates {
    /// The members' sorted-set scores.
    private(set) var scores: [Double] = []
    /// The members as text, position for position with `scores` (the `user` key).
    private var members: [String] = []
    /// The places' handles, position for position with `scores` (a place kind).
    private var handles: [UInt32] = []
    /// Where the places' ids are read.
    private let ids: PlaceIDs?

    /// Candidates given as text.
    init() { ids = nil }

    /// Candidates of a place kind, given by handle; their ids are read from `ids`.
    init(ids: PlaceIDs, reservingCapacity capacity: Int = 0) {
        self.ids = ids
        scores.reserveCapacity(capacity)
        handles.reserveCapacity(capacity)
    }

    mutating func append(score: Double, member: String) {
        precondition(ids == nil, "candidates of a place kind are given by handle")
        scores.append(score)
        members.append(member)
    }

    mutating func append(score: Double, handle: UInt32) {
        scores.append(score)
        handles.append(handle)
    }

    /// The member at a position.
    func member(_ position: Int) -> String {
        guard let ids else { return members[position] }
        return ids.id(handles[position])
    }

    /// Reads the members at these positions from memory at once (`PlaceIDs.touch`), before they
    /// are appended one by one. Returns a value of no meaning.
    @discardableResult
    func touchMembers(_ hits: [RedisGeoHit]) -> UInt32 {
        guard let ids, hits.count > 1 else { return 0 }
        let touched = [UInt32](unsafeUninitializedCapacity: hits.count) { buffer, count in
            for (index, hit) in hits.enumerated() { buffer[index] = handles[hit.position] }
            count = hits.count
        }
        return touched.withUnsafeBufferPointer { ids.touch($0) }
    }

    /// Appends the member at a position to `rows` as a text value.
    func appendMember(_ position: Int, to rows: inout RESPRows) {
        guard let ids else {
            rows.appendText(members[position])
            return
        }
        ids.withID(handles[position]) { bytes in rows.appendBytes(bytes) }
    }

    /// Redis's sorted-set order for members of equal score: their UTF-8 bytes compared as
    /// unsigned (`memcmp`, a shorter prefix first).
    func memberPrecedes(_ a: Int, _ b: Int) -> Bool {
        guard let ids else { return members[a].utf8.lexicographicallyPrecedes(members[b].utf8) }
        return ids.withID(handles[a]) { first in
            ids.withID(handles[b]) { second in first.lexicographicallyPrecedes(second) }
        }
    }
}
