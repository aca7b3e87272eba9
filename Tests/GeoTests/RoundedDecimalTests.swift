import Foundation
import Testing

@testable import Geo

/// `RoundedDecimal` against C's `printf("%.*f")` (Foundation's `String(format:)`, glibc's digits)
/// and against Swift's shortest round-trip text; `ServedPrecision` on its edges.
@Suite struct RoundedDecimalTests {
    /// `printf`'s text, the reference.
    static func printed(_ value: Double, _ decimals: Int) -> String { String(format: "%.*f", decimals, value) }

    /// A value drawn from one of the families that break fixed-decimal writers.
    static func value(_ random: inout SplitMix64, decimals: Int) -> Double {
        let sign: Double = random.next() % 2 == 0 ? 1 : -1
        switch random.next() % 8 {
        case 0:
            // Any bit pattern of a finite double: every exponent, subnormals, huge values.
            let bits = random.next()
            let value = Double(bitPattern: bits)
            return value.isFinite ? value : sign * 1e300
        case 1:
            // Exactly halfway in binary: k/2^n, the only exact ties (0.0625 at 3 decimals).
            let scale = Double(1 << (decimals + 1 + Int(random.next() % 3)))
            return sign * Double(random.next() % 10_000_000) / scale
        case 2:
            // Decimal halves (2.0005 is not exactly representable, so not a tie: either side).
            let power = pow(10, Double(decimals))
            return sign * (Double(random.next() % 100_000_000) + 0.5) / power
        case 3:
            // One step of the decimal, and its neighbours a few ulps away.
            let power = pow(10, Double(decimals))
            var value = sign * Double(random.next() % 1_000_000_000) / power
            for _ in 0..<Int(random.next() % 4) { value = random.next() % 2 == 0 ? value.nextUp : value.nextDown }
            return value
        case 4:
            // Near the limit of 2^53 steps, both sides.
            let limit = 0x1p53 / pow(10, Double(decimals))
            return sign * limit * (0.999_999 + 0.000_002 * random.nextUnit())
        case 5:
            // Tiny values that round to zero or to one step.
            return sign * pow(10, -Double(decimals) - 3 * random.nextUnit())
        default:
            // What answers serve: distances, coordinates, bearings.
            return sign * random.nextUnit() * [20_003_931.5, 180, 360, 1][Int(random.next() % 4)]
        }
    }

    /// Two million values over every decimal count served and more: the same text as `printf`,
    /// digit for digit, sign of a rounded zero included; nil exactly beyond 2^53 steps.
    @Test func matchesPrintfOnTwoMillionValues() {
        var random = SplitMix64(seed: 0xDEC1_3A15)
        var compared = 0
        var refused = 0
        for index in 0..<2_000_000 {
            let decimals = [3, 7, 2, 0, 1, 4, 5, 6, 8, 9][index % 10]
            let value = Self.value(&random, decimals: decimals)
            guard let rounded = RoundedDecimal(value, decimals: decimals) else {
                refused += 1
                #expect(value.magnitude * pow(10, Double(decimals)) >= 0x1p53, "\(value) at \(decimals) refused")
                continue
            }
            compared += 1
            let expected = Self.printed(value, decimals)
            let text = rounded.text(trimmed: false)
            if text != expected {
                Issue.record("\(value) (\(value.bitPattern)) at \(decimals): \(text), printf \(expected)")
                return
            }
        }
        #expect(compared > 1_700_000)
        #expect(refused > 0)
    }

