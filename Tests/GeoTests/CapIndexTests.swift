import Foundation
import Testing

@testable import Geo

/// The index of circles against brute force: for random circles of every size anywhere on Earth
/// (poles, ±180°, the equator) and random points, the circles found containing a point are exactly
/// those whose model distance to it is at most their radius.
@Suite struct CapIndexTests {
    static func randomPoint(_ random: inout SplitMix64, near center: Coordinate? = nil, spread: Double = 0.05)
        -> Coordinate
    {
        guard let center else {
            // Uniform on the sphere, with extra weight on the poles and the antimeridian.
            let roll = random.nextUnit()
            if roll < 0.15 { return point(90 - random.nextUnit() * 0.05, random.nextUnit() * 360 - 180) }
            if roll < 0.3 { return point(-90 + random.nextUnit() * 0.05, random.nextUnit() * 360 - 180) }
            if roll < 0.45 { return point(random.nextUnit() * 2 - 1, random.nextUnit() < 0.5 ? 180 : -180) }
            return point(asin(random.nextUnit() * 2 - 1) * 180 / .pi, random.nextUnit() * 360 - 180)
        }
        let latitude = max(-90, min(90, center.latitude + (random.nextUnit() - 0.5) * spread))
        var longitude = center.longitude + (random.nextUnit() - 0.5) * spread * 4
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return point(latitude, longitude)
    }

    static func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
        // swift-format-ignore: NeverUseForceTry
        try! Coordinate(latitude: latitude, longitude: longitude)
    }

    @Test(arguments: 0..<8) func containingCirclesEqualBruteForce(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) + 4_242)
        var index = CapIndex()
        var circles: [UInt32: Circle] = [:]
        let radii: [Double] = [0, 1, 150, 500, 2_000, 30_000, 400_000, 3_000_000, 15_000_000]
        for id in 0..<UInt32(300) {
            let model: DistanceModel = random.nextUnit() < 0.6 ? .geodesic : .sphere
            let radius = radii[Int(random.next() % UInt64(radii.count))] * (0.5 + random.nextUnit())
            let circle = try Circle(center: Self.randomPoint(&random), radiusMeters: radius, model: model)
            index.insert(circle, id: id)
            circles[id] = circle
        }
        // Some go again: what is removed is never found.
        for id in stride(from: UInt32(0), to: 300, by: 7) {
            index.remove(id)
            circles[id] = nil
        }
        #expect(index.count == circles.count)
        let centers = Array(circles.values)
        for _ in 0..<1_500 {
            let near = random.nextUnit() < 0.7 ? centers.randomElement(using: &random)?.center : nil
            let point = Self.randomPoint(&random, near: near, spread: random.nextUnit() < 0.5 ? 0.01 : 1)
            var found = Set<UInt32>()
            index.forEachContaining(point) { found.insert($0) }
            let expected = Set(
                circles.filter { _, circle in
                    (try? circle.model.distance(circle.center, point)).map { $0 <= circle.radiusMeters } ?? false
                }.keys)
            #expect(found == expected, "at \(point)")
        }
    }

    @Test func aPointExactlyOnTheBoundaryIsInside() throws {
        let center = Self.point(41, 29)
        let target = Self.point(41.0045, 29.0031)
        for model in [DistanceModel.geodesic, .sphere] {
            let radius = try model.distance(center, target)
            var index = CapIndex()
            index.insert(try Circle(center: center, radiusMeters: radius, model: model), id: 1)
            var found: [UInt32] = []
            index.forEachContaining(target) { found.append($0) }
            #expect(found == [1])
            index.insert(try Circle(center: center, radiusMeters: radius.nextDown, model: model), id: 1)
            found = []
            index.forEachContaining(target) { found.append($0) }
            #expect(found.isEmpty)
        }
    }

    @Test func projectedCirclesAreRefusedWithAReason() {
        #expect(throws: GeoError.self) {
            try Circle(center: Self.point(0, 0), radiusMeters: 5, model: .projected(.auto))
        }
        #expect(throws: GeoError.invalidRadius(-1)) {
            try Circle(center: Self.point(0, 0), radiusMeters: -1, model: .geodesic)
        }
    }
}
