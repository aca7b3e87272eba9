import Foundation
import Geo
import Places

/// `/v1/places/{kind}/{id}`: reading is public; writing needs the admin token.
extension VicinityAPI {
    /// The stored record: id, kind, name, coordinate and every attribute in stored order.
    func getPlace(_ input: Operations.GetPlace.Input) async throws -> Operations.GetPlace.Output {
        let (kind, id) = (input.path.kind, input.path.id)
        try PathValues.placeKey(kind: kind, id: id)
        let place = try read { directory throws(PlacesError) in try directory.place(kind: kind, id: id) }
        return .ok(.init(body: .json(VicinityAPI.record(place))))
    }

    /// Stores the place whole (attributes left out are removed): 201 when it is new, 200 when it
    /// replaced one. Acknowledged once committed.
    func putPlace(_ input: Operations.PutPlace.Input) async throws -> Operations.PutPlace.Output {
        let token = try writerToken()
        try PathValues.placeKey(kind: input.path.kind, id: input.path.id)
        // Stored in Unicode NFC, as the façade stores them: the answer and Location say so.
        let (kind, id) = (PlaceDirectory.composed(input.path.kind), PlaceDirectory.composed(input.path.id))
        guard case .json(let body) = input.body else { throw HTTPAPIError.malformedBody("expected JSON") }
        let coordinate = try BodyValues.coordinate(body.lat, body.lon)
        let name = try BodyValues.displayName(body.name ?? id, at: "/name")
        let attributes = try BodyValues.attributes(body.attributes)
        let place = Place(
            id: id, kind: kind, name: name, coordinate: coordinate, attributeNames: attributes.names,
            attributeValues: attributes.values)
        // Whether it replaced a place decides 200 or 201, as the writer planned it: of two
        // writers racing to create one place, exactly one hears 201.
        let receipt = try await writeWithReceipt(.setPlace(place), token: token)
        let record = VicinityAPI.record(place)
        let position = VicinityAPI.position(receipt)
        if receipt.replaced { return .ok(.init(headers: .init(vicinityPosition: position), body: .json(record))) }
        let location = "/v1/places/\(VicinityAPI.pathSegment(kind))/\(VicinityAPI.pathSegment(id))"
        return .created(.init(headers: .init(vicinityPosition: position, location: location), body: .json(record)))
    }

    /// Removes the place (admin); 404 when there is none.
    func deletePlace(_ input: Operations.DeletePlace.Input) async throws -> Operations.DeletePlace.Output {
        let token = try writerToken()
        let (kind, id) = (input.path.kind, input.path.id)
        try PathValues.placeKey(kind: kind, id: id)
        let receipt = try await writeWithReceipt(.removePlace(kind: kind, id: id), token: token)
        return .noContent(.init(headers: .init(vicinityPosition: VicinityAPI.position(receipt))))
    }

    static func record(_ place: Place) -> Components.Schemas.Place {
        Components.Schemas.Place(
            id: place.id, kind: place.kind, name: place.name, lat: place.coordinate.latitude,
            lon: place.coordinate.longitude,
            attributes: place.orderedAttributes.map { .init(name: $0.name, value: $0.value) })
    }

    /// A path segment percent-encoded for a `Location` header: everything but RFC 3986's
    /// unreserved characters (so `/` in an id is `%2F`).
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
