import CDistanceKernels

/// The vector units the batch kernels (`GeoHash.scoresAndCentres`, `RedisGeo.DistanceFrom.estimates`
/// and `estimatesAlongParallel`) are compiled for. They give the same results on every unit; the
/// kernels take a `level` so that tests can run each unit this processor has and show it.
enum VectorKernels {
    /// The widest unit this processor has: 2 for AVX-512, 1 for AVX2, 0 for none.
    static var bestLevel: Int { Int(vicinity_kernels_best_level()) }

    /// The unit the kernels use when the caller does not choose: the best, but AVX2 rather than
    /// AVX-512 on Intel processors (which lower their clock after 512-bit work).
    static var preferredLevel: Int { Int(vicinity_kernels_preferred_level()) }

    /// What a kernel's `level` is when the caller does not choose: `preferredLevel`.
    static let preferred = -1
}
