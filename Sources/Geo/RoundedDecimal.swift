/// A `Double` rounded to a fixed number of decimals, held as a whole number of steps of
/// 10^-decimals: the rounding and the printing behind every number an answer serves
/// (`ServedPrecision`).
///
/// The rounding is exact: the binary value of the `Double` goes to the nearest multiple of
/// 10^-decimals, and an exact tie (only a value with few binary digits can be one: 0.0625 at 3
/// decimals) to the even multiple. That is digit for digit what C's `printf("%.*f")` prints with
/// glibc, and Foundation's `String(format:)` (`RoundedDecimalTests` compares them on millions of
/// values). No decimal text is made on the way, so it is several times cheaper than printing the
/// shortest round-trip form (BENCHMARKS.md, "Numbers").
///
/// ```swift
/// let distance = RoundedDecimal(131.87649, decimals: 3)!
/// distance.text()              // "131.876"
/// distance.doubleValue         // 131.876, the Double nearest to it
/// RoundedDecimal(2.5, decimals: 3)!.text()  // "2.5" (trailing zeros trimmed)
/// ```
public struct RoundedDecimal: Sendable, Hashable {
    /// The magnitude in steps of 10^-decimals: 12.3456 at 3 decimals is 12346.
    public let steps: UInt64
    /// Whether the value rounded was negative (also when it rounds to 0, as `printf` keeps "-0.000").
    public let isNegative: Bool
    /// Decimals after the point, 0 to `maximumDecimals`.
    public let decimals: Int

    /// The most decimals this type rounds to.
    @inlinable public static var maximumDecimals: Int { 9 }
    /// Longest text `write(to:trimmed:)` writes: a sign, 16 digits, a point.
    @inlinable public static var maximumTextLength: Int { 18 }

    /// Rounds `value` to `decimals` decimals; nil for NaN, infinities, `decimals` outside
    /// 0...`maximumDecimals`, and magnitudes whose steps would not stay below 2^53 (every served
    /// number is far below: 20,003,931.459 m, 360°).
    ///
    /// The product of the magnitude and 10^decimals in floating point is within half an ulp of
    /// the exact one; when it is more than an ulp away from every half step, the exact product
    /// rounds to the same whole number, so only values near a half step take the exact integer
    /// route (`roundedSteps`).
    @inlinable @inline(__always)
    public init?(_ value: Double, decimals: Int) {
        guard value.isFinite, decimals >= 0, decimals <= Self.maximumDecimals else { return nil }
        let power = Self.power(decimals)
        let scaled = value.magnitude * Double(power)
        guard scaled < 0x1p53 else { return nil }
        self.decimals = decimals
        isNegative = value.sign == .minus
        let whole = Self.nearestWhole(scaled)
        // 0.5 − |scaled − whole| is exact or rounds monotonically, so the test holds only when
        // the exact distance to the half step exceeds the ulp.
        if 0.5 - (scaled - whole).magnitude > scaled.ulp {
            steps = UInt64(whole)
        } else {
            steps = Self.roundedSteps(value.magnitude, power)
        }
    }

    /// `scaled` (0 ≤ scaled < 2^53) rounded to a whole number, ties to even, as
    /// `rounded(.toNearestOrEven)`: below 2^52, adding and taking away 2^52 leaves no fraction bits
    /// to the sum, which the default rounding rounds to even; from 2^52 on every double is whole.
    /// (Without SSE4.1, `roundsd`, in the baseline target, `rounded` is a call to the C library.)
    @inlinable @inline(__always)
    static func nearestWhole(_ scaled: Double) -> Double {
        scaled < 0x1p52 ? (scaled + 0x1p52) - 0x1p52 : scaled
    }

    /// 10^decimals for decimals 0 to 9.
    @inlinable @inline(__always)
    public static func power(_ decimals: Int) -> UInt64 {
        switch decimals {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        default: return 1_000_000_000
        }
    }

