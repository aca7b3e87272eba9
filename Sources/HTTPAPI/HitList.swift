import Geo
import NIOCore
import PlaceQueries
import Places

/// A JSON list answer of `/v1/nearby` or `/v1/nearest` as the query layer found it: the query's
/// echo and the hits, written to JSON straight from the hits (`write(to:)`, `jsonBytes`), or made
/// into the contract's document for the generated encoder (`NearbyList.document`).
///
/// The bytes are the generated encoder's for the same document (keys sorted, served numbers as
/// `ServedPrecision` rounds them, `HitsJSONTests`): each number rounded once, as it is written.
struct HitList<Echo: HitListEcho> {
    /// The query as the answer echoes it.
    var query: Echo
    /// Nearest first, as found (distances, bearings and coordinates not rounded yet).
    var hits: [QueryHit]
    /// `/v1/nearby`'s count of all the places within the radius; nil for `/v1/nearest`.
    var total: Int?
    /// The hits by handle, written instead of `hits` (then empty) when set: a `/v1/nearby` of
    /// one place kind that `HotRoutes` answers (`PlaceDirectory.handleAnswer`), the same bytes
    /// without a `QueryHit` made of each hit.
    var handles: PlaceHandleAnswer? = nil

    /// `{"query":…,"results":[…],"total":…}`.
    func write(to json: inout JSONText) {
        json.raw("{")
        json.key("query")
        query.write(to: &json)
        json.raw(",")
        json.key("results")
        if let handles { json.writeHits(handles) } else { json.writeHits(hits) }
        if let total {
            json.raw(",")
            json.key("total")
            json.integer(total)
        }
        json.raw("}")
    }

    /// Room for the document, bytes: a little more than a hit usually takes.
    var estimatedBytes: Int { 256 + (handles?.hits.hits.count ?? hits.count) * 180 }

    /// The document as compact JSON bytes.
    var jsonBytes: [UInt8] {
        var json = JSONText(capacity: estimatedBytes)
        write(to: &json)
        return json.bytes
    }

    /// The document as compact JSON in a buffer from `allocator`: written straight into it when
    /// it fits in `estimatedBytes` (most do), else copied into it once written.
    func jsonBuffer(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        let room = estimatedBytes
        var buffer = allocator.buffer(capacity: room)
        var spilled: ByteBuffer?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { bytes in
            var json = JSONText(writingInto: UnsafeMutableRawBufferPointer(rebasing: bytes[..<room]))
            write(to: &json)
            guard json.ownsBytes else { return json.count }
            spilled = json.buffer(allocator)
            return 0
        }
        return spilled ?? buffer
    }
}

typealias NearbyList = HitList<Components.Schemas.NearbyQuery>
typealias NearestList = HitList<Components.Schemas.NearestQuery>

extension HitList where Echo == Components.Schemas.NearbyQuery {
    /// The contract's document, every hit as the generated encoder takes it.
    var document: Components.Schemas.NearbyResult {
        .init(query: query, results: hits.map(\.placeHit), total: total ?? hits.count)
    }
}

extension HitList where Echo == Components.Schemas.NearestQuery {
    /// The contract's document, every hit as the generated encoder takes it.
    var document: Components.Schemas.NearestResult { .init(query: query, results: hits.map(\.placeHit)) }
}

/// A query echo a `HitList` writes first (`query`), its keys sorted as the generated encoder sorts
/// them.
protocol HitListEcho {
    func write(to json: inout JSONText)
}

extension Components.Schemas.NearbyQuery: HitListEcho {
    func write(to json: inout JSONText) {
        json.raw("{")
        if let crs {
            json.key("crs")
            json.string(crs)
            json.raw(",")
        }
        json.key("kind")
        json.string(kind)
        json.raw(",")
        json.key("lat")
        json.number(lat)
        json.raw(",")
        json.key("limit")
        json.integer(limit)
        json.raw(",")
        json.key("lon")
        json.number(lon)
        json.raw(",")
        json.key("model")
        json.string(model.rawValue)
        json.writeOpen(open)
        json.raw(",")
        json.key("radius_m")
        json.number(radiusM)
        json.writeSphereRadius(sphereRadiusM)
        json.writeWhere(_where)
        json.raw("}")
    }
}

extension Components.Schemas.NearestQuery: HitListEcho {
    func write(to json: inout JSONText) {
        json.raw("{")
        json.key("count")
        json.integer(count)
        if let crs {
            json.raw(",")
            json.key("crs")
            json.string(crs)
        }
        json.raw(",")
        json.key("kind")
        json.string(kind)
        json.raw(",")
        json.key("lat")
        json.number(lat)
        json.raw(",")
        json.key("lon")
        json.number(lon)
        if let maximum = maxDistanceM {
            json.raw(",")
            json.key("max_distance_m")
            json.number(maximum)
        }
        json.raw(",")
        json.key("model")
        json.string(model.rawValue)
        json.writeOpen(open)
        json.writeSphereRadius(sphereRadiusM)
        json.writeWhere(_where)
        json.raw("}")
    }
}

