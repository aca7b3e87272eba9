/// Helpers for angles in degrees: bearings and compass points.
public enum Bearing {
    /// Normalizes an angle in degrees to [0, 360).
    public static func normalized(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        // + 0 turns -0 into 0, which prints as "0.0" rather than "-0.0".
        return value >= 360 ? 0 : value + 0
    }

    /// Wraps a longitude in degrees to [-180, 180].
    public static func wrappedLongitude(_ degrees: Double) -> Double {
        if degrees >= -180 && degrees <= 180 { return degrees }
        var value = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value - 180
    }

    /// The 16 compass points, clockwise from north.
    public static let compassPoints = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
        "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The nearest of the 16 compass points to a bearing in degrees (each point spans 22.5°,
    /// centred on its direction: `N` is 348.75 up to 11.25).
    public static func compassPoint(_ degrees: Double) -> String {
        let index = Int((normalized(degrees) / 22.5).rounded()) % 16
        return compassPoints[index]
    }
}
