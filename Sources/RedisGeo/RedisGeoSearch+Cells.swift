import Foundation

extension RedisGeoSearch {
    /// Redis `geohashBoundingBox`: the centre ± the half height along the meridian, and ± the half
    /// width along the parallel of the box's edge nearer the pole (the top edge in the northern
    /// hemisphere, the bottom one in the southern), where a degree of longitude is shortest.
    static func boundingBox(longitude: Double, latitude: Double, shape: RedisGeoShape) -> GeoHashCell.Bounds {
        let (height, width) = shape.halfExtentsMeters
        let radius = RedisGeo.earthRadiusMeters
        let degree = RedisGeo.radiansPerDegree
        let latitudeDelta = height / radius / degree
        let longitudeDeltaTop = width / radius / cos((latitude + latitudeDelta) * degree) / degree
        let longitudeDeltaBottom = width / radius / cos((latitude - latitudeDelta) * degree) / degree
        let longitudeDelta = latitude < 0 ? longitudeDeltaBottom : longitudeDeltaTop
        return GeoHashCell.Bounds(
            minimumLongitude: longitude - longitudeDelta, maximumLongitude: longitude + longitudeDelta,
            minimumLatitude: latitude - latitudeDelta, maximumLatitude: latitude + latitudeDelta)
    }

    /// Redis `geohashCalculateAreasByShapeWGS84`: the centre's cell and its eight neighbours in scan
    /// order (centre, N, S, E, W, NE, NW, SE, SW), nil for pruned neighbours.
    static func cells(
        longitude: Double, latitude: Double, shape: RedisGeoShape, box: GeoHashCell.Bounds
    ) -> [GeoHashCell?] {
        var step = RedisGeo.estimatedStep(radiusMeters: shape.coveringRadiusMeters, latitude: latitude)
        // The centre was validated, so encoding cannot fail.
        func centreCell(_ step: UInt8) -> GeoHashCell {
            GeoHashCell(longitude: longitude, latitude: latitude, step: step) ?? GeoHashCell(bits: 0, step: step)
        }
        var centre = centreCell(step)
        // The estimated step may leave the bounding box poking out of the 3 x 3 block when the centre
        // sits near the edge of its cell; one step coarser doubles the cells.
        let north = centre.movedNorthSouth(1).bounds
        let south = centre.movedNorthSouth(-1).bounds
        let east = centre.movedEastWest(1).bounds
        let west = centre.movedEastWest(-1).bounds
        let tooSmall =
            north.maximumLatitude < box.maximumLatitude || south.minimumLatitude > box.minimumLatitude
            || east.maximumLongitude < box.maximumLongitude || west.minimumLongitude > box.minimumLongitude
        if step > 1 && tooSmall {
            step -= 1
            centre = centreCell(step)
        }
        let area = centre.bounds
        var keepNorth = true
        var keepSouth = true
        var keepEast = true
        var keepWest = true
        // Neighbours wholly outside the bounding box are dropped; Redis does not prune at step 1.
        if step >= 2 {
            keepSouth = !(area.minimumLatitude < box.minimumLatitude)
            keepNorth = !(area.maximumLatitude > box.maximumLatitude)
            keepWest = !(area.minimumLongitude < box.minimumLongitude)
            keepEast = !(area.maximumLongitude > box.maximumLongitude)
        }
        func neighbour(_ eastWest: Int, _ northSouth: Int, _ keep: Bool) -> GeoHashCell? {
            keep ? centre.movedEastWest(eastWest).movedNorthSouth(northSouth) : nil
        }
        return [
            centre,
            neighbour(0, 1, keepNorth),
            neighbour(0, -1, keepSouth),
            neighbour(1, 0, keepEast),
            neighbour(-1, 0, keepWest),
            neighbour(1, 1, keepNorth && keepEast),
            neighbour(-1, 1, keepNorth && keepWest),
            neighbour(1, -1, keepSouth && keepEast),
            neighbour(-1, -1, keepSouth && keepWest),
        ]
    }
}
