import Foundation
import Geo

/// A deterministic synthetic city for benchmarks: half of the points uniform over a box about
/// 60 km (north–south) by 75 km (east–west) around Istanbul, half in a few hundred Gaussian
/// clusters with σ between 300 and 800 m, so that a 500 m query finds tens of points in the
/// suburbs and thousands in a dense centre, as in a real city.
struct SyntheticCity {
    struct Cluster {
        var center: (latitude: Double, longitude: Double)
        var sigmaMeters: Double
    }

    static let centerLatitude = 41.05
    static let centerLongitude = 28.95
    /// Half-extent of the box: 30 km north–south, 37.5 km east–west.
    static let halfHeightMeters = 30_000.0
    static let halfWidthMeters = 37_500.0

    let clusters: [Cluster]
    private var random: SplitMix64

    init(seed: UInt64, clusterCount: Int = 300) {
        var random = SplitMix64(seed: seed)
        var clusters: [Cluster] = []
        for _ in 0..<clusterCount {
            let center = SyntheticCity.uniformPoint(&random)
            clusters.append(Cluster(center: center, sigmaMeters: 300 + 500 * random.nextUnit()))
        }
        self.clusters = clusters
        self.random = random
    }

    static func uniformPoint(_ random: inout SplitMix64) -> (latitude: Double, longitude: Double) {
        let metersPerDegreeLatitude = 111_000.0
        let metersPerDegreeLongitude = 111_000.0 * cos(centerLatitude * .pi / 180)
        let north = (random.nextUnit() * 2 - 1) * halfHeightMeters
        let east = (random.nextUnit() * 2 - 1) * halfWidthMeters
        return (centerLatitude + north / metersPerDegreeLatitude, centerLongitude + east / metersPerDegreeLongitude)
    }

    /// The next point of the mixture: uniform with probability 1/2, else around a random cluster.
    mutating func nextPoint() -> Coordinate {
        let point: (latitude: Double, longitude: Double)
        if random.nextUnit() < 0.5 {
            point = SyntheticCity.uniformPoint(&random)
        } else {
            let cluster = clusters[Int(random.next() % UInt64(clusters.count))]
            let (gaussianNorth, gaussianEast) = random.nextGaussianPair()
            let metersPerDegreeLongitude = 111_000.0 * cos(cluster.center.latitude * .pi / 180)
            point = (
                cluster.center.latitude + gaussianNorth * cluster.sigmaMeters / 111_000,
                cluster.center.longitude + gaussianEast * cluster.sigmaMeters / metersPerDegreeLongitude
            )
        }
        // The box is far from the poles and ±180°, so every point is valid.
        guard let coordinate = try? Coordinate(latitude: point.latitude, longitude: point.longitude) else {
            preconditionFailure("synthetic point \(point) outside the valid range")
        }
        return coordinate
    }
}

extension SplitMix64 {
    /// Two independent standard normal numbers (Box–Muller).
    mutating func nextGaussianPair() -> (Double, Double) {
        let u1 = max(nextUnit(), 0x1.0p-60)
        let u2 = nextUnit()
        let radius = (-2 * log(u1)).squareRoot()
        return (radius * cos(2 * .pi * u2), radius * sin(2 * .pi * u2))
    }
}
