import Foundation
import Geo

/// Redis 7.0's GEO arithmetic, reproduced to the bit: distances on its sphere and the radius and box
/// tests of GEOSEARCH (Redis `src/geohash_helper.c`).
///
/// The sphere has Redis's radius, 6,372,797.560856 m (`EARTH_RADIUS_IN_METERS`, `SphereRadius.redis`).
/// Expect the errors of any spherical model against WGS84: up to about 0.5 %. The formulas keep Redis's
/// order of floating-point operations and use the platform `sin`, `cos`, `asin` and `sqrt` (glibc on
/// Linux, as Redis does), so the results are identical to Redis's, not merely close.
///
/// ```swift
/// let meters = RedisGeo.distance(longitude1: 13.361389, latitude1: 38.115556,
///                                longitude2: 15.087269, latitude2: 37.502669)  // ≈ 166274.15 m
/// ```
public enum RedisGeo {
    /// Sphere radius, meters (Redis `EARTH_RADIUS_IN_METERS`, "Earth's quadratic mean radius").
    public static let earthRadiusMeters = SphereRadius.redis
    /// Degrees to radians, Redis's `D_R = M_PI / 180.0`.
    static let radiansPerDegree = Double.pi / 180
    /// Half the Web Mercator world width, meters (Redis `MERCATOR_MAX`): the radius at step 0 of
    /// `estimatedStep(radiusMeters:latitude:)`.
    static let mercatorMaximum = 20_037_726.37

    /// Great-circle distance in meters by the haversine formula, as Redis 7.0 computes it
    /// (`geohashGetDistance`).
    ///
    /// When the longitudes are equal (exactly: when the sine of half their difference is 0) Redis 7.0
    /// returns `latitudeDistance(_:_:)` instead, which can differ from the haversine value in the last
    /// bit; a radius equal to the distance then includes or excludes the point by that bit.
    ///
    /// - Parameters: longitudes and latitudes in degrees; no range is checked.
    /// - Returns: meters, 0...π R (about 20,020 km).
    public static func distance(
        longitude1: Double, latitude1: Double, longitude2: Double, latitude2: Double
    ) -> Double {
        let lon1 = longitude1 * radiansPerDegree
        let lon2 = longitude2 * radiansPerDegree
        let v = sin((lon2 - lon1) / 2)
        if v == 0 { return latitudeDistance(latitude1, latitude2) }
        let lat1 = latitude1 * radiansPerDegree
        let lat2 = latitude2 * radiansPerDegree
        let u = sin((lat2 - lat1) / 2)
        let a = u * u + cos(lat1) * cos(lat2) * v * v
        return 2.0 * earthRadiusMeters * asin(a.squareRoot())
    }

    /// `distance(longitude1:latitude1:longitude2:latitude2:)` from a fixed first point, with the
    /// values that depend on it alone computed once: for the many distances of one search. Each
    /// result is bit for bit what the four-argument function returns.
    struct DistanceFrom: Sendable, Hashable {
        let longitude: Double
        let latitude: Double
        let longitudeRadians: Double
        let latitudeRadians: Double
        let latitudeCosine: Double
        /// For `estimate(longitude:latitude:)`.
        let latitudeSine: Double
        let radius = RedisGeo.earthRadiusMeters
        let toRadians = RedisGeo.radiansPerDegree

        init(longitude: Double, latitude: Double) {
            self.longitude = longitude
            self.latitude = latitude
            longitudeRadians = longitude * RedisGeo.radiansPerDegree
            latitudeRadians = latitude * RedisGeo.radiansPerDegree
            latitudeCosine = cos(latitudeRadians)
            latitudeSine = sin(latitudeRadians)
        }

        /// Meters to a point given in degrees.
        func distance(longitude pointLongitude: Double, latitude pointLatitude: Double) -> Double {
            let v = sin((pointLongitude * toRadians - longitudeRadians) / 2)
            if v == 0 { return radius * abs(pointLatitude * toRadians - latitudeRadians) }
            let pointLatitudeRadians = pointLatitude * toRadians
            let u = sin((pointLatitudeRadians - latitudeRadians) / 2)
            let a = u * u + latitudeCosine * cos(pointLatitudeRadians) * v * v
            return 2.0 * radius * asin(a.squareRoot())
        }
    }

    /// Distance in meters along a meridian between two latitudes in degrees (Redis
    /// `geohashGetLatDistance`): R |φ2 − φ1|, with both latitudes converted to radians first.
    public static func latitudeDistance(_ latitude1: Double, _ latitude2: Double) -> Double {
        earthRadiusMeters * abs(latitude2 * radiansPerDegree - latitude1 * radiansPerDegree)
    }

    /// The distance from a search centre to a point if it is within a radius, else nil (Redis
    /// `geohashGetDistanceIfInRadiusWGS84`). The radius is inclusive.
    ///
    /// - Parameters:
    ///   - centerLongitude, centerLatitude: the centre, degrees.
    ///   - longitude, latitude: the point (a member's decoded position), degrees.
    ///   - radiusMeters: meters; Redis passes the radius times the unit's meters per unit.
    public static func distanceIfInRadius(
        centerLongitude: Double, centerLatitude: Double, longitude: Double, latitude: Double, radiusMeters: Double
    ) -> Double? {
        let distance = distance(
            longitude1: centerLongitude, latitude1: centerLatitude, longitude2: longitude, latitude2: latitude)
        return distance > radiusMeters ? nil : distance
    }

    /// The distance from a box's centre to a point if the point is inside the box, else nil (Redis
    /// `geohashGetDistanceIfInRectangle`).
    ///
    /// Redis's box is not a rectangle of parallels and meridians: a point is inside when its
    /// meridian distance to the centre's latitude is at most half the height and its distance along
    /// the point's own parallel to the centre's meridian (measured as a great circle) is at most half
    /// the width. Both edges are inclusive.
    ///
    /// - Parameters:
    ///   - widthMeters, heightMeters: the full width and height, meters.
    ///   - centerLongitude, centerLatitude: the centre, degrees.
    ///   - longitude, latitude: the point, degrees.
    public static func distanceIfInRectangle(
        widthMeters: Double, heightMeters: Double, centerLongitude: Double, centerLatitude: Double,
        longitude: Double, latitude: Double
    ) -> Double? {
        guard latitudeDistance(latitude, centerLatitude) <= heightMeters / 2 else { return nil }
        let alongParallel = distance(
            longitude1: longitude, latitude1: latitude, longitude2: centerLongitude, latitude2: latitude)
        guard alongParallel <= widthMeters / 2 else { return nil }
        return distance(
            longitude1: centerLongitude, latitude1: centerLatitude, longitude2: longitude, latitude2: latitude)
    }

    /// The precision, in bits per axis (1...26), of the nine cells Redis scans for a search of this
    /// radius (Redis `geohashEstimateStepsByRadius`): the largest step whose cells are still about
    /// twice the radius, one less beyond 66° of latitude and two less beyond 80°.
    ///
    /// - Parameters:
    ///   - radiusMeters: meters; for a box Redis passes half its diagonal.
    ///   - latitude: the centre's latitude, degrees.
    public static func estimatedStep(radiusMeters: Double, latitude: Double) -> UInt8 {
        if radiusMeters == 0 { return GeoHash.maximumStep }
        var range = radiusMeters
        var step = 1
        while range < mercatorMaximum {
            range *= 2
            step += 1
        }
        step -= 2
        if latitude > 66 || latitude < -66 {
            step -= 1
            if latitude > 80 || latitude < -80 { step -= 1 }
        }
        return UInt8(min(max(step, 1), Int(GeoHash.maximumStep)))
    }
}
