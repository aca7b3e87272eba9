import Foundation
import Geo

/// Reads places from a GeoJSON FeatureCollection (RFC 7946) of Point features.
///
/// For each feature, 0-based index `N` in `features`:
/// - `geometry` must be a Point; `coordinates` is `[longitude, latitude]` in WGS84 degrees
///   (longitude first, as RFC 7946 says); a third element (altitude) and any beyond are ignored.
/// - The id is the feature's `id`, else `properties.id`; a string, or a number written as text
///   (`42`, `4.5`).
/// - `properties.name` is the name (missing or null → empty); `properties.kind` the kind (missing,
///   null or empty → `defaultKind`).
/// - Every other property becomes an attribute, in the order the feature writes them: strings as
///   they are, numbers as written (`3.0` → `3`), booleans `true`/`false`, null → empty, arrays and
///   objects as compact JSON with sorted keys. A `properties.id` is never an attribute, even when the feature's `id` is used.
///
/// Ids must be non-empty and unique per kind. The first problem stops the read with a
/// `PlacesError` naming the feature (`FILE: feature 3: …`).
///
/// ```swift
/// let file = try GeoJSONReader(defaultKind: "pharmacy").read(path: "pharmacies.geojson")
/// ```
public struct GeoJSONReader: Sendable {
    /// The kind of features without a `kind` property.
    public var defaultKind: String
    /// Whether a bad feature is left out and listed in `PlaceFile.skipped` instead of stopping the
    /// read. Errors of the file as a whole (invalid JSON, not a FeatureCollection) still stop it.
    public var skipInvalid: Bool

    public init(defaultKind: String, skipInvalid: Bool = false) {
        self.defaultKind = defaultKind
        self.skipInvalid = skipInvalid
    }

    /// Reads and parses the file at `path`; messages name `path` as given.
    public func read(path: String) throws(PlacesError) -> PlaceFile {
        try parse(SourceFile.bytes(atPath: path), file: path)
    }

    /// Parses GeoJSON bytes (UTF-8, an optional byte order mark is skipped); `file` names the
    /// source in errors and origins.
    public func parse(_ bytes: [UInt8], file: String) throws(PlacesError) -> PlaceFile {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let json = Data(text)
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw .invalidJSON(file: file, reason: reason ?? error.localizedDescription)
        }
        guard let collection = root as? [String: Any], collection["type"] as? String == "FeatureCollection",
            let features = collection["features"] as? [Any]
        else { throw .notFeatureCollection(file: file) }
        let propertyOrder = JSONKeyOrder.featureProperties(in: text)

        var places: [Place] = []
        var origins: [SourceLocation] = []
        var firstFeature: [PlaceKey: Int] = [:]
        places.reserveCapacity(features.count)
        origins.reserveCapacity(features.count)
        var skipped: [PlacesError] = []
        for (index, element) in features.enumerated() {
            let location = SourceLocation(file: file, position: .feature(index))
            do throws(PlacesError) {
                let order = propertyOrder.flatMap { index < $0.count ? $0[index] : nil }
                let place = try self.place(element, at: location, propertyOrder: order)
                let key = PlaceKey(kind: place.kind, id: place.id)
                if let first = firstFeature[key] {
                    throw .duplicateID(
                        place.id, at: location, firstAt: SourceLocation(file: file, position: .feature(first)))
                }
                firstFeature[key] = index
                places.append(place)
                origins.append(location)
            } catch {
                guard skipInvalid else { throw error }
                skipped.append(error)
            }
        }
        return PlaceFile(path: file, places: places, origins: origins, skipped: skipped)
    }

    /// - Parameter propertyOrder: the feature's property names in document order (`JSONKeyOrder`).
    func place(_ element: Any, at location: SourceLocation, propertyOrder: [String]?) throws(PlacesError)
        -> Place
    {
        guard let feature = element as? [String: Any], feature["type"] as? String == "Feature" else {
            throw .notFeature(location)
        }
        let properties: [String: Any]
        switch feature["properties"] {
        case nil, is NSNull: properties = [:]
        case let object as [String: Any]: properties = object
        default: throw .notFeature(location)
        }
        let coordinate = try pointCoordinate(feature["geometry"], at: location)
        let id = try identifier(feature: feature, properties: properties, at: location)
        let name = properties["name"].map(JSONText.attribute) ?? ""
        var kind = properties["kind"].map(JSONText.attribute) ?? ""
        if kind.isEmpty { kind = defaultKind }
        let names = Self.attributeNames(properties, order: propertyOrder ?? [])
        return Place(
            id: id, kind: kind, name: name, coordinate: coordinate,
            values: names.map { JSONText.attribute(properties[$0] as Any) }, checkedNames: names)
    }

    /// The properties that are attributes, in `order` (first appearance of a repeated name), then
    /// any `order` missed, sorted.
    private static func attributeNames(_ properties: [String: Any], order: [String]) -> [String] {
        var names: [String] = []
        var seen: Set<String> = ["id", "name", "kind"]
        for name in order where properties[name] != nil && seen.insert(name).inserted { names.append(name) }
        return names + properties.keys.filter { !seen.contains($0) }.sorted()
    }

    private func pointCoordinate(_ geometry: Any?, at location: SourceLocation) throws(PlacesError) -> Coordinate {
        guard let geometry, !(geometry is NSNull) else { throw .missingGeometry(location) }
        guard let object = geometry as? [String: Any] else {
            throw .unexpectedGeometry(location, type: JSONText.literal(geometry))
        }
        guard let type = object["type"] as? String else {
            throw .unexpectedGeometry(location, type: object["type"].map(JSONText.literal) ?? "without a type")
        }
        guard type == "Point" else { throw .unexpectedGeometry(location, type: type) }
        guard let position = object["coordinates"] as? [Any], position.count >= 2 else {
            throw .invalidCoordinates(location, value: object["coordinates"].map(JSONText.literal) ?? "(missing)")
        }
        guard let longitude = JSONText.number(position[0]) else {
            throw .invalidLongitude(location, value: JSONText.literal(position[0]))
        }
        guard let latitude = JSONText.number(position[1]) else {
            throw .invalidLatitude(location, value: JSONText.literal(position[1]))
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch .invalidLongitude {
            throw .invalidLongitude(location, value: JSONText.literal(position[0]))
        } catch {
            throw .invalidLatitude(location, value: JSONText.literal(position[1]))
        }
    }

    private func identifier(feature: [String: Any], properties: [String: Any], at location: SourceLocation)
        throws(PlacesError) -> String
    {
        var value = feature["id"]
        if value == nil || value is NSNull { value = properties["id"] }
        guard let value, !(value is NSNull) else { throw .missingID(location) }
        let id: String
        if let text = value as? String {
            id = text
        } else if let double = JSONText.number(value), let number = value as? NSNumber {
            // A number JSONSerialization could only read as a Double has lost digits beyond 2^53:
            // two long ids could collapse into one (regression: 123456789012345678901234567890).
            let type = String(cString: number.objCType)
            if (type == "d" || type == "f") && abs(double) >= 9_007_199_254_740_992 {
                throw .numericIDTooLong(location, value: JSONText.literal(value))
            }
            id = JSONText.format(number)
        } else {
            throw .invalidID(location, value: JSONText.literal(value))
        }
        guard !id.isEmpty else { throw .emptyID(location) }
        return id
    }
}
