import Foundation

/// A tiny seeded pseudo-random generator (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014; constants from Vigna's `splitmix64.c`), so that every
/// property test draws the same sequence on every machine and every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

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
