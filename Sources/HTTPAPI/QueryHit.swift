import Geo
import Places

/// One result of a query as the API shows it: where, how far (meters under the query's model)
/// and which way (initial bearing, degrees clockwise from north in [0, 360); grid north for
/// `projected`).
struct QueryHit: Sendable, Hashable {
    var id: String
    var name: String
    var kind: String
    var coordinate: Coordinate
    var distanceMeters: Double
    var bearingDegrees: Double
    /// For users: `private` only for the asking user's own record.
    var visibility: Visibility?

    /// The hits of a query for `kind`: users (those `principal` may see) for `user`, places
    /// otherwise, with their bearings from `center` under `model`.
    ///
    /// - Parameters:
    ///   - users: runs the user query; places: runs the place query.
    static func find(
        in directory: PlaceDirectory, kind: String, from center: Coordinate, model: DistanceModel,
        users: (PlaceDirectory) throws(PlacesError) -> [UserHit],
        places: (PlaceDirectory) throws(PlacesError) -> [PlaceHit]
    ) throws(PlacesError) -> [QueryHit] {
        var hits: [QueryHit] = []
        // One frame for every hit: normal-section bearings within 5 km (BearingFrame).
        let bearings = BearingFrame(from: center, model: model)
        func initialBearing(to point: Coordinate) throws(PlacesError) -> Double {
            do { return try bearings.bearing(to: point) } catch { throw .geo(error) }
        }
        if kind == PlaceDirectory.userKind {
            for hit in try users(directory) {
                // A user without a location is on no map; the façade never returns one.
                guard let location = hit.user.location else { continue }
                let bearing = try initialBearing(to: location)
                hits.append(
                    QueryHit(
                        id: hit.user.id, name: hit.user.name, kind: kind, coordinate: location,
                        distanceMeters: hit.distanceMeters, bearingDegrees: bearing, visibility: hit.user.visibility))
            }
        } else {
            for hit in try places(directory) {
                let bearing = try initialBearing(to: hit.place.coordinate)
                hits.append(
                    QueryHit(
                        id: hit.place.id, name: hit.place.name, kind: hit.place.kind, coordinate: hit.place.coordinate,
                        distanceMeters: hit.distanceMeters, bearingDegrees: bearing))
            }
        }
        return hits
    }

    var placeHit: Components.Schemas.PlaceHit {
        Components.Schemas.PlaceHit(
            id: id, name: name, kind: kind, lat: coordinate.latitude, lon: coordinate.longitude,
            distanceM: distanceMeters, bearingDeg: bearingDegrees)
    }

    /// An RFC 7946 Feature: a Point at `[longitude, latitude]`.
    var feature: Components.Schemas.PlaceFeature {
        Components.Schemas.PlaceFeature(
            _type: .feature, id: id,
            geometry: .init(_type: .point, coordinates: [coordinate.longitude, coordinate.latitude]),
            properties: .init(name: name, kind: kind, distanceM: distanceMeters, bearingDeg: bearingDegrees))
    }

    var userHit: Components.Schemas.UserHit {
        Components.Schemas.UserHit(
            id: id, name: name, lat: coordinate.latitude, lon: coordinate.longitude, distanceM: distanceMeters,
            bearingDeg: bearingDegrees, visibility: visibility == .private ? ._private : ._public)
    }
}
