import Foundation
import Geo

/// Drawing helpers for the property tests on top of Geo's seeded generator.
extension SplitMix64 {
    /// Uniform in [0, 1) with 53 random bits.
    mutating func unit() -> Double { nextUnit() }

    /// Uniform in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Log-uniform in `range` (both bounds above 0): every decade equally likely.
    mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(uniform(log(range.lowerBound)...log(range.upperBound)))
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// `value` or `-value`, even odds.
    mutating func signed(_ value: Double) -> Double { chance(0.5) ? value : -value }

    /// A latitude in degrees uniform over the sphere's area.
    mutating func latitudeUniformOnSphere() -> Double { asin(uniform(-1...1)) * 180 / .pi }

    /// A longitude in degrees uniform in -180...180.
    mutating func longitude() -> Double { uniform(-180...180) }

    /// One element of a non-empty array.
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
}
