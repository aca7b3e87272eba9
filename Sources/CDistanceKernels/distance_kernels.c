// Batch distance estimates for the Redis-compatible searches; see distance_kernels.h.
#include "distance_kernels.h"

// The results must equal the Swift code's to the bit: no fused multiply-add, no reassociation
// (also -ffp-contract=off in Package.swift: the pragma alone does not hold under -ffast-math).
#pragma clang fp contract(off)
#if defined(__FAST_MATH__)
#error "the distance kernels must be compiled without -ffast-math: their results must be exact"
#endif

// sin x for |x| <= 0.02 by its Taylor series to x^7 (Swift `DistanceFrom.sine`).
static inline __attribute__((always_inline)) double sine(double x) {
    double x2 = x * x;
    return x + x * (x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040))));
}

// cos x for |x| <= 0.02 by its Taylor series to x^6 (Swift `DistanceFrom.cosine`).
static inline __attribute__((always_inline)) double cosine(double x) {
    double x2 = x * x;
    return 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720)));
}

// asin s for 0 <= s <= 0.01 by its series to s^7 (Swift `DistanceFrom.arcsine`).
static inline __attribute__((always_inline)) double arcsine(double s) {
    double s2 = s * s;
    return s + s * (s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * (5.0 / 112))));
}

static inline __attribute__((always_inline)) double magnitude(double x) { return __builtin_fabs(x); }

static inline __attribute__((always_inline)) void estimates_loop(
    const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    const vicinity_estimate_centre c = *centre;
    const double limit = c.seriesLimit;
    for (size_t index = 0; index < count; index++) {
        double longitude = points[2 * index];
        double latitude = points[2 * index + 1];
        double halfLongitude = (longitude * c.toRadians - c.longitudeRadians) / 2;
        double latitudeDifference = latitude * c.toRadians - c.latitudeRadians;
        double halfLatitude = latitudeDifference / 2;
        double v = sine(halfLongitude);
        double u = sine(halfLatitude);
        double pointCosine = c.latitudeCosine * cosine(latitudeDifference) - c.latitudeSine * sine(latitudeDifference);
        double a = u * u + c.latitudeCosine * pointCosine * v * v;
        double root = __builtin_sqrt(a);
        double series = 2.0 * c.radius * arcsine(root);
        int near = (magnitude(halfLongitude) <= limit) & (magnitude(halfLatitude) <= limit);
        int usable = near & (a >= 0x1p-600) & (root <= limit);
        double meridian = c.radius * magnitude(latitudeDifference);
        out[index] = halfLongitude == 0 ? meridian : (usable ? series : __builtin_nan(""));
    }
}

