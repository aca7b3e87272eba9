import Testing

@testable import Geo

@Suite struct ProjectionTests {
    /// UTM zones with the Norway (32V) and Svalbard (31X, 33X, 35X, 37X) exceptions, and UPS
    /// beyond 84° N / 80° S (NGA.SIG.0012_2.0.0_UTMUPS).
    @Test(arguments: [
        (41.088154, 29.015615, "EPSG:32635"),  // Istanbul, 35T
        (60.0, 5.0, "EPSG:32632"),  // Bergen: 31V widened into 32V
        (55.99, 5.0, "EPSG:32631"),  // just south of the Norway exception
        (78.0, 15.0, "EPSG:32633"),  // Svalbard, 33X
        (78.0, 8.0, "EPSG:32631"),  // 31X reaches 9° E
        (78.0, 22.0, "EPSG:32635"),  // 35X
        (78.0, 40.0, "EPSG:32637"),  // 37X
        (-33.9249, 18.4241, "EPSG:32734"),  // Cape Town, 34H
        (-41.2865, 174.7762, "EPSG:32760"),  // Wellington, 60G
        (0.0, -180.0, "EPSG:32601"),
        (0.0, 180.0, "EPSG:32660"),
        (84.0, -60.0, "EPSG:32621"),  // 84° N is still UTM
        (85.0, 0.0, "EPSG:32661"),  // UPS North
        (90.0, 0.0, "EPSG:32661"),
        (-80.0, 0.0, "EPSG:32731"),  // 80° S is still UTM
        (-81.0, 0.0, "EPSG:32761"),  // UPS South
        (-90.0, 0.0, "EPSG:32761"),
    ])
    func utmCRS(latitude: Double, longitude: Double, expected: String) throws {
        let point = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(ProjectionChoice.utmCRS(for: point) == expected)
        #expect(ProjectionChoice.auto.crs(for: point) == expected)
    }

    @Test func istanbulPairInUTM35N() throws {
        // 131.929850 m (TOOLCHAIN-NOTES.md): 6 mm short of the geodesic, the UTM scale factor.
        let start = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let end = try Coordinate(latitude: 41.087853, longitude: 29.014096)
        let measured = try ProjectedDistance(.auto).measure(start, end)
        #expect(abs(measured.distanceMeters - 131.929_850) <= 1e-5)
        #expect(measured.crs == "EPSG:32635")
        #expect(try ProjectedDistance(.crs("EPSG:32635")).measure(start, end).distanceMeters == measured.distanceMeters)
        #expect(try DistanceModel.projected(.auto).distance(start, end) == measured.distanceMeters)
        #expect(Bearing.compassPoint(measured.gridBearing) == "WSW")
    }

    @Test func unknownCRSIsReported() throws {
        let point = try Coordinate(latitude: 41, longitude: 29)
        #expect {
            _ = try ProjectedDistance(.crs("EPSG:99999999")).measure(point, point)
        } throws: { error in
            guard let error = error as? GeoError, case .unknownCRS(let crs, _) = error else { return false }
            return crs == "EPSG:99999999" && error.description.hasPrefix("unknown CRS \"EPSG:99999999\": ")
        }
    }

    @Test func geographicCRSIsNotProjected() throws {
        let point = try Coordinate(latitude: 41, longitude: 29)
        #expect(throws: GeoError.notProjectedCRS("EPSG:4326")) {
            _ = try ProjectedDistance(.crs("EPSG:4326")).measure(point, point)
        }
        #expect(
            GeoError.notProjectedCRS("EPSG:4326").description
                == "CRS \"EPSG:4326\" is not a projected CRS: expected auto or a projected CRS such as EPSG:32635")
    }

    @Test func parsingChoices() throws {
        #expect(try ProjectionChoice(parsing: "auto") == .auto)
        #expect(try ProjectionChoice(parsing: " AUTO ") == .auto)
        #expect(try ProjectionChoice(parsing: " EPSG:32635 ") == .crs("EPSG:32635"))
        #expect(throws: GeoError.unknownCRS("", reason: "empty")) { _ = try ProjectionChoice(parsing: "") }
    }
}
