/// The two-argument arctangent inlined, for the bearings a query computes by the hundred
/// (`BearingFrame`): the C library's `atan2` is a call through the PLT into code that handles every
/// corner of the doubles.
///
/// Within two units in the last place of π (8.9e-16 rad) of the C library's value over [-π, π]
/// (`ArctangentTests`), far inside the 0.01° (1.7e-4 rad) a bearing is served to. A served bearing
/// is the C library's to the digit except within ~5e-14° of a rounding boundary (x.xx5°), where
/// the last digit may differ by one: about one bearing in 10^11.
///
/// ```swift
/// Arctangent.atan2(1, -1)  // 3π/4, 2.356194490192345
/// ```
public enum Arctangent {
    /// tan(π/8): below it the polynomial takes the quotient as it is; above, the angle is taken
    /// from π/4 (`atan2`).
    static let eighthTurnTangent = 0.41421356237309503
    /// π/4, π/2 and π, radians.
    static let quarterPi = 0.78539816339744831
    static let halfPi = 1.5707963267948966
    static let pi = 3.1415926535897931

    /// The angle of the point (x, y) from the positive x axis, radians in [-π, π], as the C
    /// library's `atan2(y, x)` but for zeros: a `y` of −0 counts as +0 (+0 with x > 0, π with
    /// x < 0, where C says −0 and −π; an angle mapped into [0, 2π) is the same either way), and
    /// both zero is 0. For finite arguments.
    @inline(__always)
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        assert(x.isFinite && y.isFinite, "atan2 of a non-finite argument")
        let ax = x.magnitude
        let ay = y.magnitude
        let (smaller, larger) = ay > ax ? (ax, ay) : (ay, ax)
        guard larger > 0 else { return 0 }
        // One division either way: the quotient in [0, tan(π/8)], or from π/4 the tangent of the
        // difference, (s − l)/(s + l), in (−tan(π/8), 0].
        var angle: Double
        if smaller <= eighthTurnTangent * larger {
            angle = arctangent(smaller / larger)
        } else {
            angle = quarterPi + arctangent((smaller - larger) / (smaller + larger))
        }
        if ay > ax { angle = halfPi - angle }
        if x < 0 { angle = pi - angle }
        return y < 0 ? -angle : angle
    }

    /// atan(t) for |t| ≤ tan(π/8): t + t³·P(t²), P fitted to the relative error of atan over the
    /// interval (least squares on 400 Chebyshev nodes in 40-digit arithmetic, then evaluated in
    /// doubles: within 1.5e-16 of atan(t) relative).
    @inline(__always)
    static func arctangent(_ t: Double) -> Double {
        let s = t * t
        var p = 0.02123880364848641
        p = p * s - 0.04357253738852811
        p = p * s + 0.05691851840917154
        p = p * s - 0.06640978676645641
        p = p * s + 0.07690050350453657
        p = p * s - 0.0909078100448785
        p = p * s + 0.11111106585838057
        p = p * s - 0.14285714193373011
        p = p * s + 0.19999999999062132
        p = p * s - 0.3333333333333001
        return t + t * s * p
    }
}
