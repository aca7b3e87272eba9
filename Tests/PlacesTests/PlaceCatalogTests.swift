import Geo
import TestSupport
import Testing

@testable import Places

@Suite struct PlaceCatalogTests {
    private func place(_ id: String, _ latitude: Double, _ longitude: Double, kind: String = "pharmacy") throws
        -> Place
    {
        Place(
            id: id, kind: kind, name: id.uppercased(),
            coordinate: try Coordinate(latitude: latitude, longitude: longitude))
    }

    private let here = (latitude: 41.088154, longitude: 29.015615)

    @Test func tiesAtTheSameDistanceAreOrderedByID() throws {
        var catalog = try PlaceCatalog()
        // Added in the order b, a, with the handles 0 and 1: the id, not the handle, breaks the tie.
        try catalog.add(place("b", 41.0885, 29.0160))
        try catalog.add(place("a", 41.0885, 29.0160))
        try catalog.add(place("c", 41.0890, 29.0170))
        try catalog.add(place("0-near", 41.08816, 29.01562))
        let nearby = try catalog.nearby(
            latitude: here.latitude, longitude: here.longitude, radiusMeters: 1_000, kind: "pharmacy")
        #expect(nearby.map(\.place.id) == ["0-near", "a", "b", "c"])
        #expect(nearby[1].distanceMeters == nearby[2].distanceMeters)
        #expect(zip(nearby, nearby.dropFirst()).allSatisfy { $0.distanceMeters <= $1.distanceMeters })
        let nearest = try catalog.nearest(2, latitude: 41.0885, longitude: 29.0160, kind: "pharmacy")
        #expect(nearest.map(\.place.id) == ["a", "b"])
        #expect(nearest.map(\.distanceMeters) == [0, 0])
    }

    @Test func nearbyHonoursLimitAndRadiusInclusively() throws {
        var catalog = try PlaceCatalog()
        let center = try Coordinate(latitude: here.latitude, longitude: here.longitude)
        for (offset, latitude) in [41.0890, 41.0900, 41.0910].enumerated() {
            try catalog.add(place("p\(offset)", latitude, here.longitude))
        }
        let all = try catalog.nearby(center, radiusMeters: 10_000, kind: "pharmacy", model: .sphere)
        #expect(all.map(\.place.id) == ["p0", "p1", "p2"])
        let exact = try #require(all.last?.distanceMeters)
        #expect(try catalog.nearby(center, radiusMeters: exact, kind: "pharmacy", model: .sphere).count == 3)
        #expect(try catalog.nearby(center, radiusMeters: exact, kind: "pharmacy", model: .sphere, limit: 2).count == 2)
        let within = try catalog.nearest(5, to: center, kind: "pharmacy", maxDistanceMeters: all[1].distanceMeters + 1)
        #expect(within.map(\.place.id) == ["p0", "p1"])
    }

    @Test func handlesAreDensePerKind() throws {
        var catalog = try PlaceCatalog()
        try catalog.add(
            contentsOf: PlaceFile(
                path: "mixed", places: [place("x", 1, 1), place("x", 1, 1, kind: "user"), place("y", 2, 2)],
                origins: (2...4).map { SourceLocation(file: "mixed", position: .line($0)) }))
        #expect(try catalog.add(place("z", 3, 3)) == 2)
        #expect(try catalog.add(place("y", 3, 3, kind: "user")) == 1)
        #expect(catalog.kinds == ["pharmacy", "user"])
        #expect(catalog.count == 5)
        #expect(catalog.count(kind: "pharmacy") == 3)
        #expect(catalog.count(kind: "user") == 2)
        #expect(catalog.count(kind: "school") == 0)
        #expect((0..<3).compactMap { catalog.place(kind: "pharmacy", handle: $0)?.id } == ["x", "y", "z"])
        #expect((0..<2).compactMap { catalog.place(kind: "user", handle: $0)?.id } == ["x", "y"])
        #expect(catalog.handle(kind: "pharmacy", id: "z") == 2)
        #expect(catalog.place(kind: "pharmacy", handle: 3) == nil)
        #expect(catalog.place(kind: "user", id: "y")?.coordinate.latitude == 3)
        #expect(catalog.origin(kind: "pharmacy", id: "y") == SourceLocation(file: "mixed", position: .line(4)))
        #expect(catalog.origin(kind: "pharmacy", id: "z") == nil)
    }

