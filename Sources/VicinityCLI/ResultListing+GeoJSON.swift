import Geo
import Places

extension ResultListing {
    /// The results as an RFC 7946 FeatureCollection, as `export --format geojson` writes places:
    /// one Point feature a line, nearest first, `coordinates` `[longitude, latitude]` in degrees,
    /// the place's id as the feature's `id`; `properties` hold `name`, `kind`, `distance_m` (meters
    /// under the query's model) and `bearing_deg` (degrees clockwise from north, [0, 360)).
    func geoJSON() -> String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (offset, hit) in rows.enumerated() {
            if offset > 0 { text += "," }
            text += "\n{\"type\":\"Feature\",\"id\":\(PlaceWriter.jsonString(hit.id)),"
            text += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(NumberText.plain(hit.coordinate.longitude)),"
            text += "\(NumberText.plain(hit.coordinate.latitude))]},\"properties\":{"
            text += "\"name\":\(PlaceWriter.jsonString(hit.name)),\"kind\":\(PlaceWriter.jsonString(hit.kind)),"
            text += "\"distance_m\":\(NumberText.plain(hit.distanceMeters)),"
            text += "\"bearing_deg\":\(NumberText.plain(hit.bearingDegrees))}}"
        }
        return text + "\n]}"
    }
}