static inline __attribute__((always_inline)) void along_parallel_loop(
    const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    const vicinity_estimate_centre c = *centre;
    const double limit = c.seriesLimit;
    for (size_t index = 0; index < count; index++) {
        double longitude = points[2 * index];
        double latitude = points[2 * index + 1];
        double halfLongitude = (c.longitudeRadians - longitude * c.toRadians) / 2;
        double latitudeDifference = latitude * c.toRadians - c.latitudeRadians;
        double v = sine(halfLongitude);
        double pointCosine = c.latitudeCosine * cosine(latitudeDifference) - c.latitudeSine * sine(latitudeDifference);
        double a = pointCosine * pointCosine * v * v;
        double root = __builtin_sqrt(a);
        double series = 2.0 * c.radius * arcsine(root);
        int near = (magnitude(halfLongitude) <= limit) & (magnitude(latitudeDifference) <= 2 * limit);
        int usable = near & (a >= 0x1p-600) & (root <= limit);
        out[index] = halfLongitude == 0 ? 0 : (usable ? series : __builtin_nan(""));
    }
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static void estimates_avx512(
    const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    estimates_loop(centre, points, count, out);
}
__attribute__((target("avx2"))) static void estimates_avx2(
    const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    estimates_loop(centre, points, count, out);
}
__attribute__((target("avx512f"))) static void along_parallel_avx512(
    const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    along_parallel_loop(centre, points, count, out);
}
__attribute__((target("avx2"))) static void along_parallel_avx2(
    const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    along_parallel_loop(centre, points, count, out);
}
#endif

int vicinity_kernels_best_level(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f")) return 2;
    if (__builtin_cpu_supports("avx2")) return 1;
#endif
    return 0;
}

int vicinity_kernels_preferred_level(void) {
    int best = vicinity_kernels_best_level();
#if defined(__x86_64__)
    // Intel's cores lower their clock for a while after 512-bit floating-point work (the AVX-512
    // "frequency licence"), which slows everything else the thread runs: a search's few hundred
    // lanes do not win that back. AMD's Zen 4 runs AVX-512 at full clock.
    if (best == 2 && __builtin_cpu_is("intel")) return 1;
#endif
    return best;
}

// The level a kernel runs at: the one asked for when the processor has it, else the preferred one.
static inline int kernel_level(int requested) {
    if (requested < 0) return vicinity_kernels_preferred_level();
    int best = vicinity_kernels_best_level();
    return requested < best ? requested : best;
}

void vicinity_estimates(
    int level, const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    switch (kernel_level(level)) {
#if defined(__x86_64__)
    case 2: estimates_avx512(centre, points, count, out); return;
    case 1: estimates_avx2(centre, points, count, out); return;
#endif
    default: estimates_loop(centre, points, count, out);
    }
}

void vicinity_estimates_along_parallel(
    int level, const vicinity_estimate_centre *centre, const double *restrict points, size_t count, double *restrict out) {
    switch (kernel_level(level)) {
#if defined(__x86_64__)
    case 2: along_parallel_avx512(centre, points, count, out); return;
    case 1: along_parallel_avx2(centre, points, count, out); return;
#endif
    default: along_parallel_loop(centre, points, count, out);
    }
}

// Moves bit i of a 32-bit value to bit 2i (Swift `GeoHash.spread`).
static inline __attribute__((always_inline)) unsigned long long spread(unsigned long long x) {
    x &= 0xFFFFFFFFull;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | (x << 2)) & 0x3333333333333333ull;
    x = (x | (x << 1)) & 0x5555555555555555ull;
    return x;
}

// Swift's `max(x, y)` and `min(x, y)` for doubles: `y >= x ? y : x` and `y < x ? y : x`.
static inline __attribute__((always_inline)) double swift_max(double x, double y) { return y >= x ? y : x; }
static inline __attribute__((always_inline)) double swift_min(double x, double y) { return y < x ? y : x; }