    /// Trimmed, the text is the shortest one of the `Double` nearest to the decimal (what
    /// `JSONEncoder` and `description` print), and that `Double` is the one the text reads back to.
    @Test func trimmedTextIsTheShortestTextOfTheRoundedValue() {
        var random = SplitMix64(seed: 0x7121_3ED)
        for index in 0..<500_000 {
            let decimals = [3, 7, 2][index % 3]
            let value = Self.value(&random, decimals: decimals)
            guard let rounded = RoundedDecimal(value, decimals: decimals) else { continue }
            let served = rounded.doubleValue
            #expect(served.sign == .plus || served != 0, "-0 served for \(value)")
            let text = rounded.text()
            let shortest = served == served.rounded() && served.magnitude < 1e15 ? String(Int64(served)) : "\(served)"
            if !rounded.isShortestText {
                #expect(shortest.contains("e") || rounded.steps >= 1_000_000_000_000_000, "\(value): \(shortest)")
            } else if text != shortest || Double(text) != served {
                Issue.record(
                    "\(value) at \(decimals): \(text), shortest \(shortest), read back \(Double(text) ?? .nan)")
                return
            }
        }
    }

    @Test(arguments: [
        (0.0625, 3, "0.062", "0.062"), (0.0635, 3, "0.064", "0.064"), (2.5, 0, "2", "2"), (3.5, 0, "4", "4"),
        (-0.0, 3, "-0.000", "0"), (-0.0004, 3, "-0.000", "0"), (131.876_49, 3, "131.876", "131.876"),
        (2.5, 3, "2.500", "2.5"), (500, 3, "500.000", "500"), (0, 7, "0.0000000", "0"),
        (-179.999_999_96, 7, "-180.0000000", "-180"), (1e-7, 7, "0.0000001", "0.0000001"),
        (4.9e-324, 9, "0.000000000", "0"), (20_003_931.458_625, 3, "20003931.459", "20003931.459"),
    ])
    func edges(value: Double, decimals: Int, fixed: String, trimmed: String) throws {
        let rounded = try #require(RoundedDecimal(value, decimals: decimals))
        #expect(rounded.text(trimmed: false) == fixed)
        #expect(rounded.text() == trimmed)
    }

    @Test func refusesWhatItCannotRound() {
        #expect(RoundedDecimal(.nan, decimals: 3) == nil)
        #expect(RoundedDecimal(.infinity, decimals: 3) == nil)
        #expect(RoundedDecimal(1e13, decimals: 3) == nil)
        #expect(RoundedDecimal(1, decimals: 10) == nil)
        #expect(RoundedDecimal(1, decimals: -1) == nil)
    }

    /// A bearing that rounds up to 360 is served as 0, never 360 (the range is [0, 360)).
    @Test(arguments: [(359.996, 0.0), (359.994, 359.99), (0.004, 0.0), (-0.0, 0.0), (255.323_889, 255.32)])
    func servedBearing(degrees: Double, expected: Double) {
        let served = ServedPrecision.bearing(degrees)
        #expect(served == expected)
        #expect(served.sign == .plus)
    }

    @Test func servedDistanceAndCoordinate() throws {
        #expect(ServedPrecision.distance(131.936_118_174_435_65) == 131.936)
        #expect(ServedPrecision.distance(0.000_49) == 0)
        #expect(ServedPrecision.distance(0.0005) == 0.001)
        let served = ServedPrecision.coordinate(try Coordinate(latitude: 41.087_853_049_9, longitude: -179.999_999_99))
        #expect(served.latitude == 41.087_853_0)
        #expect(served.longitude == -180)
    }

    /// The whole-number rounding by the 2^52 addition equals `rounded(.toNearestOrEven)` at its
    /// edges: just below a half, halves (ties to even), and around 2^52 and 2^53.
    @Test func nearestWholeRoundsAsTheStandardLibrary() {
        let values: [Double] = [
            0, 0.49999999999999994, 0.5, 1.5, 2.5, 3.5, 0x1p52 - 1.5, 0x1p52 - 0.5, 0x1p52 - 1, 0x1p52,
            0x1p52 + 1, 0x1p52 + 2, 0x1p53 - 1, 0x1p53 - 2, 123_456.5, 123_457.5, 0.5000000000000001,
        ]
        for value in values {
            #expect(RoundedDecimal.nearestWhole(value) == value.rounded(.toNearestOrEven), "\(value)")
        }
    }
}
