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

    /// The opening states of a fixture file (`id,state,time`: `open`, `duty`, `closed` or
    /// `unknown`, and the time of the next change as the map prints it, possibly empty), by id.
    static func openings(_ file: String) throws -> [String: MapMarker.Opening] {
        let text = try GoldenFile.resource(file)
        var states: [String: MapMarker.Opening] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { throw FixtureError.badLine(String(line)) }
            let time = fields[2].isEmpty ? nil : fields[2]
            switch fields[1] {
            case "open": states[fields[0]] = .open(until: time)
            case "duty": states[fields[0]] = .open(until: time, onDuty: true)
            case "closed": states[fields[0]] = .closed(opensAt: time)
            case "unknown": states[fields[0]] = .unknown
            default: throw FixtureError.badLine(String(line))
            }
        }
        return states
    }

    /// The model for a query at `latitude`, `longitude` over a fixture file, with the opening
    /// states of the `hours` fixture file if given (places it does not name have none).
    static func model(
        _ file: String, latitude: Double, longitude: Double, radiusMeters: Double, halfExtentMeters: Double? = nil,
        hours: String? = nil
    ) throws -> MapModel {
        let center = try Coordinate(latitude: latitude, longitude: longitude)
        let projection = try LocalProjection(center: center)
        let openings = try hours.map(Self.openings) ?? [:]
        let measured = try places(file).map { place in
            let (distance, bearing) = Geodesic.wgs84.inverse(center, place.coordinate)
            var marker = MapMarker(
                name: place.name, kind: "pharmacy", coordinate: place.coordinate, distanceMeters: distance,
                bearingDegrees: bearing, projection: projection)
            marker.opening = openings[place.id]
            return (id: place.id, marker: marker)
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
