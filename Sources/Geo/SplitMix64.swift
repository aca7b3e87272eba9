/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014; constants from Vigna's `splitmix64.c`): a tiny seeded generator that gives the
/// same sequence on every machine, which `SystemRandomNumberGenerator` does not. The benchmark's
/// synthetic city and every property test draw from it, so a run replays from its seed.
/// Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
