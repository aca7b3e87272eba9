import Testing

@testable import Geo

@Suite struct BearingTests {
    /// Each compass point spans 22.5° centred on its direction: N covers 348.75 up to 11.25.
    @Test(arguments: [
        (255.3, "WSW"), (0.0, "N"), (348.75, "N"), (11.24, "N"), (11.26, "NNE"), (348.74, "NNW"),
        (360.0, "N"), (-90.0, "W"), (765.0, "NE"), (180.0, "S"), (90.0, "E"), (-0.000_001, "N"),
    ])
    func compassPoint(bearing: Double, expected: String) {
        #expect(Bearing.compassPoint(bearing) == expected)
    }

    @Test(arguments: [
        (0.0, 0.0), (360.0, 0.0), (-90.0, 270.0), (725.5, 5.5), (-360.0, 0.0), (359.5, 359.5),
        // A tiny negative angle rounds to 360 when shifted up, which must still come back as 0.
        (-1e-300, 0.0),
    ])
    func normalized(degrees: Double, expected: Double) {
        let value = Bearing.normalized(degrees)
        #expect(value == expected)
        #expect(value >= 0 && value < 360)
    }

    @Test(arguments: [(190.0, -170.0), (-190.0, 170.0), (180.0, 180.0), (-180.0, -180.0), (45.0, 45.0), (370.0, 10.0)])
    func wrappedLongitude(degrees: Double, expected: Double) {
        #expect(Bearing.wrappedLongitude(degrees) == expected)
    }
}
