/// The area of a Redis GEO search, in the unit the command named (BYRADIUS, BYBOX, GEORADIUS).
///
/// The unit is kept rather than converted up front because Redis multiplies by `metersPerUnit` at
/// several places and in several orders; converting first would change the last bits of the
/// results.
public enum RedisGeoShape: Sendable, Hashable {
    /// Every point within `radius` (inclusive) of the centre, along the great circle.
    case radius(Double, unit: RedisGeoUnit)
    /// Every point inside a box `width` wide (east-west) and `height` high (north-south) centred on
    /// the centre; see `RedisGeo.distanceIfInRectangle` for what "inside" means to Redis.
    case box(width: Double, height: Double, unit: RedisGeoUnit)

    /// The unit of the shape, used for WITHDIST as well.
    public var unit: RedisGeoUnit {
        switch self {
        case .radius(_, let unit), .box(_, _, let unit): return unit
        }
    }

    /// The radius used to choose the cell size, meters: the radius, or half the box's diagonal
    /// computed in the unit and then converted, as Redis does.
    var coveringRadiusMeters: Double {
        switch self {
        case .radius(let radius, let unit):
            return radius * unit.metersPerUnit
        case .box(let width, let height, let unit):
            return ((width / 2) * (width / 2) + (height / 2) * (height / 2)).squareRoot() * unit.metersPerUnit
        }
    }

    /// Half the north-south and east-west extents, meters (Redis `geohashBoundingBox`).
    var halfExtentsMeters: (height: Double, width: Double) {
        switch self {
        case .radius(let radius, let unit):
            return (unit.metersPerUnit * radius, unit.metersPerUnit * radius)
        case .box(let width, let height, let unit):
            return (unit.metersPerUnit * (height / 2), unit.metersPerUnit * (width / 2))
        }
    }

    /// The sizes, which must be 0 or more (+infinity is accepted, as Redis accepts "inf").
    var sizes: [Double] {
        switch self {
        case .radius(let radius, _): return [radius]
        case .box(let width, let height, _): return [width, height]
        }
    }
}
