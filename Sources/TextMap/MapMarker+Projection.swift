import Geo

extension MapMarker {
    /// A marker at `coordinate`, placed with a local azimuthal-equidistant projection centred on
    /// the map's centre. A point the projection cannot represent (the centre's antipode) gets NaN
    /// offsets and is listed as outside the map.
    ///
    /// - Parameters:
    ///   - distanceMeters: distance from the centre in meters, as the caller measured it.
    ///   - bearingDegrees: degrees clockwise from north.
    ///   - projection: centred on the map's centre (`LocalProjection(center:)`).
    public init(
        name: String, kind: String, coordinate: Coordinate, distanceMeters: Double, bearingDegrees: Double,
        projection: LocalProjection
    ) {
        let offset = try? projection.project(coordinate)
        self.init(
            name: name, kind: kind, distanceMeters: distanceMeters, bearingDegrees: bearingDegrees,
            eastMeters: offset?.x ?? .nan, northMeters: offset?.y ?? .nan)
    }
}
