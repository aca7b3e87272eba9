/// Every error the `TextMap` module throws.
public enum TextMapError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A map width in character columns outside `MapRenderer.widthRange`; usually a typo in
    /// `--width` or a terminal that reports a width of 0.
    case invalidWidth(Int)
    /// A map height in lines outside `MapRenderer.heightRange`.
    case invalidHeight(Int)
    /// A search radius that is negative, NaN or infinite (meters).
    case invalidRadius(Double)
    /// A half-extent (half the side of the drawn square) that is not a finite number of meters
    /// above 0.
    case invalidHalfExtent(Double)

    public var description: String {
        switch self {
        case .invalidWidth(let width):
            return "invalid map width \(width): expected \(MapRenderer.widthRange.lowerBound) to "
                + "\(MapRenderer.widthRange.upperBound) columns"
        case .invalidHeight(let height):
            return "invalid map height \(height): expected \(MapRenderer.heightRange.lowerBound) to "
                + "\(MapRenderer.heightRange.upperBound) lines"
        case .invalidRadius(let radius):
            return "invalid radius \(radius): expected a finite number of meters, 0 or more"
        case .invalidHalfExtent(let extent):
            return "invalid map half-extent \(extent): expected a finite number of meters above 0"
        }
    }
}
