import Foundation
import Geo

@testable import TextMap

/// Builds map models from the place fixtures in `Golden/` the way `vicinity map` does: WGS84
/// geodesic distance and initial bearing, positions from the local azimuthal-equidistant
/// projection, places within the radius nearest first (ties by id).
enum MapFixture {
    struct Place {
        var id: String
        var name: String
        var coordinate: Coordinate
    }

    /// The places of a fixture file (`id,name,lat,lon`, no quoting).
    static func places(_ file: String) throws -> [Place] {
        let text = try GoldenFile.resource(file)
        return try text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let latitude = Double(fields[2]), let longitude = Double(fields[3]) else {
                throw FixtureError.badLine(String(line))
            }
            return Place(
                id: fields[0], name: fields[1], coordinate: try Coordinate(latitude: latitude, longitude: longitude))
        }
    }

    /// The model for a query at `latitude`, `longitude` over a fixture file.
    static func model(
        _ file: String, latitude: Double, longitude: Double, radiusMeters: Double, halfExtentMeters: Double? = nil
    ) throws -> MapModel {
        let center = try Coordinate(latitude: latitude, longitude: longitude)
        let projection = try LocalProjection(center: center)
        let measured = try places(file).map { place in
            let (distance, bearing) = Geodesic.wgs84.inverse(center, place.coordinate)
            return (
                id: place.id,
                marker: MapMarker(
                    name: place.name, kind: "pharmacy", coordinate: place.coordinate, distanceMeters: distance,
                    bearingDegrees: bearing, projection: projection)
            )
        }.sorted { ($0.marker.distanceMeters, $0.id) < ($1.marker.distanceMeters, $1.id) }
        return MapModel(
            center: center, radiusMeters: radiusMeters, halfExtentMeters: halfExtentMeters, kind: "pharmacy",
            markers: measured.filter { $0.marker.distanceMeters <= radiusMeters }.map(\.marker),
            nearestBeyondRadius: measured.first { $0.marker.distanceMeters > radiusMeters }?.marker)
    }

    enum FixtureError: Error {
        case badLine(String)
    }
}
