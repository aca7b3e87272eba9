import CDistanceKernels

/// The vector unit the batch kernels (`GeoHash.scoresAndCentres`, `RedisGeo.DistanceFrom.estimates`
/// and `estimatesAlongParallel`) run on. They give the same results on every unit; tests run them
/// on each this processor has to show it.
enum VectorKernels {
    /// The widest unit this processor has: 2 for AVX-512, 1 for AVX2, 0 for none.
    static var bestLevel: Int { Int(vicinity_kernels_best_level()) }

    /// Runs `body` with the kernels on `level` (0...`bestLevel`), then back on the best. The
    /// setting is process-wide: kernels called meanwhile from other threads run on it too.
    static func using<T>(level: Int, _ body: () throws -> T) rethrows -> T {
        vicinity_kernels_use_level(Int32(level))
        defer { vicinity_kernels_use_level(-1) }
        return try body()
    }
}
