import Geo
import Testing

@testable import Places

@Suite struct PlaceTests {
    private let origin: Coordinate

    init() throws {
        origin = try Coordinate(latitude: 0.5, longitude: 0.5)
    }

    @Test func attributesWithoutOrderAreSortedByName() {
        let place = Place(id: "a", kind: "k", name: "A", coordinate: origin, attributes: ["b": "2", "a": "1"])
        #expect(place.attributeNames == ["a", "b"])
        #expect(place.orderedAttributes.map(\.name) == ["a", "b"])
    }

    @Test func attributeNamesAreNormalized() {
        let place = Place(
            id: "a", kind: "k", name: "A", coordinate: origin, attributes: ["b": "2", "a": "1", "c": "3"],
            attributeNames: ["c", "x", "c", "b"])
        #expect(place.attributeNames == ["c", "b", "a"])
        let duplicated = Place(
            id: "a", kind: "k", name: "A", coordinate: origin, attributes: ["b": "2", "a": "1"],
            attributeNames: ["b", "b"])
        #expect(duplicated.attributeNames == ["b", "a"])
    }

    @Test func settingAttributesKeepsTheOrder() {
        var place = Place(
            id: "a", kind: "k", name: "A", coordinate: origin, attributes: ["z": "1"], attributeNames: ["z"])
        place.setAttribute("a", to: "2")
        place.setAttribute("z", to: "3")
        #expect(place.orderedAttributes.map(\.name) == ["z", "a"])
        #expect(place.orderedAttributes.map(\.value) == ["3", "2"])
        place.setAttribute("z", to: nil)
        #expect(place.attributeNames == ["a"])
        #expect(place.attributes == ["a": "2"])
    }
}
