/// C's `%.Nf` for a `Double`, digit for digit as glibc prints it.
///
/// glibc prints the exact binary value rounded to N decimals, ties to even; Swift's own
/// descriptions print the shortest round-trip form instead, which differs in the last digits
/// (Redis prints 13.36138933897018433 where Swift says 13.361389338970184). An `x87` long double
/// holds every double exactly, so `%.17Lf` of a double converted to long double prints the same
/// digits as this does. Checked against glibc's `vsnprintf` on 100,000 values of every magnitude
/// (`RedisGeoTests.fixedDecimalFastPathMatchesGlibcPrintf`); faster than `String(format:)`, which parses its format.
public enum FixedDecimal {
    /// `printf("%.*f", fractionDigits, value)` with glibc's output for infinities ("inf", "-inf") and
    /// NaN ("nan", "-nan" when the sign bit is set).
    ///
    /// - Parameters:
    ///   - value: any double.
    ///   - fractionDigits: decimals after the point, 0 or more.
    public static func format(_ value: Double, fractionDigits: Int) -> String {
        let sign = value.sign == .minus ? "-" : ""
        if value.isNaN { return sign + "nan" }
        if value.isInfinite { return sign + "inf" }
        if let text = small(value, fractionDigits: fractionDigits, trimmingZeros: false) { return text }
        return exact(value, fractionDigits: fractionDigits)
    }

    /// `format` for finite values, in limbs of any length.
    static func exact(_ value: Double, fractionDigits: Int) -> String {
        let sign = value.sign == .minus ? "-" : ""
        var digits = scaledDigits(abs(value), fractionDigits: fractionDigits)
        if digits.count <= fractionDigits {
            digits = String(repeating: "0", count: fractionDigits + 1 - digits.count) + digits
        }
        guard fractionDigits > 0 else { return sign + digits }
        let point = digits.index(digits.endIndex, offsetBy: -fractionDigits)
        return sign + digits[..<point] + "." + digits[point...]
    }

