import Testing

@testable import TextMap

@Suite struct MapWordingTests {
    @Test(arguments: [
        (0.0, "0 m"), (131.936, "132 m"), (999.4, "999 m"), (999.6, "1.0 km"), (1234, "1.2 km"),
        (9949, "9.9 km"), (9960, "10 km"), (12_345, "12 km"), (.nan, "? m"),
    ])
    func distancesReadAsAPersonSaysThem(meters: Double, text: String) {
        #expect(MapWording.distance(meters) == text)
    }

    @Test(arguments: [
        (255.3, "WSW", "west-southwest"), (0, "N", "north"), (349, "N", "north"), (337.5, "NNW", "north-northwest"),
    ])
    func directionsAsCompassPointsOrWords(degrees: Double, point: String, words: String) {
        #expect(MapWording.direction(degrees, inWords: false) == point)
        #expect(MapWording.direction(degrees, inWords: true) == words)
    }

    @Test(arguments: [("pharmacy", "pharmacies"), ("user", "users"), ("day", "days"), ("bus", "bus")])
    func kindsPluralize(kind: String, plural: String) {
        #expect(MapWording.plural(kind, 1) == kind)
        #expect(MapWording.plural(kind, 2) == plural)
    }
}
