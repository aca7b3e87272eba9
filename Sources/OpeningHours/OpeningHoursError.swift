/// A problem in an `opening_hours` value.
public struct OpeningHoursError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in English.
    public var message: String
    /// The 1-based column (in Unicode scalars) where the problem starts; 0 for a problem that is
    /// not in a value's text (an instant out of range).
    public var column: Int

    public init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    public var description: String { column > 0 ? "column \(column): \(message)" : message }
}
