import Foundation
import Testing

@testable import RedisGeo

/// `RedisGeoText.distance`: Redis 7.0 writes a distance with `fixedpoint_d2string`, which rounds
/// the double product `value * 10000` with `llrint` (ties to even) — not `printf("%.4f")`, which
/// rounds the quotient's exact binary value.
@Suite struct RedisGeoDistanceTextTests {
    /// Every value whose product is a half: the text is the even neighbour, however the
    /// quotient's binary value lies. (The review found one in a Redis 7.0.15 reply:
    /// `GEOSEARCH … BYRADIUS 29193270 ft WITHDIST` answered `29193261.0918` where `printf` gives
    /// `…0919`.)
    @Test func productsOnAHalfGoToTheEvenUnit() {
        var ties = 0
        var differFromPrintf = 0
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let units = Double(Int.random(in: 0..<2_000_000_000, using: &random))
            let value = (units + 0.5) / 10_000
            guard value * 10_000 == units + 0.5 else { continue }
            ties += 1
            let even = units.truncatingRemainder(dividingBy: 2) == 0 ? units : units + 1
            let whole = Int64(even) / 10_000
            let fraction = Int64(even) % 10_000
            let expected = "\(whole)." + String(repeating: "0", count: 4 - String(fraction).count) + String(fraction)
            let text = RedisGeoText.distance(meters: value, unit: .meters)
            #expect(text == expected, "\(value)")
            if text != String(format: "%.4f", value) { differFromPrintf += 1 }
        }
        #expect(ties > 1_000)
        #expect(differFromPrintf > 0, "the cases where llrint and printf part")
    }
}
