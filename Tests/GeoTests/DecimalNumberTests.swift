import Testing

@testable import Geo

/// The one number grammar of every front end, and its values: those of `Double(_:)`, bit for bit.
@Suite struct DecimalNumberTests {
    @Test func acceptsPlainDecimalsAndRefusesTheRest() {
        let accepted: [(String, Double)] = [
            ("12", 12), ("12.5", 12.5), (".5", 0.5), ("12.", 12), ("-0.25", -0.25), ("+7", 7), (" \t41.5 ", 41.5),
            ("1e-3", 0.001), ("2.5E+2", 250), ("0000.000100", 0.0001),
        ]
        for (text, value) in accepted { #expect(DecimalNumber.parse(text) == value, "\(text)") }
        #expect(DecimalNumber.parse("-0")?.sign == .minus)
        for text in ["", " ", "nan", "inf", "-infinity", "0x1p3", "12abc", "1,5", ".", "+", "1e", "1e+", "--1", "1 2"] {
            #expect(DecimalNumber.parse(text) == nil, "\(text)")
        }
    }

    /// Random decimals of 1 to 24 digits with the point anywhere, some with an exponent: the
    /// exact shortcut for short decimals and the general path both give `Double(_:)`'s bits.
    @Test func valuesAreThoseOfTheStandardLibraryBitForBit() {
        var random = SplitMix64(seed: 21)
        for _ in 0..<200_000 {
            let count = 1 + Int(random.next() % 24)
            var digits = (0..<count).map { _ in Character(String(random.next() % 10)) }
            // Coordinates as data files write them, often: up to 3 digits, a point, up to 9.
            if random.next() % 2 == 0 {
                let point = min(digits.count, Int(random.next() % 4))
                digits.insert(".", at: point)
            } else if random.next() % 2 == 0 {
                digits.insert(".", at: Int(random.next() % UInt64(digits.count + 1)))
            }
            var text = (random.next() % 3 == 0 ? "-" : "") + String(digits)
            if random.next() % 8 == 0 { text += "e\(Int(random.next() % 40) - 20)" }
            guard text != ".", text != "-." else { continue }
            let ours = DecimalNumber.parse(text)
            let standard = Double(text)
            #expect(ours?.bitPattern == standard?.bitPattern, "\(text)")
            if ours?.bitPattern != standard?.bitPattern { return }
        }
    }

    /// Decimals near the shortcut's edges: 2^53 and past it, 22 and 23 digits after the point.
    @Test func edgesOfTheExactShortcut() {
        for text in [
            "9007199254740992", "9007199254740993", "9007199254740991.5", "0.0000000000000000000001",
            "0.00000000000000000000001", "1234567890123456789", "12345678901234567890", "-179.9999999",
            "89.99999999999999", "0.1", "0.3", "2.2250738585072014e-308",
        ] {
            #expect(DecimalNumber.parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }
}
