import Geo
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Writes the JSON answers of `findNearby` and `findNearest` with `JSONText` instead of the
/// generated encoder (`JSONEncoder`), which cost 62 % of the server's time for lists of a few
/// hundred places.
///
/// The operation runs as usual, through the generated decoding, every middleware's checks and the
/// handler; only the encoding of a successful JSON list changes. The handler sees `slot` set
/// while this middleware runs: it writes its `NearbyResult`/`NearestResult` into it, and hands
/// the generated code the same document with an empty `results` list to encode. This middleware
/// then sends the slot's bytes instead of that encoding. GeoJSON answers and errors are encoded as
/// before. `HitsJSONTests` checks that both encodings read back to the same document.
struct HitsJSONMiddleware: ServerMiddleware {
    /// Where the handler leaves the bytes of its answer.
    final class Slot: Sendable {
        let bytes = Mutex<[UInt8]?>(nil)
    }

    /// Set for the operations this middleware writes.
    @TaskLocal static var slot: Slot?

    static let operations: Set<String> = ["findNearby", "findNearest"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operations.contains(operationID) else { return try await next(request, body, metadata) }
        let slot = Slot()
        var (response, responseBody) = try await Self.$slot.withValue(slot) { try await next(request, body, metadata) }
        if let bytes = slot.bytes.withLock({ $0 }) {
            response.headerFields[.contentLength] = nil
            responseBody = HTTPBody(bytes)
        }
        return (response, responseBody)
    }

    /// Gives the handler's answer to the middleware when it runs: true when the middleware will
    /// send `bytes`, so that the handler may return the document without its list.
    static func handOver(_ bytes: @autoclosure () -> [UInt8]) -> Bool {
        guard let slot else { return false }
        let text = bytes()
        slot.bytes.withLock { $0 = text }
        return true
    }
}

extension Components.Schemas.NearbyResult {
    /// The document as compact JSON bytes, keys as openapi.yaml names them and sorted, as the
    /// generated encoder writes every other answer (`HTTPServer.configuration`).
    var jsonBytes: [UInt8] {
        var json = JSONText(capacity: 256 + results.count * 140)
        json.raw("{")
        json.key("query")
        json.raw("{")
        if let crs = query.crs {
            json.key("crs")
            json.string(crs)
            json.raw(",")
        }
        json.key("kind")
        json.string(query.kind)
        json.raw(",")
        json.key("lat")
        json.number(query.lat)
        json.raw(",")
        json.key("limit")
        json.integer(query.limit)
        json.raw(",")
        json.key("lon")
        json.number(query.lon)
        json.raw(",")
        json.key("model")
        json.string(query.model.rawValue)
        json.writeOpen(query.open)
        json.raw(",")
        json.key("radius_m")
        json.number(query.radiusM)
        json.writeSphereRadius(query.sphereRadiusM)
        json.writeWhere(query._where)
        json.raw("},")
        json.key("results")
        json.writeHits(results)
        json.raw(",")
        json.key("total")
        json.integer(total)
        json.raw("}")
        return json.bytes
    }
}

extension Components.Schemas.NearestResult {
    /// The document as compact JSON bytes, keys as openapi.yaml names them and sorted.
    var jsonBytes: [UInt8] {
        var json = JSONText(capacity: 256 + results.count * 140)
        json.raw("{")
        json.key("query")
        json.raw("{")
        json.key("count")
        json.integer(query.count)
        if let crs = query.crs {
            json.raw(",")
            json.key("crs")
            json.string(crs)
        }
        json.raw(",")
        json.key("kind")
        json.string(query.kind)
        json.raw(",")
        json.key("lat")
        json.number(query.lat)
        json.raw(",")
        json.key("lon")
        json.number(query.lon)
        if let maximum = query.maxDistanceM {
            json.raw(",")
            json.key("max_distance_m")
            json.number(maximum)
        }
        json.raw(",")
        json.key("model")
        json.string(query.model.rawValue)
        json.writeOpen(query.open)
        json.writeSphereRadius(query.sphereRadiusM)
        json.writeWhere(query._where)
        json.raw("},")
        json.key("results")
        json.writeHits(results)
        json.raw("}")
        return json.bytes
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
    /// after `name`, in key order). The numbers are the served ones (`QueryHit.served`), written
    /// with `decimal`: the same digits as `number` would write, without its search.
    fileprivate mutating func writeHits(_ hits: [Components.Schemas.PlaceHit]) {
        reserve(hits.count * 180)
        raw("[")
        for (index, hit) in hits.enumerated() {
            raw(index > 0 ? ",{\"bearing_deg\":" : "{\"bearing_deg\":")
            decimal(hit.bearingDeg, decimals: ServedPrecision.bearingDecimals)
            raw(",\"distance_m\":")
            decimal(hit.distanceM, decimals: ServedPrecision.distanceDecimals)
            raw(",\"id\":")
            string(hit.id)
            raw(",\"kind\":")
            string(hit.kind)
            raw(",\"lat\":")
            decimal(hit.lat, decimals: ServedPrecision.coordinateDecimals)
            raw(",\"lon\":")
            decimal(hit.lon, decimals: ServedPrecision.coordinateDecimals)
            raw(",\"name\":")
            string(hit.name)
            if let onDuty = hit.onDuty { raw(onDuty ? ",\"on_duty\":true" : ",\"on_duty\":false") }
            if let open = hit.open {
                raw(",\"open\":")
                string(open.rawValue)
            }
            if let until = hit.openUntil {
                raw(",\"open_until\":")
                string(until)
            }
            if let opens = hit.opensAt {
                raw(",\"opens_at\":")
                string(opens)
            }
            if let precision = hit.precision {
                raw(",\"precision\":")
                string(precision.rawValue)
            }
            raw("}")
        }
        raw("]")
    }
}
