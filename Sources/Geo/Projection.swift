import CProj
import Foundation
import Synchronization

/// Which projected CRS the `projected` distance model measures in.
public enum ProjectionChoice: Sendable, Hashable, CustomStringConvertible {
    /// The UTM zone of the query point (with the Norway and Svalbard exceptions), or the polar
    /// stereographic UPS grid beyond 84° N / 80° S.
    case auto
    /// A CRS PROJ can resolve, e.g. `EPSG:32635`; it must be a projected CRS.
    case crs(String)

    /// Parses `auto` or a CRS string (which PROJ checks on first use).
    public init(parsing text: String) throws(GeoError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "auto" {
            self = .auto
        } else if trimmed.isEmpty {
            throw .unknownCRS(text, reason: "empty")
        } else {
            self = .crs(trimmed)
        }
    }

    /// The CRS to use for a query around `center`.
    public func crs(for center: Coordinate) -> String {
        switch self {
        case .auto: return ProjectionChoice.utmCRS(for: center)
        case .crs(let name): return name
        }
    }

    /// EPSG code of the UTM zone (326zz north, 327zz south) holding a point, with the exceptions of
    /// the UTM grid (zone 32V widened over south-west Norway; zones 31X–37X over Svalbard), or UPS
    /// North (EPSG:32661) above 84° N and UPS South (EPSG:32761) below 80° S. Source: the UTM
    /// definitions in NGA.SIG.0012_2.0.0_UTMUPS (2014).
    public static func utmCRS(for point: Coordinate) -> String {
        let lat = point.latitude
        let lon = point.longitude
        if lat > 84 { return "EPSG:32661" }
        if lat < -80 { return "EPSG:32761" }
        var zone = min(60, Int(((lon + 180) / 6).rounded(.down)) + 1)
        if lat >= 56, lat < 64, lon >= 3, lon < 12 { zone = 32 }
        if lat >= 72 {
            if lon >= 0, lon < 9 {
                zone = 31
            } else if lon >= 9, lon < 21 {
                zone = 33
            } else if lon >= 21, lon < 33 {
                zone = 35
            } else if lon >= 33, lon < 42 {
                zone = 37
            }
        }
        return "EPSG:\(lat >= 0 ? 32600 + zone : 32700 + zone)"
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .crs(let name): return name
        }
    }
}

/// One PROJ context and one EPSG:4326 → CRS transformation, confined to one thread at a time by
/// `ProjectionPool` (PROJ contexts and their objects are not thread-safe).
final class ProjTransformer: @unchecked Sendable {
    let crs: String
    private let context: OpaquePointer
    private let transformation: OpaquePointer
    /// Factor from the CRS's axis unit to meters (1 for metric CRSs, 0.3048006096 for US feet).
    private let toMeters: Double

    init(crs: String) throws(GeoError) {
        self.crs = crs
        guard let context = proj_context_create() else { throw .projUnavailable("cannot create a PROJ context") }
        proj_log_level(context, PJ_LOG_NONE)
        guard let target = proj_create(context, crs) else {
            let reason = ProjTransformer.lastError(context)
            proj_context_destroy(context)
            if reason.contains("proj.db") { throw .projUnavailable(reason) }
            throw .unknownCRS(crs, reason: reason)
        }
        defer { proj_destroy(target) }
        guard proj_is_crs(target) != 0 else {
            proj_context_destroy(context)
            throw .unknownCRS(crs, reason: "not a coordinate reference system (a PROJ string needs +type=crs)")
        }
        guard proj_get_type(target) == PJ_TYPE_PROJECTED_CRS else {
            proj_context_destroy(context)
            throw .notProjectedCRS(crs)
        }
        var factor = 1.0
        if let system = proj_crs_get_coordinate_system(context, target) {
            var conversion = 0.0
            if proj_cs_get_axis_info(context, system, 0, nil, nil, nil, &conversion, nil, nil, nil) == 1,
                conversion > 0
            {
                factor = conversion
            }
            proj_destroy(system)
        }
        guard let raw = proj_create_crs_to_crs(context, "EPSG:4326", crs, nil) else {
            let reason = ProjTransformer.lastError(context)
            proj_context_destroy(context)
            throw .unknownCRS(crs, reason: reason)
        }
        // EPSG:4326 is (lat, lon) by definition; normalizing makes it (lon, lat) and the output (x, y).
        guard let normalized = proj_normalize_for_visualization(context, raw) else {
            proj_destroy(raw)
            let reason = ProjTransformer.lastError(context)
            proj_context_destroy(context)
            throw .unknownCRS(crs, reason: reason)
        }
        proj_destroy(raw)
        self.context = context
        self.transformation = normalized
        self.toMeters = factor
    }

