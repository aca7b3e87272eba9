import Testing

@testable import Geo

@Suite struct CoordinateTests {
    /// The corners and edges of the valid ranges are accepted and stored exactly as given.
    @Test(arguments: [
        (90.0, 180.0), (-90.0, -180.0), (90.0, -180.0), (-90.0, 180.0), (0.0, 0.0), (-0.0, -0.0),
        (89.999_999_999_999_99, 179.999_999_999_999_97), (41.088154, 29.015615),
    ])
    func acceptsValidEdges(latitude: Double, longitude: Double) throws {
        let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(coordinate.latitude.bitPattern == latitude.bitPattern)
        #expect(coordinate.longitude.bitPattern == longitude.bitPattern)
    }

    /// Out-of-range and non-finite values are rejected with a message that names the value and the
    /// valid range; the latitude is checked first.
    @Test(arguments: [
        (Double.nan, 0.0, "invalid latitude nan: expected a number of degrees from -90 to 90"),
        (Double.infinity, 0.0, "invalid latitude inf: expected a number of degrees from -90 to 90"),
        (-Double.infinity, 0.0, "invalid latitude -inf: expected a number of degrees from -90 to 90"),
        (90.000_000_1, 0.0, "invalid latitude 90.0000001: expected a number of degrees from -90 to 90"),
        (-90.000_000_1, 0.0, "invalid latitude -90.0000001: expected a number of degrees from -90 to 90"),
        (91.0, 0.0, "invalid latitude 91: expected a number of degrees from -90 to 90"),
        (Double.nan, Double.nan, "invalid latitude nan: expected a number of degrees from -90 to 90"),
        (0.0, Double.nan, "invalid longitude nan: expected a number of degrees from -180 to 180"),
        (0.0, Double.infinity, "invalid longitude inf: expected a number of degrees from -180 to 180"),
        (0.0, -Double.infinity, "invalid longitude -inf: expected a number of degrees from -180 to 180"),
        (0.0, -180.000_000_1, "invalid longitude -180.0000001: expected a number of degrees from -180 to 180"),
        (0.0, 180.000_000_1, "invalid longitude 180.0000001: expected a number of degrees from -180 to 180"),
        (0.0, 360.0, "invalid longitude 360: expected a number of degrees from -180 to 180"),
    ])
    func rejectsInvalidValues(latitude: Double, longitude: Double, message: String) {
        do {
            let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
            Issue.record("accepted \(coordinate)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func descriptionListsLatitudeThenLongitude() throws {
        #expect(try Coordinate(latitude: 41.088154, longitude: 29.015615).description == "41.088154, 29.015615")
    }
}
