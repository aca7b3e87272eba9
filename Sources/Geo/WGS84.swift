/// Constants of the WGS84 ellipsoid and of the spheres Vicinity measures on.
///
/// Sources: NIMA TR8350.2 (WGS84 defining parameters a and 1/f); IUGG mean radius
/// R1 = (2a + b) / 3 (Moritz, "Geodetic Reference System 1980", Bulletin Géodésique 1980, rounded
/// to 0.1 m); the Redis radius from Redis `src/geohash_helper.c` (`EARTH_RADIUS_IN_METERS`).
public enum WGS84 {
    /// Equatorial radius a, meters (defining constant).
    public static let equatorialRadius = 6_378_137.0
    /// Flattening f = 1 / 298.257223563 (defining constant).
    public static let flattening = 1 / 298.257_223_563
    /// First eccentricity squared, e² = f (2 − f) ≈ 0.00669437999.
    public static let eccentricitySquared = flattening * (2 - flattening)
    /// Polar radius b = a (1 − f) ≈ 6,356,752.314 m.
    public static let polarRadius = equatorialRadius * (1 - flattening)

    /// Smallest radius of curvature anywhere on the ellipsoid: the meridional radius at the equator,
    /// M(0) = a (1 − e²) ≈ 6,335,439.327 m.
    public static let minimumRadiusOfCurvature = equatorialRadius * (1 - eccentricitySquared)
    /// Largest radius of curvature anywhere on the ellipsoid: both radii at a pole,
    /// a / √(1 − e²) = a² / b ≈ 6,399,593.626 m.
    public static let maximumRadiusOfCurvature = equatorialRadius / (1 - eccentricitySquared).squareRoot()
}

/// Sphere radii used with the haversine model.
public enum SphereRadius {
    /// IUGG mean Earth radius R1 = 6,371,008.8 m: the default for the haversine model.
    public static let iuggMean = 6_371_008.8
    /// The radius Redis uses for its GEO commands, 6,372,797.560856 m (Redis `geohash_helper.c`).
    public static let redis = 6_372_797.560_856
}
