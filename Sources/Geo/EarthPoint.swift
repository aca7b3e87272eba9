import Foundation

/// A point as Cartesian coordinates: on the WGS84 ellipsoid (meters from the centre, the z axis
/// through the north pole) and on the unit sphere, so that the chord between two points is three
/// differences and three products.
///
/// The squared chord is the same quantity `ChordFrame` computes (p = N cos φ, z = N (1 − e²) sin φ,
/// and 4 p p₀ sin²(Δλ/2) = (x − x₀)² + (y − y₀)² − (p − p₀)²), within a few nanometers: each
/// coordinate is about 6.4e6 m, whose rounding is 1e-9 m, far inside the 50 to 100 nm that
/// `ChordBounds` allows. It costs two `sin`/`cos` pairs per point instead of a series per pair,
/// which is right when one point meets many centres (a change meeting the watches around it).
struct EarthPoint {
    var x: Double
    var y: Double
    var z: Double
    var unitX: Double
    var unitY: Double
    var unitZ: Double

    init(_ point: Coordinate) {
        let phi = point.latitude * ChordFrame.radiansPerDegree
        let lambda = point.longitude * ChordFrame.radiansPerDegree
        let sinPhi = sin(phi)
        let cosPhi = cos(phi)
        let cosLambda = cos(lambda)
        let sinLambda = sin(lambda)
        let n = WGS84.equatorialRadius / (1 - WGS84.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        let p = n * cosPhi
        x = p * cosLambda
        y = p * sinLambda
        z = n * (1 - WGS84.eccentricitySquared) * sinPhi
        unitX = cosPhi * cosLambda
        unitY = cosPhi * sinLambda
        unitZ = sinPhi
    }
}
