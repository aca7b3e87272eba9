import Foundation

/// A standing radius around a point under a distance model: the region a watch covers.
///
/// `contains` answers exactly what a radius query with the same centre, radius and model answers
/// for the point (distance ≤ radius, inclusive): a chord through the Earth and proven bounds decide
/// almost every point with a few multiplications, and the model's own distance decides the thin
/// band where the bounds cannot.
public struct Circle: Sendable {
    public let center: Coordinate
    /// Meters, finite, 0 or more.
    public let radiusMeters: Double
    /// `.geodesic` or `.haversine`.
    public let model: DistanceModel
    let frame: ChordFrame
    let accept: Double
    let reject: Double
    /// The central angle on the unit sphere that holds the whole circle (for covers), radians.
    let angularRadius: Double
    /// For the haversine model, the sphere's radius in meters; nil for the ellipsoid.
    let sphereRadius: Double?

    /// - Throws: `GeoError.invalidRadius` for a negative or non-finite radius;
    ///   `GeoError.unsupportedModel` for a projected model (its distances need a projection per
    ///   point, which a standing circle does not keep).
    public init(center: Coordinate, radiusMeters: Double, model: DistanceModel) throws(GeoError) {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        let bounds: ChordBounds
        let sphereRadius: Double?
        switch model {
        case .haversine(let sphere):
            frame = ChordFrame(center: center, equatorialRadius: sphere.radiusMeters, eccentricitySquared: 0)
            bounds = .sphere(radius: sphere.radiusMeters)
            sphereRadius = sphere.radiusMeters
        case .geodesic:
            frame = ChordFrame(
                center: center, equatorialRadius: WGS84.equatorialRadius,
                eccentricitySquared: WGS84.eccentricitySquared)
            bounds = .ellipsoid
            sphereRadius = nil
        case .projected:
            throw .unsupportedModel("projected distances cannot be watched; use geodesic or haversine")
        }
        self.center = center
        self.radiusMeters = radiusMeters
        self.model = model
        self.sphereRadius = sphereRadius
        (accept, reject) = bounds.thresholds(radiusMeters: radiusMeters)
        let reach = radiusMeters + bounds.halfWidth(atDistance: radiusMeters)
        angularRadius = reach / (sphereRadius ?? WGS84.minimumRadiusOfCurvature)
    }

    /// Whether `point` is within the radius (distance ≤ radius) under the model.
    @inline(__always)
    public func contains(_ point: Coordinate) -> Bool {
        let chord2 = frame.chordSquared(latitude: point.latitude, longitude: point.longitude)
        if chord2 <= accept { return true }
        if chord2 > reject { return false }
        return exactDistance(to: point) <= radiusMeters
    }

    /// The model's own distance from the centre, meters.
    public func exactDistance(to point: Coordinate) -> Double {
        switch model {
        case .haversine(let sphere): return sphere.distance(center, point)
        default: return Geodesic.wgs84.distance(center, point)
        }
    }
}