    /// `%.Nf` of a finite value with trailing decimal zeros and then a trailing point removed, "-0"
    /// as "0"
    /// (Redis `addReplyHumanLongDouble` for a long double that holds a double).
    static func trimmed(_ value: Double, fractionDigits: Int) -> String {
        if let text = small(value, fractionDigits: fractionDigits, trimmingZeros: true) { return text }
        var text = exact(value, fractionDigits: fractionDigits)
        if fractionDigits > 0 {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// The most bytes `write(_:fractionDigits:trimmingZeros:to:)` writes: a sign, 16 integer
    /// digits, the point and 17 decimals.
    public static let maximumSmallLength = 40

    /// The same digits for finite values below 2^53 in magnitude with at most 17 decimals whose
    /// scaled value is below 2^64 (with a little room); nil otherwise (then `format` counts in limbs of any length).
    private static func small(_ value: Double, fractionDigits: Int, trimmingZeros: Bool) -> String? {
        var fits = true
        let text = String(unsafeUninitializedCapacity: maximumSmallLength) { bytes in
            guard let base = bytes.baseAddress,
                let count = write(value, fractionDigits: fractionDigits, trimmingZeros: trimmingZeros, to: base)
            else {
                fits = false
                return 0
            }
            return count
        }
        return fits ? text : nil
    }

    /// Writes `%.Nf` of `value` (with `trimmingZeros`, as `trimmed` prints it) to `out` and
    /// returns the number of bytes written (at most `maximumSmallLength`), for finite values
    /// below 2^53 in magnitude with at most 17 decimals whose scaled value is below 2^64 (with a
    /// little room); nil,
    /// writing nothing, for any other value.
    ///
    /// In 128-bit integer arithmetic: the significand times 10^digits is below 2^110 and the
    /// binary exponent is negative, so one shift with its remainder rounds exactly.
    public static func write(
        _ value: Double, fractionDigits: Int, trimmingZeros: Bool, to out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        guard value.isFinite, (0...17).contains(fractionDigits) else { return nil }
        if fractionDigits == 17, trimmingZeros, value.isNormal, abs(value) < 180.5 {
            let shift = 52 - unbiasedExponent(value)
            if shift >= 1, shift <= 63 { return writeTrimmedSeventeen(value, shift: shift, to: out) }
        }
        let power = powerOfTen(fractionDigits)
        // Rounded up, the scaled value still fits in 64 bits (a longitude of 180 with 17 decimals
        // is 1.8e19, just below 2^64).
        guard abs(value) < 0x1p53, abs(value) * Double(power) < 0x1.ffp63 else { return nil }
        var scaled: UInt64 = 0  // value * 10^fractionDigits, rounded to an integer, ties to even
        if value != 0 {
            let significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
            let shift = value.isNormal ? 52 - unbiasedExponent(value) : 1074
            let product = UInt128(significand) * UInt128(power)
            if shift == 0 {
                scaled = UInt64(truncatingIfNeeded: product)
            } else if shift < 128 {
                // Masking shifts: the shift is known to be in range, so no checks of it.
                let quotient = product &>> shift
                let remainder = product & ((1 &<< shift) &- 1)
                let half = UInt128(1) &<< (shift - 1)
                let roundsUp = remainder > half || (remainder == half && quotient & 1 == 1)
                scaled = UInt64(truncatingIfNeeded: quotient) &+ (roundsUp ? 1 : 0)
            }
        }
        let negative = value.sign == .minus
        var end = 0
        if negative {
            out[end] = UInt8(ascii: "-")
            end += 1
        }
        // Coordinates' 17 decimals divide by a constant: a multiplication, not a division.
        let (whole, fraction) =
            fractionDigits == 17
            ? scaled.quotientAndRemainder(dividingBy: 100_000_000_000_000_000)
            : scaled.quotientAndRemainder(dividingBy: power)
        end += writeDecimal(whole, to: out + end)
        if fractionDigits > 0 {
            out[end] = UInt8(ascii: ".")
            end += 1
            writeDigits(fraction, count: fractionDigits, to: out + end)
            end += fractionDigits
            if trimmingZeros {
                while out[end - 1] == UInt8(ascii: "0") { end -= 1 }
                if out[end - 1] == UInt8(ascii: ".") { end -= 1 }
            }
        }
        if trimmingZeros, negative, end == 2, out[1] == UInt8(ascii: "0") {
            out[0] = UInt8(ascii: "0")
            end = 1
        }
        return end
    }

    /// `write(value, fractionDigits: 17, trimmingZeros: true, to: out)` for a coordinate: a
    /// normal value below 180.5 in magnitude whose binary point lies `shift` (1...63) bits into its
    /// significand, so that the scaled value fits in 64 bits and one 128-bit product with 64-bit
    /// shifts rounds it exactly. The 17 decimals are made eight at a time in one 64-bit word
    /// (`eightDigits`) and their trailing zeros counted from the words, not byte by byte.
    @inline(__always)
    private static func writeTrimmedSeventeen(_ value: Double, shift: Int, to out: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        let significand = value.significandBitPattern | (1 << 52)
        let (high, low) = significand.multipliedFullWidth(by: 100_000_000_000_000_000)
        // The quotient is below 1.81e19, so `high`'s bits past the shift are zero.
        let quotient = (high &<< UInt64(64 - shift)) | (low &>> UInt64(shift))
        let remainder = low & ((1 &<< UInt64(shift)) &- 1)
        let half: UInt64 = 1 &<< UInt64(shift - 1)
        let roundsUp = remainder > half || (remainder == half && quotient & 1 == 1)
        let scaled = quotient &+ (roundsUp ? 1 : 0)
        var end = 0
        if value.sign == .minus {
            out[0] = UInt8(ascii: "-")
            end = 1
        }
        let whole = scaled / 100_000_000_000_000_000
        let fraction = scaled &- whole &* 100_000_000_000_000_000
        end += writeDecimal(whole, to: out + end)
        // A whole number prints without a point (never "-0": the value is at least 2^-11).
        guard fraction != 0 else { return end }
        let first = fraction / 10_000_000_000_000_000
        let rest = fraction &- first &* 10_000_000_000_000_000
        let middle = rest / 100_000_000
        let last = rest &- middle &* 100_000_000
        out[end] = UInt8(ascii: ".")
        out[end + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: first)
        let middleWord = eightDigits(UInt32(truncatingIfNeeded: middle))
        let lastWord = eightDigits(UInt32(truncatingIfNeeded: last))
        let raw = UnsafeMutableRawPointer(out + end + 2)
        raw.storeBytes(of: middleWord.littleEndian, as: UInt64.self)
        (raw + 8).storeBytes(of: lastWord.littleEndian, as: UInt64.self)
        // The decimals kept: up to the last digit that is not "0" (digits are bytes in order,
        // the last one in a word's most significant byte).
        let zeros = 0x3030_3030_3030_3030 as UInt64
        let kept: Int
        if last != 0 {
            kept = 17 - (lastWord ^ zeros).leadingZeroBitCount / 8
        } else if middle != 0 {
            kept = 9 - (middleWord ^ zeros).leadingZeroBitCount / 8
        } else {
            kept = 1
        }
        return end + 1 + kept
    }

    /// The eight decimal digits of a value below 10^8, with leading zeros, as ASCII bytes in one
    /// word: the first digit in the least significant byte. Each step splits every lane of the
    /// word at once (4-digit halves in 32-bit lanes, pairs in 16-bit lanes, digits in bytes) by a
    /// multiplication and a shift: n / 100 is (n × 10,486) >> 20 for n < 10,000, and n / 10 is
    /// (n × 103) >> 10 for n < 100; no lane's product reaches the next lane.
    @inlinable @inline(__always)
    static func eightDigits(_ value: UInt32) -> UInt64 {
        let halves = UInt64(value / 10_000) | (UInt64(value % 10_000) << 32)
        let hundreds = ((halves &* 10_486) >> 20) & 0x0000_007F_0000_007F
        let pairs = hundreds | ((halves &- hundreds &* 100) << 16)
        let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
        let digits = tens | ((pairs &- tens &* 10) << 8)
        return digits | 0x3030_3030_3030_3030
    }

    /// Writes an unsigned integer in decimal, most significant digit first; returns its length
    /// (1...20).
    @inline(__always)
    public static func writeDecimal(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // log10(2) ≈ 1233 / 4096: the digits of 2^(bits - 1), then one more if the value reaches
        // the next power of ten.
        let bits = 64 - value.leadingZeroBitCount
        let guess = (bits &* 1_233) >> 12
        let length = max(1, guess + (value >= powerOfTen(guess) ? 1 : 0))
        writeDigits(value, count: length, to: out)
        return length
    }

    /// Writes the last `count` (0...20) decimal digits of `value`, with leading zeros, to `out`.
    ///
    /// Two digits a step, and a value of more than eight digits cut into eight-digit parts first:
    /// the parts' divisions do not wait for each other, where one digit at a time would be a
    /// chain of up to twenty.
    @inline(__always)
    static func writeDigits(_ value: UInt64, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var end = count
        while end > 8 {
            writeEightDigits(UInt32(truncatingIfNeeded: rest % 100_000_000), to: out + end - 8)
            rest /= 100_000_000
            end -= 8
        }
        var low = UInt32(truncatingIfNeeded: rest % 100_000_000)
        while end >= 2 {
            writePair(low % 100, to: out + end - 2)
            low /= 100
            end -= 2
        }
        if end == 1 { out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: low % 10) }
    }

    /// Writes a value below 10^8 as exactly eight digits, with leading zeros (`eightDigits`'
    /// word).
    @inline(__always)
    private static func writeEightDigits(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: eightDigits(value).littleEndian, as: UInt64.self)
    }