extension JSONText {
    /// `,"sphere_radius_m":…` of a haversine query's echo, nothing otherwise.
    fileprivate mutating func writeSphereRadius(_ meters: Double?) {
        guard let meters else { return }
        raw(",")
        key("sphere_radius_m")
        number(meters)
    }

    /// `,"open":…` of a query with an open filter, nothing otherwise.
    fileprivate mutating func writeOpen(_ text: String?) {
        guard let text else { return }
        raw(",")
        key("open")
        string(text)
    }

    /// `,"where":[…]` of a query with attribute filters, nothing otherwise.
    fileprivate mutating func writeWhere(_ texts: [String]?) {
        guard let texts else { return }
        raw(",")
        key("where")
        raw("[")
        for (index, text) in texts.enumerated() {
            if index > 0 { raw(",") }
            string(text)
        }
        raw("]")
    }

    /// `[{"bearing_deg":…,"distance_m":…,"id":…,"kind":…,"lat":…,"lon":…,"name":…},…]`: each
    /// member's punctuation and key in one piece (the list is most of the answer); a hit of a
    /// query with `open` goes on with `"on_duty":true` (on duty only), `"open":…`, and
    /// `"open_until":…` or `"opens_at":…`; a user seen by others ends with `"precision":…` (all
    /// after `name`, in key order), as `QueryHit.placeHit` has them. The numbers are rounded
    /// here, once, as `QueryHit.served` rounds them (`decimal` of a value prints what it prints of
    /// the value rounded).
    fileprivate mutating func writeHits(_ hits: [QueryHit]) {
        reserve(hits.count * 180)
        raw("[")
        for index in hits.indices {
            raw(index > 0 ? ",{\"bearing_deg\":" : "{\"bearing_deg\":")
            bearing(hits[index].bearingDegrees)
            raw(",\"distance_m\":")
            distance(hits[index].distanceMeters)
            raw(",\"id\":")
            string(hits[index].id)
            raw(",\"kind\":")
            string(hits[index].kind)
            let coordinate = hits[index].coordinate
            raw(",\"lat\":")
            degrees(coordinate.latitude)
            raw(",\"lon\":")
            degrees(coordinate.longitude)
            raw(",\"name\":")
            string(hits[index].name)
            if let opening = hits[index].opening {
                if opening.onDuty { raw(",\"on_duty\":true") }
                raw(",\"open\":")
                switch opening.status {
                case .open: raw("\"open\"")
                case .closed: raw("\"closed\"")
                case .unknown: raw("\"unknown\"")
                }
                if let until = opening.openUntil {
                    raw(",\"open_until\":")
                    string(until)
                }
                if let opens = opening.opensAt {
                    raw(",\"opens_at\":")
                    string(opens)
                }
            }
            if let precision = hits[index].precision {
                raw(",\"precision\":")
                string(Components.Schemas.Precision(precision).rawValue)
            }
            raw("}")
        }
        raw("]")
    }

    /// `writeHits(_:)`'s bytes for hits by handle (places: no opening state or precision), the ids
    /// and the names copied from the catalog's texts.
    fileprivate mutating func writeHits(_ answer: PlaceHandleAnswer) {
        let found = answer.hits
        reserve(found.hits.count * 180)
        // The hits' texts lie all over the catalog: their cache misses overlap here, and not one
        // after another in the loop below. (The result is looked at only so that the reads stay;
        // an empty list is `[]` either way.)
        guard found.touchTexts() != 0 || !found.hits.isEmpty else { return raw("[]") }
        // `,"kind":…,"lat":` is the same for every hit: written once, copied into each.
        var kindText = JSONText(capacity: 64)
        kindText.raw(",\"kind\":")
        kindText.string(found.kind)
        kindText.raw(",\"lat\":")
        raw("[")
        kindText.withBytes { kindAndLatitude in
            for index in found.hits.indices {
                let hit = found.hits[index]
                raw(index > 0 ? ",{\"bearing_deg\":" : "{\"bearing_deg\":")
                bearing(answer.bearings[index])
                raw(",\"distance_m\":")
                distance(hit.distanceMeters)
                raw(",\"id\":")
                let coordinate = answer.coordinates[index]
                found.withIDAndName(hit.handle) { id, name in
                    if JSONText.isPlainASCII(id) { plainString(utf8: id) } else { string(utf8: id) }
                    raw(kindAndLatitude)
                    degrees(coordinate.latitude)
                    raw(",\"lon\":")
                    degrees(coordinate.longitude)
                    raw(",\"name\":")
                    // ASCII is the name's `String` byte for byte; other bytes go through one, as
                    // `PlaceHandleHits.name` makes it (bytes that are not UTF-8 are repaired).
                    if JSONText.isPlainASCII(name) {
                        plainString(utf8: name)
                    } else if name.allSatisfy({ $0 < 0x80 }) {
                        string(utf8: name)
                    } else {
                        string(String(decoding: name, as: UTF8.self))
                    }
                }
                raw("}")
            }
        }
        raw("]")
    }
}
