import Geo
import Testing

@testable import Places

/// Upserts and removals keep the catalog's answers equal to a brute-force scan of what is there.
@Suite struct PlaceCatalogEditingTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomEditsMatchBruteForce(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var catalog = try PlaceCatalog()
        var truth: [String: Place] = [:]
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound)
        }
        for step in 0..<3_000 {
            let id = "p\(random.next() % 400)"
            if random.next() % 3 == 0 {
                #expect(catalog.remove(kind: "pharmacy", id: id) == truth.removeValue(forKey: id))
            } else {
                let place = Place(
                    id: id, kind: "pharmacy", name: "n\(step)",
                    coordinate: try Coordinate(latitude: uniform(41.0...41.02), longitude: uniform(29.0...29.02)))
                try catalog.upsert(place)
                truth[id] = place
            }
            guard step % 100 == 0 else { continue }
            let center = try Coordinate(latitude: uniform(41.0...41.02), longitude: uniform(29.0...29.02))
            let hits = try catalog.nearby(center, radiusMeters: 800, kind: "pharmacy")
            var expected: [(place: Place, distance: Double)] = []
            for place in truth.values {
                let distance = try DistanceModel.geodesic.distance(center, place.coordinate)
                if distance <= 800 { expected.append((place, distance)) }
            }
            expected.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.place.id < $1.place.id }
            #expect(hits.map(\.place) == expected.map(\.place), "step \(step)")
            #expect(catalog.count(kind: "pharmacy") == truth.count)
            #expect(try catalog.count(center, radiusMeters: 800, kind: "pharmacy") == expected.count)
            for (id, place) in truth { #expect(catalog.place(kind: "pharmacy", id: id) == place) }
        }
    }

    @Test func removingTheLastPlaceOfAKindRemovesTheKind() throws {
        var catalog = try PlaceCatalog()
        try catalog.upsert(
            Place(id: "a", kind: "town", name: "A", coordinate: try Coordinate(latitude: 1, longitude: 2)))
        #expect(catalog.kinds == ["town"])
        #expect(catalog.remove(kind: "town", id: "a")?.name == "A")
        #expect(catalog.kinds.isEmpty)
        #expect(catalog.remove(kind: "town", id: "a") == nil)
    }

    @Test func boxAcrossTheAntimeridian() throws {
        var catalog = try PlaceCatalog()
        for (id, longitude) in [("east", 179.9), ("west", -179.9), ("middle", 0.0)] {
            try catalog.upsert(
                Place(id: id, kind: "k", name: id, coordinate: try Coordinate(latitude: 0, longitude: longitude)))
        }
        let ids = try catalog.inBox(south: -1, west: 179, north: 1, east: -179, kind: "k").map(\.id)
        #expect(ids == ["east", "west"])
        #expect(throws: PlacesError.self) { try catalog.inBox(south: 2, west: 0, north: 1, east: 1, kind: "k") }
    }
}