static inline __attribute__((always_inline)) size_t scores_loop(
    const vicinity_geohash_grid *grid, const double *restrict points, size_t count, double *restrict scores,
    double *restrict centres) {
    const vicinity_geohash_grid g = *grid;
    size_t unfinished = 0;
    for (size_t index = 0; index < count; index++) {
        double longitude = points[2 * index];
        double latitude = points[2 * index + 1];
        int encodable = (magnitude(longitude) <= g.longitudeLimit) & (magnitude(latitude) <= g.latitudeLimit);
        double latitudeOffset = (latitude - -g.latitudeLimit) * g.latitudeCellsPerDegree;
        double longitudeOffset = (longitude - -g.longitudeLimit) * g.longitudeCellsPerDegree;
        // Kept in range so that the conversions are defined; such lanes are unfinished anyway.
        double latitudeClamped = encodable ? swift_min(swift_max(latitudeOffset, 0), g.cells) : 0;
        double longitudeClamped = encodable ? swift_min(swift_max(longitudeOffset, 0), g.cells) : 0;
        int latitudeIndex = (int)latitudeClamped;
        int longitudeIndex = (int)longitudeClamped;
        double latitudePart = latitudeOffset - (double)latitudeIndex;
        double longitudePart = longitudeOffset - (double)longitudeIndex;
        int fast = encodable & (latitudePart > g.cellMargin) & (latitudePart < 1 - g.cellMargin)
            & (longitudePart > g.cellMargin) & (longitudePart < 1 - g.cellMargin)
            & ((double)latitudeIndex < g.cells) & ((double)longitudeIndex < g.cells);
        unsigned long long bits = spread((unsigned long long)latitudeIndex)
            | (spread((unsigned long long)longitudeIndex) << 1);
        // Below 2^52 the score is the integer itself: placed in a double's significand at 2^52.
        union { unsigned long long bits; double value; } scaled = { bits | 0x4330000000000000ull };
        double score = scaled.value - 0x1p52;
        // `GeoHashCell.bounds` and `GeoHash.centre(of:)`, operation for operation (a division by
        // a power of two is the multiplication by its inverse, to the bit).
        double longitudeScale = g.longitudeLimit - -g.longitudeLimit;
        double latitudeScale = g.latitudeLimit - -g.latitudeLimit;
        double minimumLongitude = -g.longitudeLimit + ((double)longitudeIndex * g.inverseCells) * longitudeScale;
        double maximumLongitude = -g.longitudeLimit + ((double)(longitudeIndex + 1) * g.inverseCells) * longitudeScale;
        double minimumLatitude = -g.latitudeLimit + ((double)latitudeIndex * g.inverseCells) * latitudeScale;
        double maximumLatitude = -g.latitudeLimit + ((double)(latitudeIndex + 1) * g.inverseCells) * latitudeScale;
        double centreLongitude = (minimumLongitude + maximumLongitude) / 2;
        double centreLatitude = (minimumLatitude + maximumLatitude) / 2;
        scores[index] = fast ? score : __builtin_nan("");
        centres[2 * index] = swift_min(swift_max(centreLongitude, -g.longitudeLimit), g.longitudeLimit);
        centres[2 * index + 1] = swift_min(swift_max(centreLatitude, -g.latitudeLimit), g.latitudeLimit);
        unfinished += fast ? 0 : 1;
    }
    return unfinished;
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static size_t scores_avx512(
    const vicinity_geohash_grid *grid, const double *restrict points, size_t count, double *restrict scores,
    double *restrict centres) {
    return scores_loop(grid, points, count, scores, centres);
}
__attribute__((target("avx2"))) static size_t scores_avx2(
    const vicinity_geohash_grid *grid, const double *restrict points, size_t count, double *restrict scores,
    double *restrict centres) {
    return scores_loop(grid, points, count, scores, centres);
}
#endif

size_t vicinity_scores_and_centres(
    int level, const vicinity_geohash_grid *grid, const double *restrict points, size_t count, double *restrict scores,
    double *restrict centres) {
    switch (kernel_level(level)) {
#if defined(__x86_64__)
    case 2: return scores_avx512(grid, points, count, scores, centres);
    case 1: return scores_avx2(grid, points, count, scores, centres);
#endif
    default: return scores_loop(grid, points, count, scores, centres);
    }
}

// Candidates are taken a block at a time: the estimates and the counts of ranges reached are
// computed for the whole block first (loops over lanes, which vectorise), then each candidate is
// written to the next place of its list and the count advanced only when it belongs there.
#define COLLECT_BLOCK 256

static inline __attribute__((always_inline)) size_t collect_loop(
    const vicinity_estimate_centre *centre, const vicinity_radius_filter *filter, const double *restrict scores,
    const double *restrict points, size_t count, unsigned int *restrict kept, double *restrict keptEstimates,
    unsigned int *restrict keptSlots, unsigned int *restrict undecided, unsigned int *restrict undecidedSlots,
    size_t *undecidedCount) {
    const vicinity_radius_filter f = *filter;
    double estimates[COLLECT_BLOCK];
    unsigned int reached[COLLECT_BLOCK];
    size_t keptCount = 0;
    size_t openCount = 0;
    // No range holds anything: nothing is kept (and no bound is read).
    if (f.occupied == 0) count = 0;
    for (size_t start = 0; start < count; start += COLLECT_BLOCK) {
        size_t lanes = count - start < COLLECT_BLOCK ? count - start : COLLECT_BLOCK;
        const double *blockScores = scores + start;
        estimates_loop(centre, points + 2 * start, lanes, estimates);
        for (size_t lane = 0; lane < lanes; lane++) reached[lane] = 0;
        // The range holding a score can only be the last whose lower bound it reaches.
        for (size_t slot = 0; slot < f.occupied; slot++) {
            double minimum = f.minimums[slot];
            for (size_t lane = 0; lane < lanes; lane++) reached[lane] += blockScores[lane] >= minimum;
        }
        for (size_t lane = 0; lane < lanes; lane++) {
            double score = blockScores[lane];
            unsigned int slot = reached[lane] > 0 ? reached[lane] - 1 : 0;
            int inRange = (reached[lane] > 0) & (score < f.maximums[slot]);
            double estimate = estimates[lane];
            double error = estimate * f.relativeError;
            int inside = estimate + error <= f.limit;
            // Neither inside nor outside on the estimate (near the edge, or NaN).
            int open = !(inside | (estimate - error > f.limit));
            unsigned int index = (unsigned int)(start + lane);
            kept[keptCount] = index;
            keptEstimates[keptCount] = estimate;
            keptSlots[keptCount] = slot;
            keptCount += (size_t)(inside & inRange);
            undecided[openCount] = index;
            undecidedSlots[openCount] = slot;
            openCount += (size_t)(open & inRange);
        }
    }
    *undecidedCount = openCount;
    return keptCount;
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static size_t collect_avx512(
    const vicinity_estimate_centre *centre, const vicinity_radius_filter *filter, const double *restrict scores,
    const double *restrict points, size_t count, unsigned int *restrict kept, double *restrict keptEstimates,
    unsigned int *restrict keptSlots, unsigned int *restrict undecided, unsigned int *restrict undecidedSlots,
    size_t *undecidedCount) {
    return collect_loop(
        centre, filter, scores, points, count, kept, keptEstimates, keptSlots, undecided, undecidedSlots,
        undecidedCount);
}
__attribute__((target("avx2"))) static size_t collect_avx2(
    const vicinity_estimate_centre *centre, const vicinity_radius_filter *filter, const double *restrict scores,
    const double *restrict points, size_t count, unsigned int *restrict kept, double *restrict keptEstimates,
    unsigned int *restrict keptSlots, unsigned int *restrict undecided, unsigned int *restrict undecidedSlots,
    size_t *undecidedCount) {
    return collect_loop(
        centre, filter, scores, points, count, kept, keptEstimates, keptSlots, undecided, undecidedSlots,
        undecidedCount);
}
#endif

size_t vicinity_collect_in_radius(
    int level, const vicinity_estimate_centre *centre, const vicinity_radius_filter *filter,
    const double *restrict scores, const double *restrict points, size_t count, unsigned int *restrict kept,
    double *restrict keptEstimates, unsigned int *restrict keptSlots, unsigned int *restrict undecided,
    unsigned int *restrict undecidedSlots, size_t *undecidedCount) {
    switch (kernel_level(level)) {
#if defined(__x86_64__)
    case 2:
        return collect_avx512(
            centre, filter, scores, points, count, kept, keptEstimates, keptSlots, undecided, undecidedSlots,
            undecidedCount);
    case 1:
        return collect_avx2(
            centre, filter, scores, points, count, kept, keptEstimates, keptSlots, undecided, undecidedSlots,
            undecidedCount);
#endif
    default:
        return collect_loop(
            centre, filter, scores, points, count, kept, keptEstimates, keptSlots, undecided, undecidedSlots,
            undecidedCount);
    }
}
