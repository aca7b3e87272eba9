import Foundation
import Testing

@testable import Geo

/// The bearing answers serve (`BearingFrame`: the normal-section azimuth within 5 km, `geod_inverse`
/// beyond and near the poles) against GeographicLib, at every distance a query can reach (radii up
/// to 20,000 km, nearest-N at any distance): within 0.005° — half of the 0.01° step served
/// (`ServedPrecision`) — for every pair served at a distance above 0 (0.5 mm and more; a place
/// served at 0 m has bearing 0).
///
/// Two references: PROJ's `geod_inverse` in process (Karney's own C implementation of
/// GeographicLib) on 100,000 random pairs, and 2,400 pairs pinned from GeographicLib's Python
/// package (`Fixtures/bearing-reference.csv`, made by `make_bearing_reference.py`).
@Suite struct ServedBearingTests {
    /// Half the step of a served bearing, degrees.
    static let tolerance = 0.005
    /// Pairs closer than this are served at 0 m, with bearing 0 (`ServedPrecision`).
    static let servedZeroMeters = 0.0005

    /// The smaller angle between two bearings in degrees.
    static func angle(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    /// Whether `BearingFrame` takes its cheap normal-section path for this pair.
    static func isCheap(_ centre: Coordinate, _ distanceMeters: Double) -> Bool {
        abs(centre.latitude) <= BearingFrame.polarLimitDegrees
            && distanceMeters <= BearingFrame.normalSectionLimitMeters
    }

    /// A centre: anywhere, on the equator, on or next to ±180°, or within 0.2° of a pole (both
    /// sides of the polar limit, the poles themselves included).
    static func centre(_ random: inout SplitMix64) -> Coordinate {
        let anywhere = asin(random.nextUnit() * 2 - 1) * 180 / .pi
        let longitude = random.nextUnit() * 360 - 180
        switch random.next() % 5 {
        case 0: return Coordinate(unchecked: 0, longitude)
        case 1:
            let side: Double = random.next() % 2 == 0 ? 180 : -180
            let offset = random.next() % 3 == 0 ? 0 : random.nextUnit() * 0.001
            return Coordinate(unchecked: anywhere, side > 0 ? side - offset : side + offset)
        case 2:
            let pole: Double = random.next() % 2 == 0 ? 90 : -90
            let offset = random.next() % 10 == 0 ? 0 : random.nextUnit() * 0.2
            return Coordinate(unchecked: pole > 0 ? pole - offset : pole + offset, longitude)
        default: return Coordinate(unchecked: anywhere, longitude)
        }
    }

    /// A distance in meters: half the pairs within the normal-section limit (sub-metre ones and
    /// ones at the limit among them), half beyond, up to 20,000 km.
    static func distance(_ random: inout SplitMix64) -> Double {
        let unit = random.nextUnit()
        switch random.next() % 10 {
        case 0, 1: return 0.0005 * pow(2_000, unit)  // 0.5 mm … 1 m
        case 2: return 4_500 + 1_000 * unit  // either side of 5 km
        case 3, 4: return 5_000 * unit  // within 5 km, uniform
        default: return 1 * pow(20_000_000, unit)  // 1 m … 20,000 km, every decade alike
        }
    }

    @Test func withinHalfAStepOfGeodInverseOnAHundredThousandPairs() throws {
        var random = SplitMix64(seed: 0x5E2F_ED20)
        var worst = 0.0
        var worstCheap = 0.0
        var worstCheapFromAHundredMetres = 0.0
        var cheap = 0
        var compared = 0
        var failures = 0
        for _ in 0..<100_000 {
            let centre = Self.centre(&random)
            let target = Geodesic.wgs84.destination(
                from: centre, bearing: random.nextUnit() * 360, distanceMeters: Self.distance(&random))
            let reference = Geodesic.wgs84.inverse(centre, target)
            guard reference.distanceMeters >= Self.servedZeroMeters else { continue }
            compared += 1
            let bearing = try BearingFrame(from: centre, model: .geodesic).bearing(to: target)
            let error = Self.angle(bearing, reference.initialBearing)
            worst = max(worst, error)
            if Self.isCheap(centre, reference.distanceMeters) {
                cheap += 1
                worstCheap = max(worstCheap, error)
                if reference.distanceMeters >= 100 {
                    worstCheapFromAHundredMetres = max(worstCheapFromAHundredMetres, error)
                }
            }
            if !(bearing >= 0 && bearing < 360) || error > Self.tolerance {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "from \(centre) to \(target), \(reference.distanceMeters) m: \(bearing)° against \(reference.initialBearing)°"
                    )
                }
            }
        }
        print(
            "ServedBearingTests: \(compared) pairs, worst \(worst)°; cheap path \(cheap) pairs, worst \(worstCheap)°, "
                + "from 100 m \(worstCheapFromAHundredMetres)°")
        #expect(failures == 0)
        #expect(compared > 99_000)
        // The cheap path carries about half the pairs, so the figures are about it.
        #expect(cheap > 35_000)
        // Its error from 100 m on is the normal section's alone, (e'²/12)(s/N)² ≤ 2e-8° at 5 km;
        // closer, the coordinates' last bits turn the direction (4e-9 m over 0.5 mm is 5e-4°).
        #expect(worstCheapFromAHundredMetres <= 3e-8)
        #expect(worstCheap <= 1e-3)
        #expect(worst <= Self.tolerance)
    }

    /// The pinned GeographicLib table: every family within half a step, and the cheap path's rows
    /// from 100 m on within 3e-8°.
    @Test func withinHalfAStepOfGeographicLib() throws {
        let rows = GeodesicReference.bearings
        #expect(rows.count == 2_400)
        var worstByCategory: [String: Double] = [:]
        for row in rows where row.distanceMeters >= Self.servedZeroMeters {
            let centre = try Coordinate(latitude: row.latitude1, longitude: row.longitude1)
            let target = try Coordinate(latitude: row.latitude2, longitude: row.longitude2)
            let bearing = try BearingFrame(from: centre, model: .geodesic).bearing(to: target)
            let error = Self.angle(bearing, Bearing.normalized(row.azimuthDegrees))
            worstByCategory[row.category] = max(worstByCategory[row.category] ?? 0, error)
            #expect(error <= Self.tolerance, "\(row.category): \(bearing)° against \(row.azimuthDegrees)°")
            if Self.isCheap(centre, row.distanceMeters), row.distanceMeters >= 100 {
                #expect(
                    error <= 3e-8,
                    "\(row.category) at \(row.distanceMeters) m: \(bearing)° against \(row.azimuthDegrees)°")
            }
        }
        print(
            "ServedBearingTests: GeographicLib table, worst by category \(worstByCategory.sorted { $0.key < $1.key })")
        #expect(Set(worstByCategory.keys) == ["short", "submetre", "polar", "antimeridian", "equator", "long"])
    }

    /// Served, the digits are GeographicLib's but for a tie: the served bearing is the reference
    /// rounded to 0.01°, or a neighbouring step when the reference lies within the error of a
    /// rounding boundary.
    @Test func servedDigitsAreGeographicLibsRounded() throws {
        var differing = 0
        for row in GeodesicReference.bearings where row.distanceMeters >= Self.servedZeroMeters {
            let centre = try Coordinate(latitude: row.latitude1, longitude: row.longitude1)
            let target = try Coordinate(latitude: row.latitude2, longitude: row.longitude2)
            let served = ServedPrecision.bearing(try BearingFrame(from: centre, model: .geodesic).bearing(to: target))
            let expected = ServedPrecision.bearing(Bearing.normalized(row.azimuthDegrees))
            if served != expected {
                differing += 1
                #expect(Self.angle(served, expected) < 0.010_000_1)
            }
        }
        // Only sub-metre pairs, whose bearings carry the coordinates' last bits, may round apart.
        #expect(differing <= 5)
    }
}
