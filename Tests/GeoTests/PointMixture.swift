import Foundation

@testable import Geo

/// Seeded random points from the places that break spatial indexes: exactly at ±90° with assorted
/// longitudes, within 0.01° of a pole, exactly at ±180° and within 0.001° of it, on the equator,
/// in dense clusters tens of meters across (some straddling ±180° or around a pole), spread up to
/// 100 km around the cluster centres (where the index decides by chord estimates), and exact copies
/// of earlier points (ties in every query).
struct PointMixture {
    /// The kinds of point, with their share of the draws.
    enum Kind: CaseIterable {
        case uniform, atPole, nearPole, onAntimeridian, nearAntimeridian, equator, cluster, regional, duplicate

        var weight: Double {
            switch self {
            case .uniform: return 0.17
            case .atPole: return 0.05
            case .nearPole: return 0.08
            case .onAntimeridian: return 0.05
            case .nearAntimeridian: return 0.06
            case .equator: return 0.07
            case .cluster: return 0.32
            case .regional: return 0.10
            case .duplicate: return 0.10
            }
        }
    }

    var random: SplitMix64
    /// Centres of the dense clusters.
    let clusterCenters: [Coordinate]
    /// Standard deviation of a cluster, meters.
    let clusterSpreadMeters: Double
    /// Every point drawn so far (the pool `duplicate` copies from).
    private(set) var drawn: [Coordinate] = []

    init(seed: UInt64, clusterCount: Int = 8, clusterSpreadMeters: Double = 30) {
        random = SplitMix64(seed: seed)
        self.clusterSpreadMeters = clusterSpreadMeters
        var centers = [
            Coordinate(unchecked: 90, 0), Coordinate(unchecked: -89.9995, 45), Coordinate(unchecked: 12.5, 180),
            Coordinate(unchecked: -41.3, -179.9999),
        ]
        while centers.count < max(clusterCount, 4) {
            centers.append(Coordinate(unchecked: random.latitudeUniformOnSphere(), random.longitude()))
        }
        clusterCenters = centers
    }

    mutating func next() -> Coordinate {
        var roll = random.unit()
        var kind = Kind.uniform
        for candidate in Kind.allCases {
            if roll < candidate.weight {
                kind = candidate
                break
            }
            roll -= candidate.weight
        }
        let point = draw(kind)
        drawn.append(point)
        return point
    }

    mutating func draw(_ kind: Kind) -> Coordinate {
        switch kind {
        case .uniform:
            return Coordinate(unchecked: random.latitudeUniformOnSphere(), random.longitude())
        case .atPole:
            return Coordinate(unchecked: random.signed(90), random.pick([0, 180, -180, -90, random.longitude()]))
        case .nearPole:
            return Coordinate(unchecked: random.signed(90 - random.uniform(0...0.01)), random.longitude())
        case .onAntimeridian:
            return Coordinate(unchecked: random.latitudeUniformOnSphere(), random.signed(180))
        case .nearAntimeridian:
            return Coordinate(
                unchecked: random.latitudeUniformOnSphere(), random.signed(180 - random.uniform(0...0.001)))
        case .equator:
            return Coordinate(unchecked: 0, random.longitude())
        case .cluster:
            return near(random.pick(clusterCenters), spreadMeters: clusterSpreadMeters)
        case .regional:
            let center = random.pick(clusterCenters)
            let distance = random.logUniform(1...100_000)
            return Geodesic.wgs84.destination(from: center, bearing: random.uniform(0...360), distanceMeters: distance)
        case .duplicate:
            return drawn.isEmpty ? draw(.uniform) : random.pick(drawn)
        }
    }

    /// A point at a normally distributed distance (standard deviation `spreadMeters`) from `center`
    /// in a uniform direction.
    mutating func near(_ center: Coordinate, spreadMeters: Double) -> Coordinate {
        let distance = abs(gaussian()) * spreadMeters
        return Geodesic.wgs84.destination(from: center, bearing: random.uniform(0...360), distanceMeters: distance)
    }

    /// A standard normal deviate (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(random.unit(), 0x1p-60)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * random.unit())
    }
}
