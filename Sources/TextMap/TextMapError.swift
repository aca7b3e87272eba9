/// Every error the `TextMap` module throws.
public enum TextMapError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A map size in character cells outside what can be drawn.
    case invalidSize(width: Int, height: Int)

    public var description: String {
        switch self {
        case .invalidSize(let width, let height):
            return "invalid map size \(width) × \(height): expected at least 20 columns and 8 rows"
        }
    }
}