    /// Writes a value below 100 as two digits.
    @inline(__always)
    private static func writePair(_ pair: UInt32, to out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
        out[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
    }

    /// 10^`exponent` for an exponent in 0...19: constants the compiler puts in a table of read-only
    /// data, where a lazily made array would cost a check of its initialization at every use. 0
    /// for any other exponent (no caller asks for one: debug builds stop there).
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        guard (0...19).contains(exponent) else {
            assertionFailure("10^\(exponent) is outside 10^0 ... 10^19")
            return 0
        }
        return switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// The binary exponent of a normal value (`value.exponent`, read from its bits here rather
    /// than through the standard library's out-of-line getter).
    @inline(__always)
    static func unbiasedExponent(_ value: Double) -> Int {
        assert(value.isNormal, "the exponent of \(value) is not in its bits")
        return Int(truncatingIfNeeded: value.exponentBitPattern) &- 1023
    }

    /// The decimal digits of `value * 10^fractionDigits` rounded to an integer, ties to even.
    private static func scaledDigits(_ value: Double, fractionDigits: Int) -> String {
        guard value != 0 else { return "0" }
        let significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
        let exponent = value.isNormal ? Int(value.exponent) - 52 : -1074
        var number = LimbNumber(significand)
        for _ in 0..<fractionDigits { number.multiply(by: 10) }
        if exponent >= 0 {
            number.shiftLeft(exponent)
        } else {
            let shift = -exponent
            let half = number.bit(shift - 1)
            let belowHalf = number.hasBits(below: shift - 1)
            number.shiftRight(shift)
            if half && (belowHalf || number.bit(0)) { number.addOne() }
        }
        return number.decimalString
    }
}

/// A non-negative integer of any size, as little-endian 32-bit limbs; just what `FixedDecimal` needs.
private struct LimbNumber {
    var limbs: [UInt32]

