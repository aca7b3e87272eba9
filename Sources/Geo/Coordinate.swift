/// A validated point on the WGS84 ellipsoid: geodetic latitude and longitude in degrees.
///
/// Latitude is in -90...90 (positive north), longitude in -180...180 (positive east). Both are
/// finite. The values are stored exactly as given: no rounding, no wrapping, no clamping.
///
/// ```swift
/// let here = try Coordinate(latitude: 41.088154, longitude: 29.015615)
/// ```
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Geodetic latitude in degrees, -90...90, positive north.
    public let latitude: Double
    /// Longitude in degrees, -180...180, positive east of Greenwich.
    public let longitude: Double

    /// Creates a coordinate, rejecting NaN, infinities and values outside the valid ranges.
    ///
    /// - Parameters:
    ///   - latitude: degrees, -90...90.
    ///   - longitude: degrees, -180...180 (both ±180 are accepted and name the same meridian).
    /// - Throws: `GeoError.invalidLatitude` or `GeoError.invalidLongitude` naming the value.
    public init(latitude: Double, longitude: Double) throws(GeoError) {
        guard latitude.isFinite, abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite, abs(longitude) <= 180 else { throw .invalidLongitude(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate from values already known to be valid (internal fast path).
    init(unchecked latitude: Double, _ longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "\(latitude), \(longitude)" }
}
