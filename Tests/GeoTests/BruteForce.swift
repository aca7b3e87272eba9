@testable import Geo

/// The oracle for `GridIndex` queries: measure every point with the model's own distance
/// function, keep those within the radius, sort by (distance, handle).
struct BruteForce {
    var points: [UInt32: Coordinate]

    init(points: [UInt32: Coordinate]) { self.points = points }

    /// The points as the index holds them after inserting `list` in order (a later position for
    /// the same handle wins).
    init(points list: [(handle: UInt32, coordinate: Coordinate)]) {
        points = [:]
        for point in list { points[point.handle] = point.coordinate }
    }

    /// Every point at its distance from `center`, nearest first, ties by handle. A point the model
    /// cannot measure (the projection cannot represent it) is left out, as the index leaves it out.
    func ranked(from center: Coordinate, model: DistanceModel) -> [GridHit] {
        var hits: [GridHit] = []
        hits.reserveCapacity(points.count)
        for (handle, point) in points {
            guard let distance = try? model.distance(center, point) else { continue }
            hits.append(GridHit(handle: handle, distanceMeters: distance))
        }
        hits.sort { ($0.distanceMeters, $0.handle) < ($1.distanceMeters, $1.handle) }
        return hits
    }

    /// Handles inside a box, edges inclusive, comparing the stored numbers (so -180 is not 180);
    /// `west > east` crosses ±180°. Sorted by handle.
    func inBox(south: Double, west: Double, north: Double, east: Double) -> [UInt32] {
        points.compactMap { handle, point in
            guard point.latitude >= south, point.latitude <= north else { return nil }
            let inside =
                west > east
                ? (point.longitude >= west || point.longitude <= east)
                : (point.longitude >= west && point.longitude <= east)
            return inside ? handle : nil
        }.sorted()
    }
}

extension Array where Element == GridHit {
    /// The leading hits within `radius` meters of a list sorted by distance.
    func within(_ radius: Double) -> [GridHit] {
        Array(prefix { $0.distanceMeters <= radius })
    }
}
