import Geo
import Places
import RedisGeo

/// The members a GEO search may report, in no particular order, kept as parallel arrays (scores,
/// and members or place handles) so that `RedisGeoSearch.hits(candidates:)` reads plain `Double`s
/// and answers with positions.
///
/// Places are kept by handle: their ids are read from the catalog's bytes only for the members
/// a reply holds (`appendRows`), and for the rare comparison of two equal scores.
struct RedisGeoCandidates {
    /// The members' sorted-set scores.
    private(set) var scores: [Double] = []
    /// The decoded positions of the scores, position for position, when the candidates were given
    /// with them (places); else empty.
    private(set) var centres: [(longitude: Double, latitude: Double)] = []
    /// The members as text, position for position with `scores` (the `user` key).
    private var members: [String] = []
    /// The places' handles, position for position with `scores` (a place kind).
    private var handles: [UInt32] = []
    /// Where the places' ids are read.
    private let ids: PlaceIDs?
    /// Whether `prefetchIDs` asked for every candidate's id already.
    private var idsPrefetched = false
    /// The most candidates whose ids `prefetchIDs` asks for: at most two 64-byte lines each (in
    /// blocks of 4 ids, fewer), so at most 512 KiB of lines asked for at once.
    static let maximumPrefetch = 4_096

    /// Candidates given as text.
    init() { ids = nil }

    /// Candidates of a place kind, given by handle with their exact positions (degrees): each
    /// coded as GEOADD codes it (`GeoHash.scoresAndCentres`), all at once; positions GEOADD
    /// refuses (beyond ±85.05112878° of latitude) are left out.
    init(ids: PlaceIDs, positions: UnsafeBufferPointer<(longitude: Double, latitude: Double)>, handles: [UInt32]) {
        precondition(positions.count == handles.count, "a handle for each position")
        self.ids = ids
        let count = positions.count
        var missing = 0
        var scores: [Double] = []
        let centres = [(longitude: Double, latitude: Double)](unsafeUninitializedCapacity: count) {
            centres, centresInitialized in
            scores = [Double](unsafeUninitializedCapacity: count) { scores, scoresInitialized in
                if let scoreBase = scores.baseAddress, let centreBase = centres.baseAddress {
                    missing = GeoHash.scoresAndCentres(positions, scores: scoreBase, centres: centreBase)
                }
                scoresInitialized = count
            }
            centresInitialized = count
        }
        guard missing > 0 else {
            self.scores = scores
            self.centres = centres
            self.handles = handles
            return
        }
        for index in scores.indices where !scores[index].isNaN {
            self.scores.append(scores[index])
            self.centres.append(centres[index])
            self.handles.append(handles[index])
        }
    }

    mutating func append(score: Double, member: String) {
        precondition(ids == nil, "candidates of a place kind are given by handle")
        scores.append(score)
        members.append(member)
    }

    /// Starts bringing every candidate place's id into the processor's caches
    /// (`PlaceIDs.prefetch`), for a reply that holds most candidates (a search without COUNT):
    /// the ids' cache misses then overlap the search instead of following it. Does nothing for
    /// more than `maximumPrefetch` candidates.
    mutating func prefetchIDs() {
        guard let ids, handles.count <= Self.maximumPrefetch else { return }
        handles.withUnsafeBufferPointer { ids.prefetch($0) }
        idsPrefetched = true
    }

    /// The member at a position.
    func member(_ position: Int) -> String {
        guard let ids else { return members[position] }
        return ids.id(handles[position])
    }

    /// Appends the row of each hit to `rows`, in order: its member as a text value, then what
    /// `rest` appends for it (given the hit's index in `hits`). Places' ids are read from memory
    /// all at once first (`PlaceIDs.touch`, unless `prefetchIDs` asked for them), so that their
    /// cache misses overlap, then written in one pass.
    func appendRows(_ hits: [RedisGeoHit], to rows: inout RESPRows, _ rest: (Int, inout RESPRows) -> Void) {
        guard let ids else {
            for (offset, hit) in hits.enumerated() {
                rows.appendText(members[hit.position])
                rest(offset, &rows)
            }
            return
        }
        withChosenHandles(hits, ids) { chosen in
            ids.forEachID(chosen) { offset, id in
                rows.appendBytes(id)
                rest(offset, &rows)
            }
        }
    }

    /// Appends each hit's member to rows of one text column, in order, as `appendRows` does with
    /// nothing after the member: a reply without WITH options.
    func appendMembers(_ hits: [RedisGeoHit], to rows: inout RESPRows) {
        guard let ids else {
            for hit in hits { rows.appendText(members[hit.position]) }
            return
        }
        withChosenHandles(hits, ids) { chosen in
            rows.appendTexts { append in ids.forEachID(chosen) { _, id in append(id) } }
        }
    }

    /// Appends each hit's row of two text columns, in order: its member, then its distance as
    /// WITHDIST prints it (`RedisGeoDistanceWriter`). A reply WITHDIST, as `appendRows` would
    /// write it.
    func appendMemberDistances(_ hits: [RedisGeoHit], to rows: inout RESPRows, _ distances: RedisGeoDistanceWriter) {
        guard let ids else {
            for hit in hits {
                rows.appendText(members[hit.position])
                rows.appendValue(capacity: RedisGeoDistanceWriter.room) { out in distances.write(hit, to: out) }
            }
            return
        }
        hits.withUnsafeBufferPointer { buffer in
            withChosenHandles(buffer, ids) { chosen in
                rows.appendTextPairs { writer in
                    ids.forEachID(chosen) { offset, id in
                        writer.append(id, secondCapacity: RedisGeoDistanceWriter.room) { out in
                            distances.write(buffer[offset], to: out)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the hits' place handles, in order, their ids asked for from memory first
    /// (`PlaceIDs.touch`) unless `prefetchIDs` did.
    private func withChosenHandles(
        _ hits: some Collection<RedisGeoHit>, _ ids: PlaceIDs, _ body: (UnsafeBufferPointer<UInt32>) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: hits.count) { buffer in
            for (index, hit) in hits.enumerated() { buffer[index] = handles[hit.position] }
            let chosen = UnsafeBufferPointer(buffer)
            if chosen.count > 1, !idsPrefetched { _ = ids.touch(chosen) }
            body(chosen)
        }
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
