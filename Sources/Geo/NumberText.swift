/// Numbers in messages and listings as a person would write them.
public enum NumberText {
    /// Integers without a fraction ("500", not "500.0"), others in the shortest exact form
    /// ("6371008.8"), NaN and infinities spelled "nan", "inf", "-inf".
    public static func plain(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        // Below 1e15 every integral Double converts to Int64 exactly.
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
