import Geo
import PlaceQueries
import Places

extension ResultListing {
    /// The results as an RFC 7946 FeatureCollection, as `export --format geojson` writes places:
    /// one Point feature a line, nearest first, `coordinates` `[longitude, latitude]` in degrees,
    /// the place's id as the feature's `id`; `properties` hold `name`, `kind`, `distance_m` (meters
    /// under the query's model) and `bearing_deg` (degrees clockwise from north, [0, 360)), served
    /// as `ServedPrecision` says.
    func geoJSON() -> String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (offset, row) in rows.enumerated() {
            let hit = row.served
            if offset > 0 { text += "," }
            text += "\n{\"type\":\"Feature\",\"id\":\(PlaceWriter.jsonString(hit.id)),"
            let longitude = served(hit.coordinate.longitude, ServedPrecision.coordinateDecimals)
            let latitude = served(hit.coordinate.latitude, ServedPrecision.coordinateDecimals)
            text += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(longitude),\(latitude)]},\"properties\":{"
            text += "\"name\":\(PlaceWriter.jsonString(hit.name)),\"kind\":\(PlaceWriter.jsonString(hit.kind)),"
            text += "\"distance_m\":\(served(hit.distanceMeters, ServedPrecision.distanceDecimals)),"
            text += "\"bearing_deg\":\(served(hit.bearingDegrees, ServedPrecision.bearingDecimals))}}"
        }
        return text + "\n]}"
    }

    /// A number already rounded to `decimals` (`QueryHit.served`) as `JSONEncoder` writes it in
    /// `--json`: trailing zeros trimmed, a magnitude below 1e-4 in exponent form.
    private func served(_ value: Double, _ decimals: Int) -> String {
        guard let rounded = RoundedDecimal(value, decimals: decimals), rounded.isShortestText else {
            return NumberText.plain(value)
        }
        return rounded.text()
    }
}
