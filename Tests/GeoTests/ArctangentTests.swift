import Foundation
import Testing

@testable import Geo

/// `Arctangent.atan2` against the C library's `atan2`: random points of every scale and both signs,
/// the axes, the diagonals and the edges of the polynomial's interval.
@Suite struct ArctangentTests {
    /// Two units in the last place of π (8.9e-16 rad).
    static let tolerance = 2 * Double.pi.ulp

    @Test func agreesWithTheCLibraryOnAMillionRandomPoints() {
        var random = SplitMix64(seed: 0xA7A2)
        var worst = 0.0
        for _ in 0..<1_000_000 {
            // Magnitudes from 1e-9 to 1e4 (a chord's components in meters), either sign.
            let y = (random.nextUnit() * 2 - 1) * pow(10, random.nextUnit() * 13 - 9)
            let x = (random.nextUnit() * 2 - 1) * pow(10, random.nextUnit() * 13 - 9)
            worst = max(worst, abs(Arctangent.atan2(y, x) - atan2(y, x)))
        }
        #expect(worst <= Self.tolerance, "worst \(worst) rad")
    }

    @Test func agreesNearTheReductionsEdges() {
        var worst = 0.0
        // Around tan(π/8) and 1 (the diagonal), where the reduction changes branch, in all octants.
        for ratio in [Arctangent.eighthTurnTangent, 1.0] {
            for step in -1_000...1_000 {
                let r = ratio + Double(step) * 1e-13
                for (y, x) in [(r, 1.0), (1.0, r), (-r, 1.0), (r, -1.0), (-1.0, -r), (1.0, -r)] {
                    worst = max(worst, abs(Arctangent.atan2(y, x) - atan2(y, x)))
                }
            }
        }
        #expect(worst <= Self.tolerance, "worst \(worst) rad")
    }

    @Test(arguments: [
        (0.0, 1.0, 0.0), (1.0, 0.0, Double.pi / 2), (0.0, -1.0, Double.pi), (-1.0, 0.0, -Double.pi / 2),
        (1.0, 1.0, Double.pi / 4), (-1.0, -1.0, -3 * Double.pi / 4), (0.0, 0.0, 0.0), (-0.0, 1.0, 0.0),
        (-0.0, -1.0, Double.pi),
    ])
    func axesAndDiagonals(y: Double, x: Double, expected: Double) {
        #expect(abs(Arctangent.atan2(y, x) - expected) <= Self.tolerance)
    }
}