    deinit {
        proj_destroy(transformation)
        proj_context_destroy(context)
    }

    /// Projected easting and northing of a point, in meters.
    func project(_ point: Coordinate) throws(GeoError) -> (x: Double, y: Double) {
        let input = proj_coord(point.longitude, point.latitude, 0, 0)
        let output = proj_trans(transformation, PJ_FWD, input)
        let x = output.xy.x
        let y = output.xy.y
        guard x.isFinite, y.isFinite else {
            let code = proj_errno(transformation)
            let reason =
                code == 0
                ? "outside the projection's domain" : String(cString: proj_context_errno_string(context, code))
            proj_errno_reset(transformation)
            throw .projectionFailed(crs: crs, latitude: point.latitude, longitude: point.longitude, reason: reason)
        }
        return (x * toMeters, y * toMeters)
    }

    private static func lastError(_ context: OpaquePointer) -> String {
        let code = proj_context_errno(context)
        guard code != 0, let text = proj_context_errno_string(context, code) else { return "not recognized by PROJ" }
        let reason = String(cString: text)
        return reason.hasPrefix("Unknown error") ? "not recognized by PROJ" : reason
    }
}

/// A pool of PROJ transformations, one per thread at a time and per CRS, so that queries on many
/// threads never share a PROJ context. Building one opens proj.db, far dearer than a query;
/// reuse costs a lock.
public final class ProjectionPool: Sendable {
    /// The pool the distance models use.
    public static let shared = ProjectionPool()

    private let idle = Mutex<[String: [ProjTransformer]]>([:])
    /// Most idle transformations kept (about 1 MB each with their contexts); beyond it, each one
    /// returned displaces an idle one, so that a stream of one-off CRSs (a map per query point)
    /// cannot grow the pool.
    let capacity: Int

    public init(capacity: Int = 64) { self.capacity = capacity }

    /// Runs `body` with a transformation to `crs` that no other thread uses meanwhile.
    func withTransformer<T>(crs: String, _ body: (ProjTransformer) throws(GeoError) -> T) throws(GeoError) -> T {
        let reused = idle.withLock { pool -> ProjTransformer? in
            guard let transformer = pool[crs]?.popLast() else { return nil }
            if pool[crs]?.isEmpty == true { pool[crs] = nil }
            return transformer
        }
        let transformer: ProjTransformer
        if let reused {
            transformer = reused
        } else {
            transformer = try ProjTransformer(crs: crs)
        }
        defer {
            idle.withLock { pool in
                // Full: drop one idle transformation of another CRS (or this one), not all of them,
                // so that queries over many UTM zones keep most of theirs.
                if pool.values.reduce(0, { $0 + $1.count }) >= capacity {
                    guard let victim = pool.keys.first(where: { $0 != crs }) else { return }
                    pool[victim]?.removeLast()
                    if pool[victim]?.isEmpty == true { pool[victim] = nil }
                }
                pool[crs, default: []].append(transformer)
            }
        }
        return try body(transformer)
    }

    /// Transformations waiting to be reused.
    var idleCount: Int { idle.withLock { pool in pool.values.reduce(0) { $0 + $1.count } } }

    /// Checks that a CRS can be used, throwing the error a query would.
    public func validate(crs: String) throws(GeoError) {
        try withTransformer(crs: crs) { _ throws(GeoError) in () }
    }
}

/// Planar distance in a projected CRS: both points projected with PROJ, then Euclidean meters.
///
/// Accuracy is the projection's: within a UTM zone the scale factor is 0.9996–1.0010, so a 132 m
/// distance near Istanbul comes out 6 mm short of the geodesic one. Far outside the zone the
/// distortion grows without bound.
public struct ProjectedDistance: Sendable {
    public let choice: ProjectionChoice
    let pool: ProjectionPool

    public init(_ choice: ProjectionChoice, pool: ProjectionPool = .shared) {
        self.choice = choice
        self.pool = pool
    }

    /// Distance in meters and grid bearing (degrees clockwise from grid north, [0, 360)) from `a`
    /// to `b`, in the CRS chosen for `a`.
    public func measure(_ a: Coordinate, _ b: Coordinate) throws(GeoError) -> (
        distanceMeters: Double, gridBearing: Double, crs: String
    ) {
        let crs = choice.crs(for: a)
        return try pool.withTransformer(crs: crs) { transformer throws(GeoError) in
            let first = try transformer.project(a)
            let second = try transformer.project(b)
            let dx = second.x - first.x
            let dy = second.y - first.y
            let bearing = Bearing.normalized(atan2(dx, dy) * 180 / .pi)
            return ((dx * dx + dy * dy).squareRoot(), bearing, crs)
        }
    }
}
