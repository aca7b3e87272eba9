import Foundation
import Geo

/// How precisely others see where a user is.
///
/// The stored location stays exact; the user and the admin read it in the user's record. Everyone
/// else — every query, count, distance, bearing, map, watch and Redis reply, the admin's queries
/// included — sees only the **published** location: the centre of the cell of a fixed global grid
/// that holds the exact one. Any position inside one cell gives the same published coordinate,
/// to the bit, so no reply to others can depend on more than the cell.
///
/// The grid: 2,002 city bands of latitude (180° over ~10 km on a sphere of R = 6,371,008.8 m,
/// 111,195 m a degree), each cut into 10 district bands, each cut into 10 street bands; each band
/// cut into about `360° · cos(band centre) · 111,195 m / size` equal cells of longitude starting at
/// −180°, a whole multiple of the cells of the coarser band holding it. So the three grids nest:
/// every street cell lies in one district cell, every district cell in one city cell, and seeing
/// a user at two precisions tells no more than the finer one. Cells are about `size` meters on
/// each side everywhere (narrower only in the bands touching a pole, which hold a few cells
/// each; the pole itself is in all of them). A cell's centre is rounded to 1e-7° (≈ 1 cm).
public enum LocationPrecision: String, Sendable, Hashable, CaseIterable {
    /// Others see the exact location.
    case exact
    /// Cells of about 100 m.
    case street
    /// Cells of about 1 km.
    case district
    /// Cells of about 10 km.
    case city

    /// The side of a cell, meters (0 for `exact`): distances to a user seen at this precision
    /// are rounded to a multiple of it.
    public var cellMeters: Double {
        switch self {
        case .exact: return 0
        case .street: return 100
        case .district: return 1_000
        case .city: return 10_000
        }
    }

    /// What others see of `location`: the centre of its cell (the location itself for `exact`).
    public func published(_ location: Coordinate) -> Coordinate {
        guard let level = LocationPrecision.nested.firstIndex(of: self) else { return location }
        // The street cell first, then the coarser one holding it by integer division: the grids
        // nest exactly, so a user seen at two precisions is in the finer cell, never in a strip
        // where two unrelated cells overlap.
        let streetBand = min(
            Self.streetBands - 1,
            max(0, Int(((location.latitude + 90) / Self.bandHeight(.street)).rounded(.down))))
        let streetCells = Self.cells(inStreetBand: streetBand, .street)
        // 180° is −180° (one meridian): counted from −180° it would be `cells` cells, which
        // floating point may round to `cells - 1`, the cell west of the meridian.
        let wrapped = location.longitude == 180 ? -180 : location.longitude
        let streetCell = min(
            streetCells - 1, max(0, Int(((wrapped + 180) / (360 / Double(streetCells))).rounded(.down))))
        let divisor = [1, 10, 100][level]
        let band = streetBand / divisor
        let cells = Self.cells(inStreetBand: streetBand, self)
        let cell = streetCell / (streetCells / cells)
        let latitude = -90 + (Double(band) + 0.5) * Self.bandHeight(self)
        let longitude = -180 + (Double(cell) + 0.5) * (360 / Double(cells))
        let rounded = { (degrees: Double) in (degrees * 1e7).rounded() / 1e7 }
        // Inside the valid ranges by construction; the rounding cannot leave them.
        return (try? Coordinate(latitude: rounded(latitude), longitude: rounded(longitude))) ?? location
    }

    /// The coarser-than-exact precisions, finest first: each one's cells are whole groups of the
    /// previous one's.
    static let nested: [LocationPrecision] = [.street, .district, .city]

    /// Meters of a degree on the sphere of the mean radius (R = 6,371,008.8 m).
    static let metersPerDegree = Double.pi * 6_371_008.8 / 180

    /// City bands: 180° over ~10 km, rounded (2,002); district bands are 10 to a city band, street
    /// bands 10 to a district band.
    static let cityBands = Int((180 * metersPerDegree / 10_000).rounded())
    static let streetBands = cityBands * 100

    /// The height of one band at a precision, degrees.
    static func bandHeight(_ precision: LocationPrecision) -> Double {
        180 / Double(cityBands * [100, 10, 1][nested.firstIndex(of: precision) ?? 0])
    }

    /// How many cells the band of `precision` holding street band `streetBand` has: about
    /// 360° · cos(band centre) · 111,195 m / size, at least one, and a whole multiple of the
    /// count of the coarser band holding it (so that its cells split the coarser ones exactly).
    static func cells(inStreetBand streetBand: Int, _ precision: LocationPrecision) -> Int {
        var count = 1
        for level in stride(from: nested.count - 1, through: nested.firstIndex(of: precision) ?? 0, by: -1) {
            let divisor = [1, 10, 100][level]
            let band = streetBand / divisor
            let latitude = -90 + (Double(band) + 0.5) * bandHeight(nested[level])
            let wanted = 360 * cos(latitude * .pi / 180) * metersPerDegree / nested[level].cellMeters
            count *= max(1, Int((wanted / Double(count)).rounded()))
        }
        return count
    }

    /// A distance as others may learn it: the nearest multiple of `cellMeters` (unchanged for
    /// `exact`).
    public func rounded(distanceMeters: Double) -> Double {
        Self.rounded(distanceMeters, toMultipleOf: cellMeters)
    }

    /// `distanceMeters` rounded to the nearest multiple of `step` (unchanged for a step of 0 or a
    /// distance that is not finite).
    static func rounded(_ distanceMeters: Double, toMultipleOf step: Double) -> Double {
        guard step > 0, distanceMeters.isFinite else { return distanceMeters }
        return (distanceMeters / step).rounded() * step
    }

    /// The precision a user record made before precision existed is read with.
    public static let stored = LocationPrecision.street
}

/// The privacy rules one server process applies to the writes it plans (not stored: each node
/// says its own, as `--user-precision` and `--user-location-ttl`).
public struct PrivacySettings: Sendable {
    /// The precision a new user gets when the registration names none.
    public var defaultPrecision: LocationPrecision
    /// How long a location lasts without a move before it is forgotten, seconds; 0 for ever.
    public var locationTTLSeconds: Int
    /// The time now; tests inject a clock.
    public var now: @Sendable () -> Date

    /// What the product ships: new users at `street`, locations forgotten after 12 hours
    /// (`vicinity serve` and `vicinity user add` without flags).
    public static let recommended = PrivacySettings(defaultPrecision: .street, locationTTLSeconds: 43_200)

    /// - Parameters:
    ///   - defaultPrecision: `exact` unless said otherwise: a directory made in code (a test, an
    ///     embedding) shows what it is given; every front end passes its flag, `recommended` by
    ///     default.
    ///   - locationTTLSeconds: 0 (never) unless said otherwise.
    public init(
        defaultPrecision: LocationPrecision = .exact, locationTTLSeconds: Int = 0,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.defaultPrecision = defaultPrecision
        self.locationTTLSeconds = locationTTLSeconds
        self.now = now
    }

    /// The time now, to the whole second (as stored).
    public var second: Date { Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down)) }

    /// When a location set now expires, or nil when locations never do.
    var expiryOfLocationSetNow: Date? {
        locationTTLSeconds > 0 ? second.addingTimeInterval(Double(locationTTLSeconds)) : nil
    }
}
