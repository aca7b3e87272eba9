import Foundation
import Geo
import Testing

@testable import Places

/// The published location (issue 18): the centre of a fixed grid cell about `cellMeters` wide,
/// the same to the bit for every point of the cell, at every latitude, the poles and ±180°
/// included.
@Suite struct LocationPrecisionTests {
    static let coarse: [LocationPrecision] = [.street, .district, .city]

    /// The bounds of the cell holding `point`, in degrees, as the grid is documented
    /// (`LocationPrecision`): street bands of equal height from −90°, 10 to a district band and
    /// 100 to a city band, each band cut into equal cells from −180° (180° is −180°), a coarser
    /// cell being a whole group of finer ones.
    static func cell(of point: Coordinate, _ precision: LocationPrecision) -> (
        south: Double, north: Double, west: Double, east: Double
    ) {
        let streetHeight = LocationPrecision.bandHeight(.street)
        let streetBand = min(
            LocationPrecision.streetBands - 1, Int(((point.latitude + 90) / streetHeight).rounded(.down)))
        let streetCells = LocationPrecision.cells(inStreetBand: streetBand, .street)
        let longitude = point.longitude == 180 ? -180 : point.longitude
        let streetCell = min(streetCells - 1, Int(((longitude + 180) / (360 / Double(streetCells))).rounded(.down)))
        let group = [LocationPrecision.street: 1, .district: 10, .city: 100][precision] ?? 1
        let band = streetBand / group
        let cells = LocationPrecision.cells(inStreetBand: streetBand, precision)
        let cell = streetCell / (streetCells / cells)
        let height = LocationPrecision.bandHeight(precision)
        let width = 360 / Double(cells)
        return (
            -90 + Double(band) * height, -90 + Double(band + 1) * height, -180 + Double(cell) * width,
            -180 + Double(cell + 1) * width
        )
    }

    static func same(_ a: Coordinate, _ b: Coordinate) -> Bool {
        a.latitude.bitPattern == b.latitude.bitPattern && a.longitude.bitPattern == b.longitude.bitPattern
    }

    static func distance(_ a: Coordinate, _ b: Coordinate) throws -> Double {
        try DistanceModel.geodesic.distance(a, b)
    }

    @Test(arguments: coarse)
    func everyPointOfACellPublishesTheSameBytes(precision: LocationPrecision) throws {
        var random = SplitMix64(seed: 18)
        for _ in 0..<300 {
            let point = try Coordinate(
                latitude: Double.random(in: -89...89, using: &random),
                longitude: Double.random(in: -180...180, using: &random))
            let centre = precision.published(point)
            let bounds = Self.cell(of: point, precision)
            for _ in 0..<10 {
                let inside = try Coordinate(
                    latitude: bounds.south + (bounds.north - bounds.south)
                        * Double.random(in: 0.01...0.99, using: &random),
                    longitude: bounds.west + (bounds.east - bounds.west)
                        * Double.random(in: 0.01...0.99, using: &random))
                #expect(Self.same(precision.published(inside), centre), "\(inside) and \(point) at \(precision)")
            }
            #expect(Self.same(precision.published(centre), centre), "a centre is in its own cell")
        }
    }

    @Test(arguments: coarse)
    func theCentreIsInsideTheCellAndCellsAreAboutTheirSize(precision: LocationPrecision) throws {
        var random = SplitMix64(seed: 45)
        for latitude in [0.0, 45, -45, 70, -70] {
            for _ in 0..<20 {
                let point = try Coordinate(
                    latitude: latitude + Double.random(in: -0.3...0.3, using: &random),
                    longitude: Double.random(in: -180...180, using: &random))
                let centre = precision.published(point)
                let bounds = Self.cell(of: point, precision)
                #expect((bounds.south - 1e-7...bounds.north + 1e-7).contains(centre.latitude))
                #expect((bounds.west - 1e-7...bounds.east + 1e-7).contains(centre.longitude))
                let southWest = try Coordinate(latitude: bounds.south, longitude: bounds.west)
                let northEast = try Coordinate(latitude: bounds.north, longitude: bounds.east)
                let diagonal = try Self.distance(southWest, northEast)
                let corners = [
                    southWest, northEast, try Coordinate(latitude: bounds.south, longitude: bounds.east),
                    try Coordinate(latitude: bounds.north, longitude: bounds.west),
                ]
                let farthest = try corners.map { try Self.distance(centre, $0) }.max() ?? .infinity
                #expect(farthest <= 0.75 * diagonal, "\(point) at \(precision)")
                #expect(try Self.distance(centre, point) <= 0.75 * diagonal)
                // About `cellMeters` on each side (WGS84 against the grid's sphere: within 2 %).
                let height = try Self.distance(
                    Coordinate(latitude: bounds.south, longitude: centre.longitude),
                    Coordinate(latitude: bounds.north, longitude: centre.longitude))
                let width = try Self.distance(
                    Coordinate(latitude: centre.latitude, longitude: bounds.west),
                    Coordinate(latitude: centre.latitude, longitude: bounds.east))
                #expect(abs(height / precision.cellMeters - 1) < 0.02, "height \(height) m at \(point)")
                #expect(abs(width / precision.cellMeters - 1) < 0.02, "width \(width) m at \(point)")
            }
        }
    }

