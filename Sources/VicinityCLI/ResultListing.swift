import Foundation
import Geo
import Places
import TextMap

/// Query results with their bearings, printed as a table or as the `--json` document.
struct ResultListing {
    struct Row {
        var hit: PlaceHit
        var bearing: Double
    }

    let center: Coordinate
    let model: DistanceModel
    let rows: [Row]
    /// The CRS a projected query measured in.
    let crs: String?

    init(center: Coordinate, model: DistanceModel, hits: [PlaceHit]) throws(CLIError) {
        self.center = center
        self.model = model
        var rows: [Row] = []
        for hit in hits {
            do {
                // The index's distance may be its chord estimate (within 0.1 µm); a person reads
                // the model's own figure, the same `vicinity dist` prints.
                let measured = try model.measure(center, hit.place.coordinate)
                var exact = hit
                exact.distanceMeters = measured.distanceMeters
                rows.append(Row(hit: exact, bearing: measured.bearing))
            } catch {
                throw .usage(error.description)
            }
        }
        self.rows = rows
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
        let nameWidth = min(40, rows.map { displayName($0.hit.place).count }.max() ?? 0)
        return rows.enumerated().map { position, row in
            let distance = DistanceText.short(row.hit.distanceMeters)
            let compass = Bearing.compassPoint(row.bearing)
            let degrees = String(Int(row.bearing.rounded()) % 360)
            let direction = compass + String(repeating: " ", count: 4 - compass.count) + pad(degrees, 3) + "°"
            let name = displayName(row.hit.place)
            let padded = name.count < nameWidth ? name + String(repeating: " ", count: nameWidth - name.count) : name
            return "\(pad(String(position + 1), 4)). \(pad(distance, 11))  \(direction)  \(padded)  "
                + "[\(ResultListing.printable(row.hit.place.id))]"
        }
    }

    private func displayName(_ place: Place) -> String {
        place.name.isEmpty ? "(unnamed)" : ResultListing.printable(place.name)
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
            }

            enum CodingKeys: String, CodingKey {
                case lat, lon, radius_m, count, limit, model, crs, sphere_radius_m
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
        }

        var query: Query
        var results: [Result]
        /// For `near`: how many places are within the radius, when `limit` cut the list.
        var total: Int?
    }

    /// One result of a `--json` document (`map` adds a cell to each).
    static func result(_ row: Row) -> Document.Result {
        Document.Result(
            id: row.hit.place.id, name: row.hit.place.name, kind: row.hit.place.kind,
            lat: row.hit.place.coordinate.latitude, lon: row.hit.place.coordinate.longitude,
            distance_m: row.hit.distanceMeters, bearing_deg: row.bearing)
    }

    /// The `--json` document: `{"query":{…},"results":[…]}`, plus `"total"` for `near`.
    func json(radiusMeters: Double?, count: Int?, limit: Int? = nil, total: Int? = nil) throws -> String {
        var sphereRadius: Double?
        if case .haversine(let sphere) = model { sphereRadius = sphere.radiusMeters }
        let document = Document(
            query: .init(
                lat: center.latitude, lon: center.longitude, radius_m: radiusMeters, count: count, limit: limit,
                model: model.name, crs: crs, sphere_radius_m: sphereRadius),
            results: rows.map(ResultListing.result), total: total)
        return try JSONOutput.encode(document)
    }
}
