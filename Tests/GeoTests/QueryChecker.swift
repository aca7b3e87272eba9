import Testing

@testable import Geo

/// Runs one query point through every `GridIndex` query and compares each answer with the
/// brute-force oracle: the same handles in the same order, and distances within `tolerance`.
struct QueryChecker {
    /// Largest allowed difference between an index distance and the oracle's, meters: the index may
    /// report a chord estimate, which `ChordBounds` keeps within 0.2 µm of the model distance.
    static let tolerance = 1e-6

    let index: GridIndex
    let oracle: BruteForce
    let model: DistanceModel
    /// Largest |index distance − oracle distance| seen, meters.
    private(set) var largestDifference = 0.0
    /// Queries compared.
    private(set) var queries = 0
    /// Answers with the wrong handles or order, or a wrong count (the first few become issues).
    private(set) var handleMismatches = 0
    /// Answers with the right handles but a distance off by more than `tolerance`.
    private(set) var distanceMismatches = 0
    /// Every mismatch of either kind.
    var mismatches: Int { handleMismatches + distanceMismatches }
    /// Points the oracle could not measure (projection failures), summed over query points.
    private(set) var unmeasurable = 0

    init(index: GridIndex, oracle: BruteForce, model: DistanceModel) {
        self.index = index
        self.oracle = oracle
        self.model = model
    }

    /// Radius (at `radii` and at the exact distance of a few points, where the boundary is
    /// inclusive), count, limit and nearest queries around `center`.
    mutating func checkAll(
        center: Coordinate, radii: [Double], nearestCounts: [Int] = [1, 5, 50], random: inout SplitMix64
    ) throws {
        let ranked = oracle.ranked(from: center, model: model)
        unmeasurable += oracle.points.count - ranked.count
        var allRadii = radii
        if !ranked.isEmpty {
            for _ in 0..<2 {
                let boundary = random.pick(ranked).distanceMeters
                allRadii += boundary > 0 ? [boundary, boundary.nextDown] : [boundary]
            }
        }
        for radius in allRadii {
            let expected = ranked.within(radius)
            let hits = try index.within(radiusMeters: radius, of: center, model: model)
            compare(hits, expected, "within(\(radius)) of \(center)")
            let counted = try index.count(withinRadiusMeters: radius, of: center, model: model)
            if counted != expected.count {
                handleMismatches += 1
                record("count(\(radius)) of \(center): \(counted), brute force \(expected.count)")
            }
        }
        let limited = try index.within(radiusMeters: radii[radii.count - 1], of: center, model: model, limit: 3)
        compare(limited, Array(ranked.within(radii[radii.count - 1]).prefix(3)), "within(limit: 3) of \(center)")
        var limits: [Double?] = [nil, 0, 500]
        if !ranked.isEmpty { limits.append(random.pick(ranked).distanceMeters) }
        for count in nearestCounts {
            for limit in limits {
                let expected = Array(ranked.within(limit ?? .infinity).prefix(count))
                let hits = try index.nearest(count, to: center, model: model, maxDistanceMeters: limit)
                compare(hits, expected, "nearest(\(count), max: \(limit.map { "\($0)" } ?? "nil")) to \(center)")
            }
        }
    }

    mutating func compare(_ hits: [GridHit], _ expected: [GridHit], _ query: @autoclosure () -> String) {
        queries += 1
        guard hits.map(\.handle) == expected.map(\.handle) else {
            handleMismatches += 1
            let position =
                zip(hits, expected).enumerated().first { $0.element.0.handle != $0.element.1.handle }?.offset
                ?? min(hits.count, expected.count)
            let got = position < hits.count ? "\(hits[position])" : "nothing"
            let wanted = position < expected.count ? "\(expected[position])" : "nothing"
            record(
                "\(model) \(query()): \(hits.count) hits, brute force \(expected.count); "
                    + "first difference at \(position): got \(got), expected \(wanted)")
            return
        }
        for (hit, reference) in zip(hits, expected) {
            let difference = abs(hit.distanceMeters - reference.distanceMeters)
            largestDifference = max(largestDifference, difference)
            if difference > QueryChecker.tolerance {
                distanceMismatches += 1
                record(
                    "\(model) \(query()): handle \(hit.handle) at \(hit.distanceMeters) m, "
                        + "brute force \(reference.distanceMeters) m")
                return
            }
        }
    }

    /// Records the first few mismatches as issues; the counts tell the rest.
    func record(_ message: String) {
        if mismatches <= 5 { Issue.record(Comment(rawValue: message)) }
    }
}