    /// `magnitude` × `power` rounded to a whole number, ties to even, in exact integer arithmetic:
    /// the significand (53 bits) times the power (at most 30 bits) is a 128-bit product, and the
    /// binary exponent turns into a right shift whose dropped bits decide the rounding.
    @usableFromInline
    static func roundedSteps(_ magnitude: Double, _ power: UInt64) -> UInt64 {
        guard magnitude != 0 else { return 0 }
        let significand = magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0)
        let exponent = magnitude.isNormal ? Int(magnitude.exponent) - 52 : -1074
        let (high, low) = significand.multipliedFullWidth(by: power)
        // magnitude × power < 2^53 (checked by the caller) with a whole significand: the product
        // is whole already and shifting left keeps it below 2^53.
        if exponent >= 0 { return low << UInt64(exponent) }
        let shift = -exponent
        // The product is below 2^83, so below half a step for any shift past 84.
        guard shift <= 84 else { return 0 }
        let quotient: UInt64
        let aboveHalf: Bool
        let isHalf: Bool
        if shift < 64 {
            quotient = (high << UInt64(64 - shift)) | (low >> UInt64(shift))
            let remainder = low & ((1 << UInt64(shift)) - 1)
            let half: UInt64 = 1 << UInt64(shift - 1)
            aboveHalf = remainder > half
            isHalf = remainder == half
        } else if shift == 64 {
            quotient = high
            aboveHalf = low > 1 << 63
            isHalf = low == 1 << 63
        } else {
            quotient = high >> UInt64(shift - 64)
            let remainderHigh = high & ((1 << UInt64(shift - 64)) - 1)
            let halfHigh: UInt64 = 1 << UInt64(shift - 65)
            aboveHalf = remainderHigh > halfHigh || (remainderHigh == halfHigh && low != 0)
            isHalf = remainderHigh == halfHigh && low == 0
        }
        return quotient + (aboveHalf || (isHalf && quotient & 1 == 1) ? 1 : 0)
    }

    /// The `Double` nearest to the rounded decimal (a quotient of two exact doubles, correctly
    /// rounded), +0 for zero: its shortest round-trip text is the trimmed text of this decimal, so
    /// any JSON encoder prints it with the same digits (below 1e-4 in exponent form, `1e-07`).
    @inlinable @inline(__always)
    public var doubleValue: Double {
        guard steps != 0 else { return 0 }
        let value = Double(steps) / Double(Self.power(decimals))
        return isNegative ? -value : value
    }

    /// Writes the decimal as ASCII at `start`: `printf("%.*f")`'s text, or with `trimmed` its
    /// trailing decimal zeros and then a trailing point removed and "-0" written "0" (the shortest
    /// text of `doubleValue` when `isShortestText`, as Swift and `JSONEncoder` print it).
    ///
    /// - Parameters:
    ///   - start: room for `maximumTextLength` bytes.
    ///   - trimmed: whether to drop trailing zeros.
    /// - Returns: the number of bytes written.
    @inlinable @inline(__always)
    public func write(to start: UnsafeMutablePointer<UInt8>, trimmed: Bool) -> Int {
        // One case for each count of decimals, so that every division is by a constant.
        switch decimals {
        case 0: return write(to: start, trimmed: trimmed, power: 1, decimals: 0)
        case 1: return write(to: start, trimmed: trimmed, power: 10, decimals: 1)
        case 2: return write(to: start, trimmed: trimmed, power: 100, decimals: 2)
        case 3: return write(to: start, trimmed: trimmed, power: 1_000, decimals: 3)
        case 4: return write(to: start, trimmed: trimmed, power: 10_000, decimals: 4)
        case 5: return write(to: start, trimmed: trimmed, power: 100_000, decimals: 5)
        case 6: return write(to: start, trimmed: trimmed, power: 1_000_000, decimals: 6)
        case 7: return write(to: start, trimmed: trimmed, power: 10_000_000, decimals: 7)
        case 8: return write(to: start, trimmed: trimmed, power: 100_000_000, decimals: 8)
        default: return write(to: start, trimmed: trimmed, power: 1_000_000_000, decimals: 9)
        }
    }

    /// "00" to "99": two digits for each number below 100.
    @inlinable static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// `write(to:trimmed:)` for `decimals` decimals, `power` 10^decimals (`power(decimals)`): the
    /// digits two at a time, from the right. Given constants (a writer of one precision), every
    /// division is by a constant.
    ///
    /// - Precondition: `decimals` is this value's `decimals` and `power` is 10^decimals.
    @inlinable @inline(__always)
    public func write(to start: UnsafeMutablePointer<UInt8>, trimmed: Bool, power: UInt64, decimals: Int) -> Int {
        precondition(decimals == self.decimals && power == Self.power(decimals), "a writer of another precision")
        let pairs = Self.digitPairs.utf8Start
        var whole = steps / power
        var fraction = steps % power
        var end = 0
        if isNegative, !(trimmed && steps == 0) {
            start[0] = UInt8(ascii: "-")
            end = 1
        }
        // The whole part's digits, counted first so that they go straight to their place.
        var wholeDigits = 1
        var limit: UInt64 = 10
        while whole >= limit, wholeDigits < 19 {
            wholeDigits += 1
            limit &*= 10
        }
        end += wholeDigits
        var position = end
        while whole >= 100 {
            let pair = Int(whole % 100) &* 2
            whole /= 100
            position -= 2
            start[position] = pairs[pair]
            start[position + 1] = pairs[pair + 1]
        }
        if whole >= 10 {
            let pair = Int(whole) &* 2
            start[position - 2] = pairs[pair]
            start[position - 1] = pairs[pair + 1]
        } else {
            start[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole)
        }
        guard decimals > 0, !(trimmed && fraction == 0) else { return end }
        start[end] = UInt8(ascii: ".")
        let last = end + 1 + decimals
        position = last
        for _ in 0..<decimals / 2 {
            let pair = Int(fraction % 100) &* 2
            fraction /= 100
            position -= 2
            start[position] = pairs[pair]
            start[position + 1] = pairs[pair + 1]
        }
        if decimals % 2 == 1 { start[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction) }
        guard trimmed else { return last }
        // The fraction is not zero: a digit other than 0 stops the trimming before the point.
        var length = last
        while start[length - 1] == UInt8(ascii: "0") { length -= 1 }
        return length
    }

    /// The decimal as text (see `write(to:trimmed:)`).
    public func text(trimmed: Bool = true) -> String {
        String(unsafeUninitializedCapacity: Self.maximumTextLength) { buffer in
            guard let start = buffer.baseAddress else { return 0 }
            return write(to: start, trimmed: trimmed)
        }
    }

    /// Whether the trimmed text is the shortest text of `doubleValue` (as Swift and `JSONEncoder`
    /// print it): yes for zero and for magnitudes from 1e-4 up with at most 15 significant digits
    /// (every served number); no below 1e-4, which Swift prints in exponent form (`1e-07`), and
    /// from 16 digits on, where doubles no longer tell every decimal apart.
    @inlinable @inline(__always)
    public var isShortestText: Bool {
        steps == 0 || (steps < 1_000_000_000_000_000 && (decimals <= 4 || steps >= Self.power(decimals - 4)))
    }
}
