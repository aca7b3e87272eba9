import Foundation
import Geo
import RedisGeo
import Testing

@testable import LineProtocol

@Suite struct CapPrefilterTests {
    /// Never false for a point inside the cap: random centres, radii up to beyond the filter's
    /// limit, points spread around each centre out to twice the radius, and points on the edge.
    @Test func neverRefusesAPointInsideTheCap() {
        var random = SplitMix64(seed: 20)
        let radius = RedisGeo.earthRadiusMeters
        var inside = 0
        var refused = 0
        for _ in 0..<2_000 {
            let latitude = (random.nextUnit() * 2 - 1) * 85
            let longitude = (random.nextUnit() * 2 - 1) * 180
            let meters = pow(10, random.nextUnit() * 4.3)  // 1 m ... 20 km
            let angle = meters / radius
            let filter = CapPrefilter(latitude: latitude, longitude: longitude, angularRadius: angle)
            let degrees = angle * 180 / .pi
            let spread = degrees / max(0.05, cos(latitude * .pi / 180))
            for _ in 0..<200 {
                let pointLatitude = min(90, max(-90, latitude + (random.nextUnit() * 4 - 2) * degrees))
                var pointLongitude = longitude + (random.nextUnit() * 4 - 2) * spread
                if pointLongitude > 180 { pointLongitude -= 360 }
                if pointLongitude < -180 { pointLongitude += 360 }
                let distance = RedisGeo.distance(
                    longitude1: longitude, latitude1: latitude, longitude2: pointLongitude, latitude2: pointLatitude)
                let held = filter.mayHold(latitude: pointLatitude, longitude: pointLongitude)
                if distance <= meters {
                    inside += 1
                    #expect(held, "\(pointLatitude), \(pointLongitude) within \(meters) m of \(latitude), \(longitude)")
                } else if !held {
                    refused += 1
                }
            }
        }
        #expect(inside > 10_000)
        // It does filter: most points outside a small cap are refused.
        #expect(refused > 100_000)
    }
}
