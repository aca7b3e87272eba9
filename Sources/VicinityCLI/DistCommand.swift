import ArgumentParser
import Foundation
import Geo

/// `vicinity dist`: one distance under all three models, side by side.
struct DistCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "dist",
        abstract: "Measure the distance between two points under every model.",
        discussion: "Latitude first: vicinity dist 41.088154 29.015615 41.087853 29.014096"
    )

    @Argument(help: "Latitude of the first point, degrees (-90 to 90).") var latitude1: String
    @Argument(help: "Longitude of the first point, degrees (-180 to 180).") var longitude1: String
    @Argument(help: "Latitude of the second point, degrees (-90 to 90).") var latitude2: String
    @Argument(help: "Longitude of the second point, degrees (-180 to 180).") var longitude2: String
    @Option(help: "Projected CRS: auto (UTM zone of the first point) or e.g. EPSG:32635.") var crs = "auto"
    @Option(help: "Sphere radius for haversine, meters (default 6371008.8, the IUGG mean radius).")
    var sphereRadius: String?
    @Flag(help: "Print one JSON document.") var json = false

    /// The `--json` document. Every key is always present: `projected_m` and `projected_error`
    /// are null unless the projection failed for these points (then the distance is null and the
    /// error says why).
    struct Report: Encodable {
        var haversine_m: Double
        var geodesic_m: Double
        var projected_m: Double?
        var crs: String
        var bearing_deg: Double
        var sphere_radius_m: Double
        var projected_error: String?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(haversine_m, forKey: .haversine_m)
            try container.encode(geodesic_m, forKey: .geodesic_m)
            try container.encode(projected_m, forKey: .projected_m)
            try container.encode(crs, forKey: .crs)
            try container.encode(bearing_deg, forKey: .bearing_deg)
            try container.encode(sphere_radius_m, forKey: .sphere_radius_m)
            try container.encode(projected_error, forKey: .projected_error)
        }

        enum CodingKeys: String, CodingKey {
            case haversine_m, geodesic_m, projected_m, crs, bearing_deg, sphere_radius_m, projected_error
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        let first = try ArgumentValues.coordinate(latitude: latitude1, longitude: longitude1) {
            "vicinity dist \($0) \($1) \(latitude2.trimmingCharacters(in: .whitespaces)) "
                + longitude2.trimmingCharacters(in: .whitespaces)
        }
        let second = try ArgumentValues.coordinate(latitude: latitude2, longitude: longitude2) {
            "vicinity dist \(latitude1.trimmingCharacters(in: .whitespaces)) "
                + "\(longitude1.trimmingCharacters(in: .whitespaces)) \($0) \($1)"
        }
        let sphere = try QueryOptions.sphere(sphereRadius)
        let choice = try QueryOptions.projection(crs)
        let geodesic = Geodesic.wgs84.inverse(first, second)
        let haversine = sphere.distance(first, second)
        var projected: Double?
        var projectedError: String?
        let crsName = choice.crs(for: first)
        switch Result(catching: { () throws(GeoError) in try ProjectedDistance(choice).measure(first, second) }) {
        case .success(let measured):
            projected = measured.distanceMeters
        case .failure(.projectionFailed(let crs, let latitude, let longitude, let reason)):
            // A point outside the projection's domain only costs that column; a CRS that PROJ
            // does not know is a usage error.
            projectedError =
                GeoError.projectionFailed(crs: crs, latitude: latitude, longitude: longitude, reason: reason)
                .description
        case .failure(let error):
            throw CLIError.usage(error.description)
        }
        if json {
            // Served as `GET /v1/distance` serves them (`ServedPrecision`).
            let bearing =
                ServedPrecision.distance(geodesic.distanceMeters) == 0
                ? 0 : ServedPrecision.bearing(geodesic.initialBearing)
            let report = Report(
                haversine_m: ServedPrecision.distance(haversine),
                geodesic_m: ServedPrecision.distance(geodesic.distanceMeters),
                projected_m: projected.map(ServedPrecision.distance), crs: crsName, bearing_deg: bearing,
                sphere_radius_m: sphere.radiusMeters, projected_error: projectedError)
            output.line(try JSONOutput.encode(report))
            return
        }
        output.line("from \(first) to \(second)")
        output.line(
            "  geodesic   \(DistanceText.precise(geodesic.distanceMeters))  WGS84 ellipsoid, Karney (PROJ geod_inverse)"
        )
        output.line(
            "  haversine  \(DistanceText.precise(haversine))  sphere R = \(DistanceText.plain(sphere.radiusMeters)) m")
        if let projected {
            let distortion = abs(projected - geodesic.distanceMeters) / max(geodesic.distanceMeters, 1e-9)
            let note =
                distortion > 0.01 ? " (distorted: \(String(format: "%.1f", distortion * 100)) % off the geodesic)" : ""
            output.line("  projected  \(DistanceText.precise(projected))  \(crsName)\(note)")
        } else {
            output.line("  projected  n/a  \(projectedError ?? crsName)")
        }
        let bearing = geodesic.initialBearing
        output.line(
            "  bearing    \(String(format: "%.1f", bearing))° \(Bearing.compassPoint(bearing)) (initial, geodesic)")
    }
}
