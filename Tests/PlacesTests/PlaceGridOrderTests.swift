import Testing

@testable import Geo
@testable import Places

/// A loaded kind numbers its places in grid order (each cell's places have consecutive handles,
/// so their texts lie side by side), and stays the same catalog as one built by `add`: the same
/// places by id, the same answers, before and after edits.
@Suite struct PlaceGridOrderTests {
    /// Places spread over a few kilometres of Istanbul, a fifth with attributes, ids in no
    /// spatial order.
    private func places(_ count: Int, seed: UInt64) throws -> [Place] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { number in
            let coordinate = try Coordinate(
                latitude: 41 + Double(random.next() % 50_000) / 1e6,
                longitude: 29 + Double(random.next() % 50_000) / 1e6)
            let attributes = number % 5 == 0 ? ["opening_hours": "24/7", "tz": "Europe/Istanbul"] : [:]
            return Place(
                id: "p\(random.next() % 1_000_000)-\(number)", kind: "pharmacy", name: "Eczane \(number)",
                coordinate: coordinate, attributes: attributes)
        }
    }

    private func loaded(_ places: [Place]) throws -> PlaceCatalog {
        var catalog = try PlaceCatalog()
        var loader = catalog.loader(kind: "pharmacy", reservingCapacity: places.count)
        for place in places.sorted(by: { $0.id < $1.id }) { try loader.append(place) }
        catalog.finish(&loader)
        return catalog
    }

    @Test func loadedHandlesAscendInGridOrder() throws {
        let catalog = try loaded(places(6_000, seed: 3))
        let index = try #require(catalog.collections["pharmacy"]?.index)
        #expect(index.count == 6_000)
        #expect(index.handles == (0..<UInt32(6_000)).map { $0 })
        // Cells by row, then column: each cell's handles are one run, the runs in grid order.
        var previous: (row: Int, column: Int)?
        for handle in 0..<UInt32(6_000) {
            let coordinate = try #require(index.coordinate(of: handle))
            let row = index.layout.row(latitude: coordinate.latitude)
            let cell = (row: row, column: index.layout.column(row: row, longitude: coordinate.longitude))
            if let previous { #expect(previous <= cell) }
            previous = cell
        }
    }

    /// Origins, when a loaded kind has any, follow their places to their new handles (the
    /// loader of a database sets none; a kind given them before it is finished keeps them).
    @Test func originsFollowTheirPlacesToTheirNewHandles() throws {
        let all = try places(3_000, seed: 5).sorted(by: { $0.id < $1.id })
        var catalog = try PlaceCatalog()
        var loader = catalog.loader(kind: "pharmacy", reservingCapacity: all.count)
        for (line, place) in all.enumerated() {
            try loader.append(place)
            // Every other place has an origin: its line in an imagined file.
            if line % 2 == 0 {
                loader.collection.origins[UInt32(line)] = SourceLocation(file: "f.csv", position: .line(line + 2))
            }
        }
        catalog.finish(&loader)
        let index = try #require(catalog.collections["pharmacy"]?.index)
        #expect(index.handles == (0..<UInt32(all.count)).map { $0 }, "the handles were renumbered")
        #expect(catalog.collections["pharmacy"]?.handle(of: all[0].id) != 0, "the first place moved")
        for (line, place) in all.enumerated() {
            let expected = line % 2 == 0 ? SourceLocation(file: "f.csv", position: .line(line + 2)) : nil
            #expect(catalog.origin(kind: "pharmacy", id: place.id) == expected, "\(place.id)")
        }
    }

    @Test func loadedCatalogAnswersAsAnAddedOneThroughEdits() throws {
        var random = SplitMix64(seed: 9)
        let all = try places(5_000, seed: 4)
        var added = try PlaceCatalog()
        try added.add(contentsOf: all)
        var catalog = try loaded(all)
        var expected = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
        let snapshot = catalog
        let snapshotPlaces = expected
        let centers = try (0..<8).map { _ in
            try Coordinate(
                latitude: 41 + Double(random.next() % 50_000) / 1e6,
                longitude: 29 + Double(random.next() % 50_000) / 1e6)
        }
        func expectSameAnswers() throws {
            #expect(catalog.count(kind: "pharmacy") == expected.count)
            for (id, place) in expected { #expect(catalog.place(kind: "pharmacy", id: id) == place) }
            for center in centers {
                let hits = try catalog.nearby(center, radiusMeters: 700, kind: "pharmacy")
                let reference = try added.nearby(center, radiusMeters: 700, kind: "pharmacy")
                #expect(hits == reference)
                // Against every place measured: the same ids, away from the boundary's last micrometre.
                let inside = try Set(
                    expected.values.filter { try DistanceModel.geodesic.distance(center, $0.coordinate) <= 700 - 1e-6 }
                        .map(\.id))
                #expect(inside.isSubset(of: Set(hits.map(\.place.id))))
                #expect(hits.allSatisfy { $0.distanceMeters <= 700 })
                let nearest = try catalog.nearest(10, to: center, kind: "pharmacy")
                let nearestAdded = try added.nearest(10, to: center, kind: "pharmacy")
                #expect(nearest == nearestAdded)
            }
        }
        try expectSameAnswers()
        for step in 0..<600 {
            let roll = random.next() % 3
            if roll == 0 {
                let place = Place(
                    id: "new\(step)", kind: "pharmacy", name: "New \(step)",
                    coordinate: try Coordinate(
                        latitude: 41 + Double(random.next() % 50_000) / 1e6,
                        longitude: 29 + Double(random.next() % 50_000) / 1e6))
                try catalog.upsert(place)
                try added.upsert(place)
                expected[place.id] = place
            } else if roll == 1, let id = expected.keys.sorted().randomElement(using: &random) {
                var place = try #require(expected[id])
                place = Place(
                    id: id, kind: "pharmacy", name: place.name + " moved",
                    coordinate: try Coordinate(
                        latitude: 41 + Double(random.next() % 50_000) / 1e6,
                        longitude: 29 + Double(random.next() % 50_000) / 1e6))
                try catalog.upsert(place)
                try added.upsert(place)
                expected[id] = place
            } else if let id = expected.keys.sorted().randomElement(using: &random) {
                #expect(catalog.remove(kind: "pharmacy", id: id) == expected[id])
                added.remove(kind: "pharmacy", id: id)
                expected[id] = nil
            }
            if step % 150 == 0 { try expectSameAnswers() }
        }
        try expectSameAnswers()
        // The copy taken before the edits saw none of them.
        #expect(snapshot.count(kind: "pharmacy") == snapshotPlaces.count)
        for (id, place) in snapshotPlaces { #expect(snapshot.place(kind: "pharmacy", id: id) == place) }
    }
}
