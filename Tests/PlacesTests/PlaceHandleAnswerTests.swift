import Geo
import PlaceQueries
import Places
import Testing

/// `PlaceDirectory.handleAnswer` against `answer`: the same hits in the same order, with the same
/// distances, bearings, coordinates, ids and names, and the same total, for random radius queries
/// (ties at equal distances, limits that cut, every model and both measures); nil for the queries
/// it leaves to `answer`.
@Suite struct PlaceHandleAnswerTests {
    @Test func handleAnswersEqualAnswers() throws {
        var random = SplitMix64(seed: 2_020)
        var places: [Place] = []
        for index in 0..<400 {
            // Pairs of places at one point: ties broken by id.
            let latitude = 41.0 + Double(index / 2 % 97) * 0.0004 + random.nextUnit() * 0.00001
            let longitude = 29.0 + Double(index / 2 % 89) * 0.0005
            places.append(
                Place(
                    id: "p\(random.next() % 1_000)-\(index)", kind: index % 5 == 0 ? "cafe" : "pharmacy",
                    name: index % 7 == 0 ? "Ümit \"\(index)\"\t\\" : "Place \(index)",
                    coordinate: try Coordinate(latitude: latitude, longitude: longitude)))
        }
        var catalog = try PlaceCatalog()
        try catalog.add(contentsOf: places)
        let directory = PlaceDirectory(places: catalog)
        var compared = 0
        for round in 0..<200 {
            let center = try Coordinate(
                latitude: 41.0 + random.nextUnit() * 0.04, longitude: 29.0 + random.nextUnit() * 0.045)
            let models: [DistanceModel] = [.geodesic, .sphere]
            let query = PlaceQuery(
                kind: ["pharmacy", "cafe", "none"][round % 3], center: center,
                reach: .within(radiusMeters: random.nextUnit() * 1_500, limit: round % 4 == 0 ? 5 : nil),
                model: models[round % 2], measures: round % 5 == 0 ? .exact : .indexed, countsAll: round % 8 != 0)
            let expected = try directory.answer(query)
            let byHandle = try #require(try directory.handleAnswer(query))
            #expect(byHandle.total == expected.total)
            #expect(byHandle.hits.hits.count == expected.hits.count)
            for (index, hit) in zip(byHandle.hits.hits.indices, expected.hits) {
                let handle = byHandle.hits.hits[index].handle
                #expect(byHandle.hits.withID(handle) { String(decoding: $0, as: UTF8.self) } == hit.id)
                #expect(byHandle.hits.name(handle) == hit.name)
                #expect(byHandle.hits.kind == hit.kind)
                #expect(byHandle.coordinates[index] == hit.coordinate)
                #expect(byHandle.hits.hits[index].distanceMeters == hit.distanceMeters)
                #expect(byHandle.bearings[index] == hit.bearingDegrees)
                compared += 1
            }
        }
        #expect(compared > 2_000)
        let center = try Coordinate(latitude: 41, longitude: 29)
        let nearest = PlaceQuery(kind: "pharmacy", center: center, reach: .nearest(count: 3, maxDistanceMeters: nil))
        #expect(try directory.handleAnswer(nearest) == nil)
        let beyond = PlaceQuery(
            kind: "pharmacy", center: try Coordinate(latitude: 10, longitude: 10),
            reach: .within(radiusMeters: 1, limit: nil), namesNearestBeyond: true)
        #expect(try directory.handleAnswer(beyond) == nil)
    }
}