    /// Regression: 180° and −180° name one meridian, but in about one band in thirty the cell
    /// index of 180° came out as the last cell (360° / (360° / n) rounds below n), so one point
    /// published two centres a cell apart, on either side of the antimeridian.
    @Test(arguments: coarse)
    func longitudes180AndMinus180AreOneCell(precision: LocationPrecision) throws {
        var random = SplitMix64(seed: 180)
        var latitudes = (0..<2_000).map { _ in Double.random(in: -90...90, using: &random) }
        latitudes += [-90, -89.95, 0, 89.95, 90]
        for latitude in latitudes {
            let east = precision.published(try Coordinate(latitude: latitude, longitude: 180))
            let west = precision.published(try Coordinate(latitude: latitude, longitude: -180))
            #expect(Self.same(east, west), "latitude \(latitude) at \(precision)")
            // Either side of the meridian, a hair away, is a neighbouring cell or the same one.
            let nearEast = precision.published(try Coordinate(latitude: latitude, longitude: 180 - 1e-9))
            #expect(try Self.distance(nearEast, east) <= 2 * precision.cellMeters + 1)
        }
    }

    @Test(arguments: coarse)
    func thePolesPublishAPointNearThem(precision: LocationPrecision) throws {
        for latitude in [90.0, -90] {
            for longitude in [-180.0, -90, 0, 45, 179.999, 180] {
                let pole = try Coordinate(latitude: latitude, longitude: longitude)
                let centre = precision.published(pole)
                #expect(abs(centre.latitude) < 90 && abs(centre.longitude) <= 180)
                #expect(try Self.distance(pole, centre) <= precision.cellMeters, "\(pole) at \(precision)")
                #expect(Self.same(precision.published(centre), centre))
            }
        }
    }

    @Test func exactPublishesTheLocationItself() throws {
        let point = try Coordinate(latitude: 41.012_345_678_9, longitude: 29.987_654_321)
        #expect(Self.same(LocationPrecision.exact.published(point), point))
        #expect(LocationPrecision.exact.cellMeters == 0)
    }

    @Test func distancesAreRoundedToTheCellSide() {
        #expect(LocationPrecision.street.rounded(distanceMeters: 0) == 0)
        #expect(LocationPrecision.street.rounded(distanceMeters: 49.9) == 0)
        #expect(LocationPrecision.street.rounded(distanceMeters: 50) == 100)
        #expect(LocationPrecision.street.rounded(distanceMeters: 149.99) == 100)
        #expect(LocationPrecision.street.rounded(distanceMeters: 1_234.5) == 1_200)
        #expect(LocationPrecision.district.rounded(distanceMeters: 1_499) == 1_000)
        #expect(LocationPrecision.city.rounded(distanceMeters: 15_000) == 20_000)
        #expect(LocationPrecision.city.rounded(distanceMeters: 4_999) == 0)
        #expect(LocationPrecision.exact.rounded(distanceMeters: 1_234.567) == 1_234.567)
        #expect(LocationPrecision.street.rounded(distanceMeters: .infinity) == .infinity)
        #expect(LocationPrecision.street.rounded(distanceMeters: .nan).isNaN)
    }
}

/// The three grids nest: a user seen at `street` and later at `district` or `city` (or the other
/// way round) is known to be in the street cell, never in a strip where unrelated cells overlap.
@Suite struct NestedGridTests {
    @Test func everyCellLiesInOneCellOfEachCoarserGrid() throws {
        var random = SplitMix64(seed: 1818)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var points = [
            // Two points of one street cell whose district centres differed before the grids nested.
            try Coordinate(latitude: 41.0856856, longitude: 29.0158),
            try Coordinate(latitude: 41.0856858, longitude: 29.0158),
            try Coordinate(latitude: 90, longitude: 0), try Coordinate(latitude: -90, longitude: 180),
            try Coordinate(latitude: 0, longitude: 180), try Coordinate(latitude: 89.99, longitude: -179.99),
        ]
        for _ in 0..<20_000 {
            points.append(try Coordinate(latitude: uniform(-90...90), longitude: uniform(-180...180)))
        }
        for point in points {
            // The street centre is inside the point's street cell, so every coarser cell holding the
            // point must hold it too.
            let street = LocationPrecision.street.published(point)
            let district = LocationPrecision.district.published(point)
            #expect(LocationPrecision.district.published(street) == district, "\(point)")
            #expect(LocationPrecision.city.published(street) == LocationPrecision.city.published(point), "\(point)")
            #expect(LocationPrecision.city.published(district) == LocationPrecision.city.published(point), "\(point)")
        }
        #expect(
            LocationPrecision.district.published(points[0]) == LocationPrecision.district.published(points[1]))
    }
}
