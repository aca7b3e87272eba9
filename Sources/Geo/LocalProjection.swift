import Foundation

/// A local azimuthal-equidistant projection of the WGS84 ellipsoid centred on one point, through
/// PROJ (`+proj=aeqd`): every point's distance and direction from the centre are true, so a map
/// drawn with it shows "132 m WSW" exactly where it is.
///
/// Coordinates are meters east and north of the centre. PROJ's ellipsoidal aeqd is computed
/// from Karney's geodesics, so `hypot(x, y)` equals `Geodesic.wgs84.distance` to well under a
/// millimeter anywhere in the hemisphere around the centre.
///
/// ```swift
/// let projection = try LocalProjection(center: here)
/// let (east, north) = try projection.project(pharmacy)  // (-127.6, -33.4)
/// ```
public struct LocalProjection: Sendable {
    /// The centre of the projection.
    public let center: Coordinate
    let crs: String
    let pool: ProjectionPool

    /// - Throws: `GeoError.projUnavailable` if PROJ cannot start.
    public init(center: Coordinate, pool: ProjectionPool = .shared) throws(GeoError) {
        self.center = center
        self.pool = pool
        crs = String(
            format: "+proj=aeqd +lat_0=%.12f +lon_0=%.12f +ellps=WGS84 +units=m +no_defs +type=crs",
            center.latitude, center.longitude)
        try pool.validate(crs: crs)
    }

    /// Meters east and north of the centre.
    ///
    /// - Throws: `GeoError.projectionFailed` for a point the projection cannot represent (the
    ///   centre's antipode).
    public func project(_ point: Coordinate) throws(GeoError) -> (x: Double, y: Double) {
        try pool.withTransformer(crs: crs) { transformer throws(GeoError) in try transformer.project(point) }
    }

    /// Projects many points with one transformation checked out of the pool; a point the
    /// projection cannot represent gives nil.
    public func project(_ points: [Coordinate]) throws(GeoError) -> [(x: Double, y: Double)?] {
        try pool.withTransformer(crs: crs) { transformer throws(GeoError) in
            points.map { try? transformer.project($0) }
        }
    }
}
