/// Every error the `Geo` module throws.
///
/// Each case carries the offending value, and its description names the valid range so that a
/// person can fix the input without reading the source.
public enum GeoError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A latitude that is not a finite number of degrees in -90...90.
    case invalidLatitude(Double)
    /// A longitude that is not a finite number of degrees in -180...180.
    case invalidLongitude(Double)
    /// A radius or distance that is negative, NaN or infinite (meters).
    case invalidRadius(Double)
    /// A latitude/longitude box whose south edge lies north of its north edge (degrees).
    case invalidBox(south: Double, north: Double)
    /// A result count that is not a positive integer.
    case invalidCount(Int)
    /// A sphere radius for the haversine model outside 1...10,000,000 m.
    case invalidSphereRadius(Double)
    /// A grid cell size outside the supported range (meters).
    case invalidCellSize(Double)
    /// A handle that is not present in the index.
    case unknownHandle(UInt32)
    /// A handle beyond the supported range of dense handles.
    case handleOutOfRange(Int)
    /// A CRS string that PROJ cannot resolve, with PROJ's own reason.
    case unknownCRS(String, reason: String)
    /// A CRS that PROJ resolves but that is not a projected (planar) CRS.
    case notProjectedCRS(String)
    /// A point that the chosen projection cannot represent (for example outside its area of use).
    case projectionFailed(crs: String, latitude: Double, longitude: Double, reason: String)
    /// PROJ itself could not start (usually `proj.db` cannot be found).
    case projUnavailable(String)
    /// A distance model that this operation cannot use; the text says which can.
    case unsupportedModel(String)

    public var description: String {
        switch self {
        case .invalidLatitude(let value):
            return "invalid latitude \(GeoError.format(value)): expected a number of degrees from -90 to 90"
        case .invalidLongitude(let value):
            return "invalid longitude \(GeoError.format(value)): expected a number of degrees from -180 to 180"
        case .invalidRadius(let value):
            return "invalid distance \(GeoError.format(value)): expected a finite number of meters, 0 or more"
        case .invalidBox(let south, let north):
            return "invalid box: south edge \(GeoError.format(south)) is north of north edge \(GeoError.format(north))"
        case .invalidCount(let value):
            return "invalid count \(value): expected a whole number, 1 or more"
        case .invalidSphereRadius(let value):
            return "invalid sphere radius \(GeoError.format(value)): expected 1 to 10000000 meters"
        case .invalidCellSize(let value):
            return "invalid grid cell size \(GeoError.format(value)): expected 10 to 100000 meters"
        case .unknownHandle(let handle):
            return "no point with handle \(handle) in the index"
        case .handleOutOfRange(let handle):
            return "handle \(handle) is out of range: expected 0 to \(GridIndex.maximumHandle)"
        case .unknownCRS(let crs, let reason):
            return "unknown CRS \"\(crs)\": \(reason) (expected auto or a projected CRS such as EPSG:32635)"
        case .notProjectedCRS(let crs):
            return "CRS \"\(crs)\" is not a projected CRS: expected auto or a projected CRS such as EPSG:32635"
        case .projectionFailed(let crs, let latitude, let longitude, let reason):
            return "cannot project \(GeoError.format(latitude)), \(GeoError.format(longitude)) to \(crs): \(reason)"
        case .projUnavailable(let reason):
            return "PROJ is unavailable: \(reason) (is libproj-dev installed and proj.db on the PROJ_DATA path?)"
        case .unsupportedModel(let reason):
            return reason
        }
    }

    static func format(_ value: Double) -> String { NumberText.plain(value) }
}
