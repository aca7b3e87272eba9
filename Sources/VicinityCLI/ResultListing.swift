import Foundation
import Geo
import PlaceQueries
import Places
import TextMap

/// Query results with their bearings, printed as a table or as the `--json` document.
struct ResultListing {
    let center: Coordinate
    let model: DistanceModel
    /// The hits, nearest first, with the model's own distances and bearings
    /// (`PlaceQuery.Measures.exact`): the figures `vicinity dist` prints.
    let rows: [QueryHit]
    /// The CRS a projected query measured in.
    let crs: String?

    init(center: Coordinate, model: DistanceModel, hits: [QueryHit]) {
        self.center = center
        self.model = model
        self.rows = hits
        if case .projected(let choice) = model { crs = choice.crs(for: center) } else { crs = nil }
    }

    var modelDescription: String {
        switch model {
        case .geodesic: return "geodesic, WGS84"
        case .haversine(let sphere): return "haversine, sphere R = \(DistanceText.plain(sphere.radiusMeters)) m"
        case .projected: return "projected, \(crs ?? "")"
        }
    }

    /// One line per result: distance, compass point and bearing, name, id.
    func lines() -> [String] {
        let nameWidth = min(40, rows.map { displayName($0).count }.max() ?? 0)
        return rows.enumerated().map { position, row in
            let distance = DistanceText.short(row.distanceMeters)
            let compass = Bearing.compassPoint(row.bearingDegrees)
            let degrees = String(Int(row.bearingDegrees.rounded()) % 360)
            let direction = compass + String(repeating: " ", count: 4 - compass.count) + pad(degrees, 3) + "°"
            let name = displayName(row)
            let padded = name.count < nameWidth ? name + String(repeating: " ", count: nameWidth - name.count) : name
            let state = row.opening.map { "  " + OpeningLabel.text($0) } ?? ""
            return "\(pad(String(position + 1), 4)). \(pad(distance, 11))  \(direction)  \(padded)  "
                + "[\(ResultListing.printable(row.id))]\(state)"
        }
    }

    private func displayName(_ hit: QueryHit) -> String {
        hit.name.isEmpty ? "(unnamed)" : ResultListing.printable(hit.name)
    }

    /// See `TerminalText.printable` (shared with the map).
    static func printable(_ text: String) -> String { TerminalText.printable(text) }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// See `TerminalText.plural` (shared with the map).
    static func plural(_ kind: String, _ count: Int) -> String { TerminalText.plural(kind, count) }

    struct Document: Encodable {
        struct Query: Encodable {
            var lat: Double
            var lon: Double
            var radius_m: Double?
            var count: Int?
            var limit: Int?
            var model: String
            var crs: String?
            var sphere_radius_m: Double?
            /// `--open` as given and `--where`'s conditions, when given.
            var open: String?
            var `where`: [String]?

            // radius_m, count and limit are always present (null when not set), so every
            // near/nearest document has the same keys; crs and sphere_radius_m only with their model.
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(lat, forKey: .lat)
                try container.encode(lon, forKey: .lon)
                try container.encode(radius_m, forKey: .radius_m)
                try container.encode(count, forKey: .count)
                try container.encode(limit, forKey: .limit)
                try container.encode(model, forKey: .model)
                try container.encodeIfPresent(crs, forKey: .crs)
                try container.encodeIfPresent(sphere_radius_m, forKey: .sphere_radius_m)
                try container.encodeIfPresent(open, forKey: .open)
                try container.encodeIfPresent(`where`, forKey: .where)
            }

            enum CodingKeys: String, CodingKey {
                case lat, lon, radius_m, count, limit, model, crs, sphere_radius_m, open, `where`
            }
        }

        struct Result: Encodable {
            var id: String
            var name: String
            var kind: String
            var lat: Double
            var lon: Double
            var distance_m: Double
            var bearing_deg: Double
            /// With `--open`: `open`, `closed` or `unknown`, and the next change in local time.
            var open: String?
            var open_until: String?
            var opens_at: String?
            var on_duty: Bool?
        }

        var query: Query
        var results: [Result]
        /// For `near`: how many places are within the radius, when `limit` cut the list.
        var total: Int?
    }

    /// One result of a `--json` document (`map` adds a cell to each), its numbers as served
    /// (`ServedPrecision`).
    static func result(_ hit: QueryHit) -> Document.Result {
        let hit = hit.served
        return Document.Result(
            id: hit.id, name: hit.name, kind: hit.kind, lat: hit.coordinate.latitude, lon: hit.coordinate.longitude,
            distance_m: hit.distanceMeters, bearing_deg: hit.bearingDegrees, open: hit.opening?.status.rawValue,
            open_until: hit.opening?.openUntil, opens_at: hit.opening?.opensAt,
            on_duty: hit.opening?.onDuty == true ? true : nil)
    }

    /// The `--json` document: `{"query":{…},"results":[…]}`, plus `"total"` for `near`.
    func json(
        radiusMeters: Double?, count: Int?, limit: Int? = nil, total: Int? = nil, filters: QueryData? = nil
    ) throws -> String {
        var sphereRadius: Double?
        if case .haversine(let sphere) = model { sphereRadius = sphere.radiusMeters }
        let document = Document(
            query: .init(
                lat: center.latitude, lon: center.longitude, radius_m: radiusMeters, count: count, limit: limit,
                model: model.name, crs: crs, sphere_radius_m: sphereRadius, open: filters?.openText,
                where: filters.flatMap { $0.attributes.isEmpty ? nil : $0.attributes.map { "\($0.name)=\($0.value)" } }),
            results: rows.map(ResultListing.result), total: total)
        return try JSONOutput.encode(document)
    }
}