    @Test func duplicateAcrossFilesNamesBothAndAddsNothing() throws {
        try TemporaryDirectory.with { directory in
            let first = try directory.write("a.csv", "id,name,lat,lon\nomur,Omur,41.087853,29.014096\n")
            let second = try directory.write(
                "b.geojson",
                """
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "id": "new", "geometry": {"type": "Point", "coordinates": [29, 41]}},
                  {"type": "Feature", "id": "omur", "geometry": {"type": "Point", "coordinates": [29, 41]}}]}
                """)
            var catalog = try PlaceCatalog()
            try catalog.load(path: first, defaultKind: "pharmacy")
            #expect {
                try catalog.load(path: second, defaultKind: "pharmacy")
            } throws: { error in
                (error as? PlacesError)?.description
                    == "\(second): feature 1: duplicate id \"omur\" (first at \(first):2)"
            }
            #expect(catalog.count == 1)
            #expect(catalog.place(kind: "pharmacy", id: "new") == nil)
            // The same ids under another kind are different places.
            try catalog.load(path: second, defaultKind: "user")
            #expect(catalog.count(kind: "user") == 2)
        }
    }

    /// A large new kind is numbered along a Z-order curve: every place is still found by id and by
    /// position, and a duplicate is reported as the order given would find it (the later line of
    /// the first id that repeats), not as the spatial order meets it.
    @Test func aLargeKindInSpatialOrderKeepsEveryPlaceAndReportsDuplicatesInFileOrder() throws {
        var random = SplitMix64(seed: 1_024)
        let places = try (0..<5_000).map { number in
            try place("p\(number)", random.nextUnit() * 170 - 85, random.nextUnit() * 360 - 180)
        }
        var catalog = try PlaceCatalog()
        try catalog.add(contentsOf: places)
        #expect(catalog.count(kind: "pharmacy") == 5_000)
        for original in places {
            #expect(catalog.place(kind: "pharmacy", id: original.id) == original)
        }
        let center = try Coordinate(latitude: 10, longitude: 20)
        let nearest = try catalog.nearest(20, to: center, kind: "pharmacy")
        let expected = places.map { ($0.id, try! DistanceModel.geodesic.measure(center, $0.coordinate).distanceMeters) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(20).map(\.0)
        #expect(nearest.map(\.place.id) == Array(expected))
        #expect(
            catalog.place(kind: "pharmacy", handle: 0) != places[0]
                || catalog.place(kind: "pharmacy", handle: 1) != places[1])

        // Lines 3000 and 4000 repeat the ids of lines 2000 and 10: the first repeat in file order is line 3000.
        var repeated = places
        repeated[2_999].id = "p1999"
        repeated[3_999].id = "p9"
        // The second pair comes first in the spatial order (its corner of the curve).
        repeated[9].coordinate = try Coordinate(latitude: -89.9, longitude: -179.9)
        repeated[3_999].coordinate = try Coordinate(latitude: -89.8, longitude: -179.8)
        let origins = (0..<5_000).map { Optional(SourceLocation(file: "big.csv", position: .line($0 + 1))) }
        var fresh = try PlaceCatalog()
        #expect(
            throws: PlacesError.duplicateID(
                "p1999", at: SourceLocation(file: "big.csv", position: .line(3_000)),
                firstAt: SourceLocation(file: "big.csv", position: .line(2_000)))
        ) {
            try fresh.add(contentsOf: repeated, origins: origins)
        }
        #expect(fresh.count == 0)
    }

    @Test func duplicateAddedInCode() throws {
        var catalog = try PlaceCatalog()
        try catalog.add(place("a", 1, 1))
        #expect(throws: PlacesError.duplicateID("a", at: nil, firstAt: nil)) {
            try catalog.add(place("a", 2, 2))
        }
    }

    @Test func unknownKindIsEmptyButArgumentsAreStillChecked() throws {
        var catalog = try PlaceCatalog()
        try catalog.add(place("a", 1, 1))
        let center = try Coordinate(latitude: 1, longitude: 1)
        #expect(try catalog.nearby(center, radiusMeters: 500, kind: "pharmacies").isEmpty)
        #expect(try catalog.nearest(3, to: center, kind: "pharmacies").isEmpty)
        #expect(throws: PlacesError.geo(.invalidRadius(-1))) {
            try catalog.nearby(center, radiusMeters: -1, kind: "pharmacies")
        }
        #expect(throws: PlacesError.geo(.invalidCount(0))) {
            try catalog.nearest(0, to: center, kind: "pharmacy")
        }
        #expect(throws: PlacesError.geo(.invalidLatitude(91))) {
            try catalog.nearby(latitude: 91, longitude: 0, radiusMeters: 1, kind: "pharmacy")
        }
    }

    @Test func cellSizeIsConfigurable() throws {
        #expect(try PlaceCatalog(cellSizeMeters: 1_000).cellSizeMeters == 1_000)
        #expect(try PlaceCatalog().cellSizeMeters == GridIndex().cellSizeMeters)
        #expect(throws: PlacesError.geo(.invalidCellSize(1))) { try PlaceCatalog(cellSizeMeters: 1) }
    }
}
