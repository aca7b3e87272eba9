import CDistanceKernels
import Foundation

extension RedisGeo.DistanceFrom {
    /// The most an `estimate(longitude:latitude:)` differs from `distance(longitude:latitude:)`,
    /// as a fraction of the estimate: 2^-40, about 9.1e-13 (0.46 µm at 500 m).
    ///
    /// Both compute the same haversine from the same two differences of radians (bit for bit the
    /// same arguments); the estimate replaces `sin`, `cos` and `asin` by series whose truncation
    /// is below 1e-17 of the result, so the two differ only by rounding: some ten units in the
    /// last place, about 2e-15 of the distance (`RedisGeoTests.estimateStaysWithinItsBound`
    /// measures it on random pairs). The bound is some 400 times that, so that a decision taken
    /// on the estimate — inside the radius or not, which of two is nearer, which way "%.4f"
    /// rounds — is Redis's whenever the estimate is farther than the bound from the edge.
    static let estimateRelativeError = 0x1p-40

    /// The largest half-difference of radians (longitude or latitude) and the largest
    /// `sqrt(a)` of the haversine the series are used for: 0.01, points up to about 127 km
    /// apart on Redis's sphere. The truncated terms are then below 1e-17 of the kept ones.
    static let seriesLimit = 0.01

    /// Redis's distance to a point in meters, estimated without trigonometric calls; nil when the
    /// points are too far apart for the series (about 127 km) or so close that the haversine's
    /// terms leave the normal range of `Double`: then call `distance(longitude:latitude:)`.
    ///
    /// The result differs from `distance(longitude:latitude:)` by at most
    /// `estimateRelativeError` times itself; when the longitudes are the same to the bit it is
    /// exactly that distance (Redis's meridian distance, which needs no trigonometry).
    ///
    /// - Parameters: the point in degrees, as `distance(longitude:latitude:)` takes it.
    @inline(__always)
    func estimate(longitude pointLongitude: Double, latitude pointLatitude: Double) -> Double? {
        // The same arguments as Redis's, operation for operation.
        let halfLongitude = (pointLongitude * toRadians - longitudeRadians) / 2
        if halfLongitude == 0 { return radius * abs(pointLatitude * toRadians - latitudeRadians) }
        let latitudeDifference = pointLatitude * toRadians - latitudeRadians
        let halfLatitude = latitudeDifference / 2
        let limit = Self.seriesLimit
        guard abs(halfLongitude) <= limit, abs(halfLatitude) <= limit else { return nil }
        let v = Self.sine(halfLongitude)
        let u = Self.sine(halfLatitude)
        // cos(φ2) = cos(φ1 + δ) = cos φ1 cos δ − sin φ1 sin δ, with δ = φ2 − φ1 small.
        let pointCosine =
            latitudeCosine * Self.cosine(latitudeDifference) - latitudeSine * Self.sine(latitudeDifference)
        let a = u * u + latitudeCosine * pointCosine * v * v
        guard a >= 0x1p-600 else { return nil }
        let root = a.squareRoot()
        guard root <= limit else { return nil }
        return 2.0 * radius * Self.arcsine(root)
    }

    /// What a batch function (`estimates`, `estimatesAlongParallel`) writes for `points`, as an array.
    func batch(
        _ points: [(longitude: Double, latitude: Double)],
        _ body: (UnsafeBufferPointer<(longitude: Double, latitude: Double)>, UnsafeMutablePointer<Double>) -> Void
    ) -> [Double] {
        [Double](unsafeUninitializedCapacity: points.count) { buffer, count in
            points.withUnsafeBufferPointer { points in
                if let base = buffer.baseAddress { body(points, base) }
            }
            count = points.count
        }
    }

    /// `estimate(longitude:latitude:)` of each of `points`, written to `out` (room for as many):
    /// the same value to the bit, or NaN where `estimate` is nil.
    ///
    /// One loop of arithmetic whose only decisions are selections, compiled for the processor's
    /// vector unit (`vicinity_estimates`): several points in each instruction (a search's
    /// candidates come by the hundred).
    ///
    /// - Parameter level: the vector unit (`VectorKernels`); `VectorKernels.preferredLevel` unless
    ///   a test asks for another.
    func estimates(
        _ points: UnsafeBufferPointer<(longitude: Double, latitude: Double)>, into out: UnsafeMutablePointer<Double>,
        level: Int = VectorKernels.preferred
    ) {
        withKernelPoints(points) { centre, coordinates, count in
            vicinity_estimates(Int32(level), centre, coordinates, count, out)
        }
    }

