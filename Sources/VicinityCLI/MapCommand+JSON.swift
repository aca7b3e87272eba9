import Foundation
import Geo
import Places
import TextMap

extension MapCommand {
    /// The `--json` document: `near --json`'s, each result with its map `cell` (null outside the
    /// drawn square), and a `map` object giving the grid the cells are counted in: `side` × `side`
    /// cells of `cell_m` meters, column 0 the westernmost and row 0 the northernmost.
    struct Document: Encodable {
        struct Result: Encodable {
            var id: String
            var name: String
            var kind: String
            var lat: Double
            var lon: Double
            var distance_m: Double
            var bearing_deg: Double
            var cell: MapCell?

            // cell is always present, null outside the map, like radius_m in the query.
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(name, forKey: .name)
                try container.encode(kind, forKey: .kind)
                try container.encode(lat, forKey: .lat)
                try container.encode(lon, forKey: .lon)
                try container.encode(distance_m, forKey: .distance_m)
                try container.encode(bearing_deg, forKey: .bearing_deg)
                try container.encode(cell, forKey: .cell)
            }

            enum CodingKeys: String, CodingKey {
                case id, name, kind, lat, lon, distance_m, bearing_deg, cell
            }
        }

        /// The grid: `side` × `side` cells of `cell_m` meters, column 0 west, row 0 north.
        struct Grid: Encodable {
            var side: Int
            var cell_m: Double
        }

        /// The nearest place beyond the radius, as the text names it under an empty map.
        struct Nearest: Encodable {
            var id: String
            var name: String
            var kind: String
            var lat: Double
            var lon: Double
            var distance_m: Double
            var bearing_deg: Double
        }

        var query: ResultListing.Document.Query
        var results: [Result]
        /// As for `near`: how many places are within the radius (all of them are listed).
        var total: Int
        var map: Grid
        /// When nothing is within the radius, the nearest place beyond it; else (or if the data
        /// has none) null.
        var nearest_outside: Nearest?

        // nearest_outside is always present, null when there is none, like cell.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(query, forKey: .query)
            try container.encode(results, forKey: .results)
            try container.encode(total, forKey: .total)
            try container.encode(map, forKey: .map)
            try container.encode(nearest_outside, forKey: .nearest_outside)
        }

        enum CodingKeys: String, CodingKey {
            case query, results, total, map, nearest_outside
        }
    }

    static func json(
        _ listing: ResultListing, _ rendered: RenderedMap, radiusMeters: Double,
        nearestOutside: ResultListing.Row? = nil
    ) throws -> String {
        var cells: [Int: MapCell] = [:]
        for entry in rendered.entries { cells[entry.markerIndex] = entry.cell }
        var sphereRadius: Double?
        if case .haversine(let sphere) = listing.model { sphereRadius = sphere.radiusMeters }
        let document = Document(
            query: .init(
                lat: listing.center.latitude, lon: listing.center.longitude, radius_m: radiusMeters, count: nil,
                model: listing.model.name, crs: listing.crs, sphere_radius_m: sphereRadius),
            results: listing.rows.enumerated().map { index, row in
                .init(
                    id: row.hit.place.id, name: row.hit.place.name, kind: row.hit.place.kind,
                    lat: row.hit.place.coordinate.latitude, lon: row.hit.place.coordinate.longitude,
                    distance_m: row.hit.distanceMeters, bearing_deg: row.bearing, cell: cells[index])
            },
            total: listing.rows.count, map: .init(side: rendered.side, cell_m: rendered.metersPerCell),
            nearest_outside: nearestOutside.map { row in
                .init(
                    id: row.hit.place.id, name: row.hit.place.name, kind: row.hit.place.kind,
                    lat: row.hit.place.coordinate.latitude, lon: row.hit.place.coordinate.longitude,
                    distance_m: row.hit.distanceMeters, bearing_deg: row.bearing)
            })
        return try JSONOutput.encode(document)
    }
}