    init(_ value: UInt64) {
        limbs = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
    }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for index in limbs.indices {
            let product = UInt64(limbs[index]) * UInt64(factor) + carry
            limbs[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func shiftLeft(_ count: Int) {
        let whole = count / 32
        let part = count % 32
        if part != 0 {
            var carry: UInt32 = 0
            for index in limbs.indices {
                let limb = limbs[index]
                limbs[index] = (limb << part) | carry
                carry = limb >> (32 - part)
            }
            if carry != 0 { limbs.append(carry) }
        }
        limbs.insert(contentsOf: repeatElement(0, count: whole), at: 0)
    }

    mutating func shiftRight(_ count: Int) {
        let whole = count / 32
        let part = count % 32
        guard whole < limbs.count else {
            limbs = [0]
            return
        }
        limbs.removeFirst(whole)
        if part != 0 {
            for index in limbs.indices {
                let high = index + 1 < limbs.count ? limbs[index + 1] << (32 - part) : 0
                limbs[index] = (limbs[index] >> part) | high
            }
        }
    }

    func bit(_ position: Int) -> Bool {
        guard position >= 0, position / 32 < limbs.count else { return false }
        return limbs[position / 32] >> (position % 32) & 1 == 1
    }

    func hasBits(below position: Int) -> Bool {
        guard position > 0 else { return false }
        let whole = min(position / 32, limbs.count)
        if limbs[..<whole].contains(where: { $0 != 0 }) { return true }
        guard whole < limbs.count, position % 32 != 0 else { return false }
        return limbs[whole] & ((1 << UInt32(position % 32)) - 1) != 0
    }

    mutating func addOne() {
        for index in limbs.indices {
            limbs[index] &+= 1
            if limbs[index] != 0 { return }
        }
        limbs.append(1)
    }

    /// Divides in place by `divisor` and returns the remainder.
    mutating func divide(by divisor: UInt32) -> UInt32 {
        var remainder: UInt64 = 0
        for index in limbs.indices.reversed() {
            let current = (remainder << 32) | UInt64(limbs[index])
            limbs[index] = UInt32(current / UInt64(divisor))
            remainder = current % UInt64(divisor)
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        return UInt32(remainder)
    }

    var isZero: Bool { limbs.allSatisfy { $0 == 0 } }

    var decimalString: String {
        var number = self
        var chunks: [UInt32] = []
        repeat { chunks.append(number.divide(by: 1_000_000_000)) } while !number.isZero
        var text = String(chunks.removeLast())
        for chunk in chunks.reversed() {
            let part = String(chunk)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