    /// `vicinity_collect_in_radius` from this centre: the candidates (`scores`, with their cells'
    /// centres) in one of `filter`'s ranges (at least one) and within its radius by the
    /// estimates, written to the buffers (room for `scores.count` each) as the kernel writes
    /// them, on vector unit `level` (as `VectorKernels` counts them; negative: the preferred
    /// one). Returns how many were kept; `undecidedCount` is set to how many are undecided.
    func collectInRadius(
        _ filter: vicinity_radius_filter, scores: [Double], centres: [(longitude: Double, latitude: Double)],
        level: Int, kept: UnsafeMutablePointer<UInt32>, keptEstimates: UnsafeMutablePointer<Double>,
        keptSlots: UnsafeMutablePointer<UInt32>, undecided: UnsafeMutablePointer<UInt32>,
        undecidedSlots: UnsafeMutablePointer<UInt32>, undecidedCount: inout Int
    ) -> Int {
        precondition(scores.count == centres.count, "a centre for each score")
        var filter = filter
        var open = 0
        let keptCount = scores.withUnsafeBufferPointer { scores in
            centres.withUnsafeBufferPointer { centres in
                withKernelPoints(centres) { centre, coordinates, count in
                    vicinity_collect_in_radius(
                        Int32(level), centre, &filter, scores.baseAddress, coordinates, count, kept, keptEstimates,
                        keptSlots, undecided, undecidedSlots, &open)
                } ?? 0
            }
        }
        undecidedCount = open
        return keptCount
    }

    /// Calls `body` with the centre as the C kernels take it and `points` as consecutive
    /// (longitude, latitude) doubles, and returns its result; nil, without calling it, for no
    /// points.
    @discardableResult
    private func withKernelPoints<Result>(
        _ points: UnsafeBufferPointer<(longitude: Double, latitude: Double)>,
        _ body: (UnsafePointer<vicinity_estimate_centre>, UnsafePointer<Double>, Int) -> Result
    ) -> Result? {
        guard let base = UnsafeRawPointer(points.baseAddress), !points.isEmpty else { return nil }
        // A tuple of two `Double`s is laid out as two consecutive `Double`s.
        let coordinates = base.assumingMemoryBound(to: Double.self)
        var centre = vicinity_estimate_centre(
            longitudeRadians: longitudeRadians, latitudeRadians: latitudeRadians, latitudeCosine: latitudeCosine,
            latitudeSine: latitudeSine, radius: radius, toRadians: toRadians, seriesLimit: Self.seriesLimit)
        return withUnsafePointer(to: &centre) { body($0, coordinates, points.count) }
    }

    /// Redis's distance from a point to the centre's meridian along the point's parallel (the
    /// width test of a box, `RedisGeo.distanceIfInRectangle`), estimated as `estimate` is and
    /// within the same bound; nil where `estimate` would be.
    func estimateAlongParallel(longitude pointLongitude: Double, latitude pointLatitude: Double) -> Double? {
        // Redis measures from the point to the centre's longitude at the point's latitude: the
        // latitude difference is 0, so the haversine's first term is 0.
        let halfLongitude = (longitudeRadians - pointLongitude * toRadians) / 2
        if halfLongitude == 0 { return 0 }
        let latitudeDifference = pointLatitude * toRadians - latitudeRadians
        let limit = Self.seriesLimit
        guard abs(halfLongitude) <= limit, abs(latitudeDifference) <= 2 * limit else { return nil }
        let v = Self.sine(halfLongitude)
        let pointCosine =
            latitudeCosine * Self.cosine(latitudeDifference) - latitudeSine * Self.sine(latitudeDifference)
        let a = pointCosine * pointCosine * v * v
        guard a >= 0x1p-600 else { return nil }
        let root = a.squareRoot()
        guard root <= limit else { return nil }
        return 2.0 * radius * Self.arcsine(root)
    }

    /// `estimateAlongParallel(longitude:latitude:)` of each of `points`, written to `out` (room for
    /// as many): the same value to the bit, or NaN where it is nil (see `estimates(_:into:)`).
    func estimatesAlongParallel(
        _ points: UnsafeBufferPointer<(longitude: Double, latitude: Double)>, into out: UnsafeMutablePointer<Double>,
        level: Int = VectorKernels.preferred
    ) {
        withKernelPoints(points) { centre, coordinates, count in
            vicinity_estimates_along_parallel(Int32(level), centre, coordinates, count, out)
        }
    }

    /// sin x for |x| ≤ 0.02 by its Taylor series to x⁷ (the next term is below 1e-21 of x).
    @inline(__always)
    static func sine(_ x: Double) -> Double {
        let x2 = x * x
        return x + x * (x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040))))
    }

    /// cos x for |x| ≤ 0.02 by its Taylor series to x⁶ (the next term is below 1e-18).
    @inline(__always)
    static func cosine(_ x: Double) -> Double {
        let x2 = x * x
        return 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720)))
    }

    /// asin s for 0 ≤ s ≤ 0.01 by its series to s⁷ (the next term is below 1e-17 of s).
    @inline(__always)
    static func arcsine(_ s: Double) -> Double {
        let s2 = s * s
        return s + s * (s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * (5.0 / 112))))
    }

    /// The bound on |estimate − distance| for an estimate, meters.
    @inline(__always)
    static func estimateError(_ estimate: Double) -> Double {
        estimate * estimateRelativeError
    }
}
