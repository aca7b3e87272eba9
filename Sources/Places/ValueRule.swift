import Geo

/// One kind of value a person gives — a latitude, a radius, a count, a place id — with its one
/// rule and its one message, whatever the surface it arrives on.
///
/// Every front end reads text with `parse(_:)` (or checks a value some decoder already made with
/// `check(_:)`) and only translates the `PlacesError` it throws into its own form: an exit code,
/// `-ERR`, a problem document. The message is always
/// `invalid <noun> "<value as given>": expected <expected>`.
///
/// ```swift
/// let latitude = try Vocabulary.latitude.parse("41.088154")    // 41.088154
/// try Vocabulary.latitude.parse("95")
/// // invalid latitude "95": expected a number of degrees from -90 to 90
/// ```
public struct ValueRule<Value: Sendable>: Sendable {
    /// What messages call the value, e.g. `latitude`, `place id`.
    public let noun: String
    /// The valid values in words, after "expected", e.g. `a number of degrees from -90 to 90`.
    public let expected: String
    @usableFromInline let read: @Sendable (String) -> Value?
    @usableFromInline let accepts: @Sendable (Value) -> Bool
    private let show: @Sendable (Value) -> String
    private let failure: @Sendable (String) -> PlacesError

    /// - Parameters:
    ///   - read: the value written in a text, or nil when the text is not one at all.
    ///   - accepts: whether a value is within the rule.
    ///   - show: a value as a message names it.
    ///   - failure: the error for a text that breaks the rule (by default `.invalidValue`).
    public init(
        noun: String, expected: String, read: @escaping @Sendable (String) -> Value?,
        accepts: @escaping @Sendable (Value) -> Bool = { _ in true },
        show: @escaping @Sendable (Value) -> String = { "\($0)" },
        failure: (@Sendable (String) -> PlacesError)? = nil
    ) {
        self.noun = noun
        self.expected = expected
        self.read = read
        self.accepts = accepts
        self.show = show
        self.failure = failure ?? { .invalidValue(noun: noun, value: $0, expected: expected) }
    }

    /// The value written in `text`.
    ///
    /// - Throws: the rule's `PlacesError`, naming `text` as given.
    public func parse(_ text: String) throws(PlacesError) -> Value {
        guard let value = read(text), accepts(value) else { throw failure(text) }
        return value
    }

    /// A value another decoder made (a JSON number, an HTTP parameter), checked against the rule.
    public func check(_ value: Value) throws(PlacesError) -> Value {
        guard accepts(value) else { throw failure(show(value)) }
        return value
    }

    /// Whether `text` is a valid value. Inlinable, so that a caller that knows `Value` (an HTTP
    /// parameter's check of every request) does not go through the generic code.
    @inlinable
    public func isValid(_ text: String) -> Bool {
        guard let value = read(text) else { return false }
        return accepts(value)
    }

    /// The error for `text` (as given), with the rule's message.
    public func invalid(_ text: String) -> PlacesError { failure(text) }

    /// `invalid <noun> "<text>": expected <expected>`.
    public func message(_ text: String) -> String {
        "invalid \(noun) \(PlacesError.quoted(text)): expected \(expected)"
    }
}

extension ValueRule where Value == Double {
    /// A finite decimal number (`DecimalNumber`'s grammar: no `nan`, `inf` or hexadecimal) in
    /// `range`.
    static func decimal(_ noun: String, _ range: ClosedRange<Double>, expected: String) -> ValueRule<Double> {
        ValueRule(
            noun: noun, expected: expected, read: { DecimalNumber.parse($0) },
            accepts: { $0.isFinite && range.contains($0) }, show: { NumberText.plain($0) })
    }
}

extension ValueRule where Value == Int {
    /// A whole number in decimal digits (an optional sign) in `range`.
    static func integer(_ noun: String, _ range: ClosedRange<Int>) -> ValueRule<Int> {
        ValueRule(
            noun: noun, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
            read: { Int($0) }, accepts: { range.contains($0) })
    }
}
