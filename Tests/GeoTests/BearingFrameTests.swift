import Foundation
import Testing

@testable import Geo

/// `BearingFrame` against `geod_inverse` (the geodesic model) and against `DistanceModel.measure`
/// (the others): everywhere on Earth, from a centimetre to 20 km, across ±180° and near the poles.
@Suite struct BearingFrameTests {
    /// The normal section leaves at most (e'²/12)(s/N)² rad = 2e-8° from the geodesic at 5 km.
    static let modelTolerance = 3e-8
    /// Coordinates are doubles: one unit in the last place of a latitude or longitude moves a point
    /// by up to 1e-9 m, which turns the direction to a place s meters away by up to 1e-9 / s rad,
    /// in both algorithms independently.
    static func inputTolerance(distanceMeters: Double) -> Double { 4e-9 / distanceMeters * 180 / .pi }

    /// The smaller angle between two bearings in degrees.
    static func angle(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    /// A centre: anywhere, with extra weight on the equator, ±180° and the polar limit.
    static func centre(_ random: inout SplitMix64) throws -> Coordinate {
        let latitude: Double
        switch random.next() % 6 {
        case 0: latitude = 0
        case 1: latitude = (random.nextUnit() * 2 - 1) * BearingFrame.polarLimitDegrees
        case 2: latitude = (random.nextUnit() < 0.5 ? -1 : 1) * (89.8 + 0.2 * random.nextUnit())
        default: latitude = asin(random.nextUnit() * 2 - 1) * 180 / .pi
        }
        let longitude = random.next() % 4 == 0 ? (random.nextUnit() < 0.5 ? 180 : -180) : random.nextUnit() * 360 - 180
        return try Coordinate(latitude: latitude, longitude: longitude)
    }

    @Test func agreesWithGeodInverseFromACentimetreToTwentyKilometres() throws {
        var random = SplitMix64(seed: 0xBEA7_1465)
        var worstFast = 0.0
        var fast = 0
        for _ in 0..<20_000 {
            let centre = try Self.centre(&random)
            let frame = BearingFrame(from: centre, model: .geodesic)
            for _ in 0..<5 {
                // Distances spread over six decades: 1 cm … 20 km.
                let distance = 0.01 * pow(2_000_000, random.nextUnit())
                let target = Geodesic.wgs84.destination(
                    from: centre, bearing: random.nextUnit() * 360, distanceMeters: distance)
                let expected = Geodesic.wgs84.inverse(centre, target)
                let bearing = try frame.bearing(to: target)
                #expect(bearing >= 0 && bearing < 360)
                let error = Self.angle(bearing, expected.initialBearing)
                let tolerance = Self.modelTolerance + Self.inputTolerance(distanceMeters: expected.distanceMeters)
                #expect(
                    error <= tolerance,
                    "from \(centre) to \(target), \(expected.distanceMeters) m: \(bearing) vs \(expected.initialBearing)"
                )
                if expected.distanceMeters <= BearingFrame.normalSectionLimitMeters,
                    abs(centre.latitude) <= BearingFrame.polarLimitDegrees
                {
                    fast += 1
                    if expected.distanceMeters >= 100 { worstFast = max(worstFast, error) }
                }
            }
        }
        // The fast path was exercised, and its error is the model's, not rounding's.
        #expect(fast > 40_000)
        // From 100 m on, rounding is negligible: the error is the model's, (e'²/12)(s/N)² ≤ 1.98e-8°.
        #expect(worstFast <= 2e-8)
    }

    @Test func acrossTheAntimeridian() throws {
        let centre = try Coordinate(latitude: -16.5, longitude: 179.9995)
        let east = try Coordinate(latitude: -16.5, longitude: -179.9995)
        let bearing = try BearingFrame(from: centre, model: .geodesic).bearing(to: east)
        #expect(Self.angle(bearing, Geodesic.wgs84.inverse(centre, east).initialBearing) < 1e-9)
        #expect(abs(bearing - 90) < 0.01)
    }

    /// Regression (review): due north from longitude 0 to longitude -0 the azimuth came out as -0,
    /// which NEARBY printed as "-0.0".
    @Test func dueNorthAcrossLongitudeZeroIsPlusZero() throws {
        let centre = try Coordinate(latitude: 0, longitude: 0)
        let north = try Coordinate(latitude: 0.001, longitude: -0.0)
        for model in [DistanceModel.geodesic, .sphere] {
            let bearing = try BearingFrame(from: centre, model: model).bearing(to: north)
            #expect(bearing == 0 && bearing.sign == .plus, "\(model): \(bearing)")
        }
    }

    @Test func theCentreItselfIsAtBearingZero() throws {
        let centre = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        #expect(try BearingFrame(from: centre, model: .geodesic).bearing(to: centre) == 0)
        #expect(try BearingFrame(from: centre, model: .sphere).bearing(to: centre) == 0)
    }

    /// The Istanbul example of DESIGN.md: Omur is 131.9 m away at 255.32°.
    @Test func theIstanbulExample() throws {
        let here = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let omur = try Coordinate(latitude: 41.087853, longitude: 29.014096)
        let bearing = try BearingFrame(from: here, model: .geodesic).bearing(to: omur)
        #expect(abs(bearing - Geodesic.wgs84.inverse(here, omur).initialBearing) < 1e-9)
        #expect(abs(bearing - 255.323889) < 1e-6)
    }

    @Test(arguments: [DistanceModel.sphere, .haversine(.redis), .projected(.auto)])
    func otherModelsMeasureAsBefore(model: DistanceModel) throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let centre = try Coordinate(
                latitude: random.nextUnit() * 160 - 80, longitude: random.nextUnit() * 360 - 180)
            let target = Geodesic.wgs84.destination(
                from: centre, bearing: random.nextUnit() * 360, distanceMeters: random.nextUnit() * 10_000)
            let frame = BearingFrame(from: centre, model: model)
            #expect(try frame.bearing(to: target) == model.measure(centre, target).bearing)
        }
    }
}
