import PlaceQueries

/// A query's hit in the contract's schemas: a user seen by anyone but themselves carries the
/// precision they are seen at (the query layer already placed them at their published location and
/// rounded the distance); a hit of a query with `open` carries its opening state. Distances,
/// bearings and coordinates are served as `ServedPrecision` says (`served`).
extension QueryHit {
    var placeHit: Components.Schemas.PlaceHit {
        let hit = served
        let opening = openingFields
        return Components.Schemas.PlaceHit(
            id: id, name: name, kind: kind, lat: hit.coordinate.latitude, lon: hit.coordinate.longitude,
            distanceM: hit.distanceMeters, bearingDeg: hit.bearingDegrees, precision: precision.map { .init($0) },
            onDuty: opening.onDuty, open: opening.open, openUntil: opening.openUntil, opensAt: opening.opensAt)
    }

    /// An RFC 7946 Feature: a Point at `[longitude, latitude]`.
    var feature: Components.Schemas.PlaceFeature {
        let hit = served
        let opening = openingFields
        return Components.Schemas.PlaceFeature(
            _type: .feature, id: id,
            geometry: .init(_type: .point, coordinates: [hit.coordinate.longitude, hit.coordinate.latitude]),
            properties: .init(
                name: name, kind: kind, distanceM: hit.distanceMeters, bearingDeg: hit.bearingDegrees,
                precision: precision.map { .init($0) }, onDuty: opening.onDuty, open: opening.open,
                openUntil: opening.openUntil, opensAt: opening.opensAt))
    }

    var userHit: Components.Schemas.UserHit {
        let hit = served
        return Components.Schemas.UserHit(
            id: id, name: name, lat: hit.coordinate.latitude, lon: hit.coordinate.longitude,
            distanceM: hit.distanceMeters,
            bearingDeg: hit.bearingDegrees, visibility: visibility == .private ? ._private : ._public,
            precision: precision.map { .init($0) })
    }
}
