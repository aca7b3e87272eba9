import Geo
import Testing

@testable import Places

/// The files in `Data/` load, and the motivating example's distances hold.
@Suite struct ShippedDataTests {
    @Test func londonPharmaciesLoad() throws {
        let file = try PlaceLoader.load(path: ShippedData.path("pharmacies-london.csv"), defaultKind: "other")
        #expect(file.places.count == 1_737)
        #expect(Set(file.places.map(\.kind)) == ["pharmacy"])
        #expect(Set(file.places.map(\.id)).count == 1_737)
        let first = try #require(file.places.first)
        #expect(first.id == "FA049")
        #expect(first.name == "Fa Strange Chemist")
        #expect(first.coordinate == (try Coordinate(latitude: 51.555155, longitude: -0.055082)))
        #expect(first.attributeNames == ["city", "country", "source_id", "address", "postcode", "borough_code"])
        #expect(first.attributes["address"] == "185 Lower Clapton Road, London")
        #expect(first.attributes["postcode"] == "E5 8EQ")
    }

    @Test func istanbulExampleLoads() throws {
        let file = try PlaceLoader.load(
            path: ShippedData.path("pharmacies-istanbul-example.csv"), defaultKind: "other")
        #expect(file.places.map(\.id) == ["omur", "emre", "arzu"])
        #expect(file.places.map(\.name) == ["Omur", "Emre", "Arzu"])
        #expect(Set(file.places.map(\.kind)) == ["pharmacy"])
        #expect(file.places.allSatisfy { $0.attributes["note"]?.hasPrefix("illustrative") == true })
    }

    /// The original app said "100 / 400 / 450 meters"; on WGS84 they are 131.9, 662.5, 681.9 m.
    @Test func istanbulExampleDistances() throws {
        var catalog = try PlaceCatalog()
        try catalog.load(path: ShippedData.path("pharmacies-istanbul-example.csv"), defaultKind: "other")
        let within500 = try catalog.nearby(
            latitude: 41.088154, longitude: 29.015615, radiusMeters: 500, kind: "pharmacy", model: .geodesic)
        #expect(within500.map(\.place.id) == ["omur"])
        #expect(abs(within500[0].distanceMeters - 131.936) < 0.0005)
        let within700 = try catalog.nearby(
            latitude: 41.088154, longitude: 29.015615, radiusMeters: 700, kind: "pharmacy", model: .geodesic)
        #expect(within700.map(\.place.id) == ["omur", "emre", "arzu"])
        #expect(within700.map { ($0.distanceMeters * 10).rounded() / 10 } == [131.9, 662.5, 681.9])
    }

    /// Radius queries on the London file equal a brute-force scan sorted by distance, then id.
    @Test(arguments: [DistanceModel.geodesic, .sphere])
    func londonNearbyMatchesBruteForce(model: DistanceModel) throws {
        let file = try PlaceLoader.load(path: ShippedData.path("pharmacies-london.csv"), defaultKind: "pharmacy")
        var catalog = try PlaceCatalog()
        try catalog.add(contentsOf: file)
        var generator = SplitMix64(seed: 2_026)
        for _ in 0..<40 {
            let center = try Coordinate(
                latitude: 51.30 + 0.37 * generator.nextUnit(), longitude: -0.48 + 0.75 * generator.nextUnit())
            let radius = [300.0, 500, 1_000, 2_500][Int(generator.next() % 4)]
            let hits = try catalog.nearby(center, radiusMeters: radius, kind: "pharmacy", model: model)
            let all = try file.places
                .map { (place: $0, distance: try model.distance(center, $0.coordinate)) }
                .sorted { ($0.distance, $0.place.id) < ($1.distance, $1.place.id) }
            let expected = all.filter { $0.distance <= radius }
            #expect(hits.map(\.place.id) == expected.map(\.place.id))
            for (hit, want) in zip(hits, expected) { #expect(abs(hit.distanceMeters - want.distance) < 1e-5) }
            let nearest = try catalog.nearest(5, to: center, kind: "pharmacy", model: model)
            #expect(nearest.map(\.place.id) == all.prefix(5).map(\.place.id))
        }
    }
}
