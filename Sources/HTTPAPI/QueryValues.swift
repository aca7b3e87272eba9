import Geo
import OpenAPIRuntime
import Places

/// The checked values of a query, shared by the query operations: a coordinate, a kind, a
/// distance model with the CRS and sphere the answer echoes, and the answer's format.
enum QueryValues {
    /// Latitude and longitude, each checked against its parameter's rule.
    static func coordinate(
        _ latitude: Double, _ longitude: Double, names: (latitude: String, longitude: String) = ("lat", "lon")
    ) throws(HTTPAPIError) -> Coordinate {
        let lat = try QueryParameter.latitude(names.latitude).check(latitude, Vocabulary.latitude)
        let lon = try QueryParameter.longitude(names.longitude).check(longitude, Vocabulary.longitude)
        do { return try Coordinate(latitude: lat, longitude: lon) } catch { throw .places(.geo(error)) }
    }

    /// The collection to search: `user`, or a place kind (`Vocabulary.queryKind`).
    static func kind(_ text: String?) throws(HTTPAPIError) -> String {
        do { return try Vocabulary.queryKind.parse(text ?? "pharmacy") } catch {
            throw .parameter("kind", in: .query, error)
        }
    }

    /// The position a watch resumes after: `Last-Event-ID` (what `EventSource` sends when it
    /// reconnects, so it wins), else `last_event_id` (checked as text by `QueryTextMiddleware`);
    /// nil for a fresh snapshot.
    static func resumePosition(header: String?, query: Int64?) throws(HTTPAPIError) -> LogPosition? {
        if let header {
            guard let position = QueryParameter.position(header) else {
                throw .invalidParameter(
                    name: "Last-Event-ID", in: .header, noun: "last event id", value: header,
                    expected: QueryParameter.positionExpected)
            }
            return position
        }
        return query.map { LogPosition(clamping: $0) }
    }

    /// A distance model as a query names it, and what the answer echoes of it.
    struct Model: Sendable {
        var model: DistanceModel
        var name: Components.Schemas.DistanceModelName
        /// The CRS actually used (`auto` resolved), for `projected` only.
        var crs: String?
        /// The sphere's radius in meters, for `haversine` only.
        var sphereRadiusMeters: Double?
    }

    /// `model` and `crs` together: `crs` only with `projected` (as on the command line).
    static func model(_ name: Components.Schemas.DistanceModelName?, crs: String?, center: Coordinate)
        throws(HTTPAPIError) -> Model
    {
        let name = name ?? .geodesic
        guard name == .projected || crs == nil else {
            throw .conflictingParameter(
                name: "crs", detail: "crs applies only to model=projected (model is \"\(name.rawValue)\")")
        }
        switch name {
        case .geodesic:
            return Model(model: .geodesic, name: name)
        case .haversine:
            return Model(model: .sphere, name: name, sphereRadiusMeters: Haversine.iuggMean.radiusMeters)
        case .projected:
            let choice = try projection(crs)
            return Model(model: .projected(choice), name: name, crs: choice.crs(for: center))
        }
    }

    /// `auto` (the default) or one of the CRSs the contract names: WGS 84 / UTM north
    /// (EPSG:32601–32660) and south (EPSG:32701–32760), UPS (EPSG:32661, EPSG:32761) and the
    /// British National Grid (EPSG:27700) — all surely projected and in every `proj.db`.
    static func projection(_ text: String?) throws(HTTPAPIError) -> ProjectionChoice {
        guard let text, text != "auto" else { return .auto }
        let digits = text.hasPrefix("EPSG:") ? text.dropFirst(5) : ""
        if digits.count == 5, digits.first != "0", digits.allSatisfy(\.isASCII), let code = Int(digits),
            (32601...32660).contains(code) || (32701...32760).contains(code) || [32661, 32761, 27700].contains(code)
        {
            return .crs(text)
        }
        throw .invalidParameter(
            name: "crs", in: .query, noun: "crs", value: text,
            expected: "auto or EPSG:<code> of a WGS 84 / UTM zone (32601 to 32660, 32701 to 32760), "
                + "UPS (32661, 32761) or the British National Grid (27700)")
    }

    /// Whether to answer GeoJSON: `format` when given, else whether the client prefers
    /// `application/geo+json` to `application/json` in `Accept` (highest quality first, then
    /// the order given).
    static func wantsGeoJSON<T: AcceptableProtocol>(
        format: Components.Schemas.ResultFormat?, accept: [AcceptHeaderContentType<T>]
    ) -> Bool {
        if let format { return format == .geojson }
        // The first of the highest quality among the two types (later ones of the same quality
        // rank below it): one pass, no sorted copy.
        var best: (quality: Double, geoJSON: Bool)?
        for entry in accept {
            let quality = entry.quality.doubleValue
            guard quality > 0 else { continue }
            let geoJSON: Bool
            switch entry.contentType.rawValue {
            case "application/geo+json": geoJSON = true
            case "application/json": geoJSON = false
            default: continue
            }
            if let best, best.quality >= quality { continue }
            best = (quality, geoJSON)
        }
        return best?.geoJSON ?? false
    }
}
