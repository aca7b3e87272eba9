import Geo
import Testing

@testable import Places

/// The catalog's compact columns against plain Swift collections: the id table after random
/// inserts, removals and renumberings, the text chunks across chunk boundaries and compactions,
/// and the loader against `add(contentsOf:)`.
@Suite struct PlaceColumnsTests {
    @Test func idMapAgreesWithADictionaryUnderRandomEdits() {
        var random = SplitMix64(seed: 11)
        var texts = PlaceTexts()
        var map = PlaceIDMap()
        var expected: [String: UInt32] = [:]
        // Handles stay dense as in a catalog: a removal moves the last handle into the hole. Renames
        // rewrite the texts' blocks and compactions move every entry, without changing handles.
        for step in 0..<20_000 {
            let id = "id\(random.next() % 3_000)"
            if let handle = expected[id], random.next() % 3 == 0 {
                texts.replace(Int(handle), id: id, name: "renamed \(step)")
            } else if let handle = expected[id], random.next() % 2 == 0 {
                let last = UInt32(texts.count - 1)
                map.remove(handle, in: texts)
                if handle != last {
                    let moved = texts.id(Int(last))
                    map.renumber(last, to: handle, in: texts)
                    expected[moved] = handle
                }
                texts.moveLast(to: Int(handle))
                expected[id] = nil
            } else if expected[id] == nil {
                let handle = UInt32(texts.count)
                texts.append(id: id, name: "name \(step)")
                map.insert(handle, in: texts)
                expected[id] = handle
            }
            if step % 997 == 0 {
                if step % 2 == 0 { texts = texts.compacted() }
                for probe in 0..<3_000 {
                    #expect(map.handle(of: "id\(probe)", in: texts) == expected["id\(probe)"])
                }
            }
        }
        #expect(map.count == expected.count)
        for (id, handle) in expected {
            #expect(texts.id(Int(handle)) == id)
            #expect(map.handle(of: id, in: texts) == handle)
        }
    }

    @Test func textsKeepEveryEntryAcrossChunksAndCompaction() {
        var texts = PlaceTexts()
        let long = String(repeating: "é", count: 200)
        var names: [String] = []
        for number in 0..<12_000 {
            let name = number % 7 == 0 ? long + "\(number)" : "Eczane \(number)"
            names.append(name)
            texts.append(id: "p\(number)", name: name)
        }
        for number in stride(from: 0, to: 12_000, by: 3) {
            names[number] = "renamed \(number) " + long
            texts.replace(number, id: "p\(number)", name: names[number])
        }
        for number in 0..<12_000 {
            #expect(texts.id(number) == "p\(number)")
            #expect(texts.name(number) == names[number])
        }
        let compacted = texts.compacted()
        #expect(compacted.garbageBytes == 0)
        for number in 0..<12_000 { #expect(compacted.name(number) == names[number]) }
        #expect(texts.idPrecedes(0, 1) == ("p0" < "p1"))
    }

    @Test func loaderGivesTheSameCatalogAsAdding() throws {
        var random = SplitMix64(seed: 5)
        var places: [Place] = []
        for number in 0..<5_000 {
            let coordinate = try Coordinate(
                latitude: 41 + Double(random.next() % 100_000) / 1e6,
                longitude: 29 + Double(random.next() % 100_000) / 1e6)
            let attributes = number % 5 == 0 ? ["opening_hours": "24/7", "tz": "Europe/Istanbul"] : [:]
            places.append(
                Place(
                    id: "p\(number)", kind: "pharmacy", name: "Eczane \(number)", coordinate: coordinate,
                    attributes: attributes))
        }
        var added = try PlaceCatalog()
        try added.add(contentsOf: places)
        var loaded = try PlaceCatalog()
        var loader = loaded.loader(kind: "pharmacy", reservingCapacity: places.count)
        for place in places { try loader.append(place) }
        #expect(throws: PlacesError.self) { try loader.append(places[17]) }
        loaded.finish(&loader)
        #expect(loaded.count == places.count)
        for place in places.prefix(500) {
            #expect(loaded.place(kind: "pharmacy", id: place.id) == place)
            #expect(loaded.place(kind: "pharmacy", id: place.id)?.hours != nil || place.hours == nil)
        }
        let center = try Coordinate(latitude: 41.05, longitude: 29.05)
        let fromAdded = try added.nearby(center, radiusMeters: 2_000, kind: "pharmacy")
        let fromLoaded = try loaded.nearby(center, radiusMeters: 2_000, kind: "pharmacy")
        #expect(fromAdded.map(\.place) == fromLoaded.map(\.place))
        #expect(fromAdded.map(\.distanceMeters) == fromLoaded.map(\.distanceMeters))
        #expect(!fromAdded.isEmpty)
    }

    /// Rows in key order skip the id comparison; a repeat out of order, or an id that equals an
    /// ASCII one only after normalization (KELVIN SIGN is K in NFC), must still be found.
    @Test(arguments: [["a", "b", "c", "b"], ["A", "K", "\u{212A}"], ["K", "\u{212A}"], ["b", "a", "b"]])
    func loaderFromBytesFindsEveryRepeatedID(ids: [String]) throws {
        var catalog = try PlaceCatalog()
        var loader = catalog.loader(kind: "pharmacy", reservingCapacity: ids.count)
        let here = try Coordinate(latitude: 41, longitude: 29)
        func append(_ id: String) throws {
            var id = id
            var name = "Eczane " + id
            try id.withUTF8 { id in try name.withUTF8 { name in try loader.append(id: id, name: name, at: here) } }
        }
        for id in ids.dropLast() { try append(id) }
        #expect(throws: PlacesError.self) { try append(ids[ids.count - 1]) }
        catalog.finish(&loader)
        #expect(catalog.count == ids.count - 1)
        for id in ids.dropLast() { #expect(catalog.place(kind: "pharmacy", id: id)?.name == "Eczane " + id) }
    }
}
