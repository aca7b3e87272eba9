import Geo

extension QueryHit {
    /// The hit as answers serve it (`ServedPrecision`): the distance to the millimetre, the
    /// bearing to 0.01° in [0, 360), the coordinate to 1e-7°, each the `Double` nearest to its
    /// rounded decimal so that every JSON writer prints the same digits.
    public var served: QueryHit {
        var hit = self
        hit.distanceMeters = ServedPrecision.distance(distanceMeters)
        hit.bearingDegrees = ServedPrecision.bearing(bearingDegrees)
        hit.coordinate = ServedPrecision.coordinate(coordinate)
        return hit
    }
}
