#ifndef VICINITY_DISTANCE_KERNELS_H
#define VICINITY_DISTANCE_KERNELS_H

#include <stddef.h>

/// A search centre prepared for Redis distance estimates (Swift's `RedisGeo.DistanceFrom`).
typedef struct {
    /// The centre's longitude and latitude, radians.
    double longitudeRadians;
    double latitudeRadians;
    /// cos and sin of the centre's latitude.
    double latitudeCosine;
    double latitudeSine;
    /// The sphere's radius, meters.
    double radius;
    /// Radians per degree.
    double toRadians;
    /// The largest half-difference of radians and square root of the haversine the series are
    /// used for.
    double seriesLimit;
} vicinity_estimate_centre;

/// The widest vector unit the kernels use on this processor: 2 for AVX-512, 1 for AVX2, 0 for
/// none (SSE2 on x86-64, the baseline elsewhere).
int vicinity_kernels_best_level(void);

/// The level the kernels run at when the caller does not choose one (-1): the best, except AVX2
/// rather than AVX-512 on Intel processors, which lower their clock after 512-bit work.
int vicinity_kernels_preferred_level(void);

/// Redis's haversine distance in meters from `centre` to each of `count` points, estimated by
/// series (`RedisGeo.DistanceFrom.estimate` in Swift, operation for operation, so the same value
/// to the bit), written to `out`; NaN where the series do not apply.
///
/// `points` holds `count` (longitude, latitude) pairs of degrees, one after the other; `out` does
/// not overlap it. The loop is compiled for each vector unit (AVX-512, AVX2, else SSE2) and runs
/// on `level` (as `vicinity_kernels_best_level` counts) when the processor has it, else on the
/// best it has (-1: `vicinity_kernels_preferred_level`, what a server asks for; tests ask for
/// each); each lane does one point's arithmetic in IEEE double precision without fused
/// multiply-adds, so the result does not depend on the unit.
void vicinity_estimates(
    int level, const vicinity_estimate_centre *centre, const double *points, size_t count, double *out);

/// The same for Redis's distance from each point to the centre's meridian along the point's
/// parallel (`RedisGeo.DistanceFrom.estimateAlongParallel`).
void vicinity_estimates_along_parallel(
    int level, const vicinity_estimate_centre *centre, const double *points, size_t count, double *out);

/// The geohash grid of Redis's scores (Swift `GeoHash`), as `vicinity_scores_and_centres` takes it.
typedef struct {
    /// The largest longitude and latitude encoded, degrees (180 and 85.05112878).
    double longitudeLimit;
    double latitudeLimit;
    /// Cells per axis (2^26) and cells per degree on each axis, as Swift computes them.
    double cells;
    /// 1 / `cells`, exactly (a power of two): dividing by `cells` is multiplying by it, bit for bit.
    double inverseCells;
    double longitudeCellsPerDegree;
    double latitudeCellsPerDegree;
    /// How near a whole number of cells an offset may come (Swift `GeoHash.cellMargin`).
    double cellMargin;
} vicinity_geohash_grid;

/// For each of `count` positions (consecutive (longitude, latitude) pairs of degrees in
/// `points`), the score GEOADD stores and the centre of its cell (Swift
/// `GeoHash.scoreAndCentre`, operation for operation): the score to `scores`, the centre's
/// (longitude, latitude) to `centres`. Where that function would fall back to the exact
/// division (offsets within the margin of a cell edge, the upper edges) or answer nil (outside
/// the ranges, NaN) the score written is NaN and the centre written is not meaningful: the caller
/// finishes those. Returns how many scores are NaN. The buffers do not overlap. Runs on `level`
/// as `vicinity_estimates` does.
size_t vicinity_scores_and_centres(
    int level, const vicinity_geohash_grid *grid, const double *points, size_t count, double *scores,
    double *centres);

/// What a radius search keeps candidates by (Swift `RedisGeoSearch.collectInRadius`): Redis's
/// scanned cells that hold anything, as score ranges ordered by lower bound and not overlapping,
/// and the radius.
typedef struct {
    /// The ranges' lower bounds (inclusive), ascending, and their upper bounds (exclusive), slot
    /// for slot; `occupied` of each.
    const double *minimums;
    const double *maximums;
    size_t occupied;
    /// The radius, meters.
    double limit;
    /// How far an estimate may be from Redis's distance, as a fraction of the estimate
    /// (`RedisGeo.DistanceFrom.estimateRelativeError`).
    double relativeError;
} vicinity_radius_filter;

/// Chooses, among `count` candidates (`scores`, and their cells' centres as consecutive
/// (longitude, latitude) pairs of degrees in `points`), those in one of the filter's ranges and
/// within its radius of `centre` by the distance estimate (`vicinity_estimates`):
/// - kept, when the estimate plus its error is within the radius: the candidate's index to
///   `kept`, its estimate to `keptEstimates`, the slot of its range to `keptSlots`;
/// - undecided, when the estimate is NaN or within its error of the radius: the index to
///   `undecided`, the slot to `undecidedSlots`; the caller decides them exactly.
/// Others are left out (all of them when `occupied` is 0). Both lists are in candidate order. Returns how many were kept and writes
/// how many are undecided to `undecidedCount`. Every output has room for `count` (they are also
/// written past their counts) and overlaps no input; `count` is below 2^32. Runs on `level` as
/// `vicinity_estimates` does, with the same results on every unit.
size_t vicinity_collect_in_radius(
    int level, const vicinity_estimate_centre *centre, const vicinity_radius_filter *filter, const double *scores,
    const double *points, size_t count, unsigned int *kept, double *keptEstimates, unsigned int *keptSlots,
    unsigned int *undecided, unsigned int *undecidedSlots, size_t *undecidedCount);

#endif
