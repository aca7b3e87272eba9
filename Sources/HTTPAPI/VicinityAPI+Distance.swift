import Geo
import Places

/// `GET /v1/distance`: one distance under all three models, as `vicinity dist --json`.
extension VicinityAPI {
    /// The geodesic, haversine and projected distances (to the millimetre) and the initial geodesic
    /// bearing (to 0.01°; 0 for points served 0 m apart). A CRS
    /// that cannot represent a point leaves `projected_m` out and says why in `projected_error`
    /// (still a 200). Public: the token is not looked at.
    func measureDistance(_ input: Operations.MeasureDistance.Input) async throws
        -> Operations.MeasureDistance.Output
    {
        let query = input.query
        let from = try QueryValues.coordinate(query.fromLat, query.fromLon, names: ("from_lat", "from_lon"))
        let to = try QueryValues.coordinate(query.toLat, query.toLon, names: ("to_lat", "to_lon"))
        let choice = try QueryValues.projection(query.crs)
        let sphere = Haversine.iuggMean
        let measured = try read { directory throws(PlacesError) in
            let geodesic = try directory.distance(from, to, model: .geodesic)
            let haversine = try directory.distance(from, to, model: .haversine(sphere)).distanceMeters
            let projected = Result { () throws(PlacesError) -> Double in
                try directory.distance(from, to, model: .projected(choice)).distanceMeters
            }
            return (geodesic, haversine, projected)
        }
        var projectedMeters: Double?
        var projectedError: String?
        switch measured.2 {
        case .success(let meters): projectedMeters = meters
        // A point outside the projection's domain only costs that figure.
        case .failure(.geo(.projectionFailed(let crs, let latitude, let longitude, let reason))):
            projectedError =
                GeoError.projectionFailed(crs: crs, latitude: latitude, longitude: longitude, reason: reason)
                .description
        case .failure(let error): throw HTTPAPIError.places(error)
        }
        // Served as `ServedPrecision` says; two points served 0 m apart have bearing 0.
        let geodesic = measured.0.distanceMeters
        let bearing = ServedPrecision.distance(geodesic) == 0 ? 0 : ServedPrecision.bearing(measured.0.bearing)
        return .ok(
            .init(
                body: .json(
                    .init(
                        from: .init(lat: from.latitude, lon: from.longitude),
                        to: .init(lat: to.latitude, lon: to.longitude),
                        geodesicM: ServedPrecision.distance(geodesic), haversineM: ServedPrecision.distance(measured.1),
                        sphereRadiusM: sphere.radiusMeters, projectedM: projectedMeters.map(ServedPrecision.distance),
                        crs: choice.crs(for: from), projectedError: projectedError, bearingDeg: bearing))))
    }
}
