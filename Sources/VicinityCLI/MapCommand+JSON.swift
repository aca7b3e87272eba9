import Foundation
import Geo
import PlaceQueries
import Places
import TextMap

extension MapCommand {
    /// The `--json` document: `near --json`'s, each result with its map `cell` (null outside the
    /// drawn square), and a `map` object giving the grid the cells are counted in: `side` × `side`
    /// cells of `cell_m` meters, column 0 the westernmost and row 0 the northernmost.
    struct Document: Encodable {
        /// A `near --json` result with its map cell, always present (null outside the map).
        struct Result: Encodable {
            var place: ResultListing.Document.Result
            var cell: MapCell?

            func encode(to encoder: Encoder) throws {
                try place.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(cell, forKey: .cell)
            }

            enum CodingKeys: String, CodingKey {
                case cell
            }
        }

        /// The grid: `side` × `side` cells of `cell_m` meters, column 0 west, row 0 north.
        struct Grid: Encodable {
            var side: Int
            var cell_m: Double
        }

        var query: ResultListing.Document.Query
        var results: [Result]
        /// As for `near`: how many places are within the radius (all of them are listed).
        var total: Int
        var map: Grid
        /// When nothing is within the radius, the nearest place beyond it; else (or if the data
        /// has none) null.
        var nearest_outside: ResultListing.Document.Result?

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
        nearestOutside: QueryHit? = nil
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
                Document.Result(place: ResultListing.result(row), cell: cells[index])
            },
            total: listing.rows.count, map: .init(side: rendered.side, cell_m: rendered.metersPerCell),
            nearest_outside: nearestOutside.map(ResultListing.result))
        return try JSONOutput.encode(document)
    }
}
